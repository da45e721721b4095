"""Quitting in the browser (play-test 2026-12-03 evening, #6): the browser door tells
its client that it runs in a page, whose footer then does not offer Ctrl+Q (Firefox on
Linux quits itself on it) and whose F1 says how to leave; Ctrl+Q still quits where the
browser passes it (Chromium does). Chromium only."""

from __future__ import annotations

import os
import pathlib

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from .browser import available
from .test_web import browser as browser  # the fixtures: Chromium, the browser door
from .test_web import create_room, lobby
from .test_web import web as web

pytestmark = [
    pytest.mark.skipif(
        not available() and not os.environ.get("CI"),
        reason="needs Debian's chromium and chromium-driver (.ci/run installs them)",
    ),
    pytest.mark.xdist_group("chromium"),
]


async def test_the_page_does_not_offer_ctrl_q_says_how_to_leave_and_ctrl_q_still_quits(
    web, browser, tmp_path: pathlib.Path
):
    gate = await web()
    page = await browser()
    await lobby(gate, page)
    await create_room(page, 0)
    shown = await page.wait_text("f1 Help")  # the waiting room's footer
    assert "^q Quit" not in shown and "Quit" not in shown.splitlines()[-1]
    await page.send(Keys.F1)
    await page.wait_text("Escape closes")
    await page.send(Keys.END)
    shown = await page.wait_text("close the tab")
    await page.screenshot(tmp_path / "help.png")
    await page.send(Keys.ESCAPE)
    await page.wait(lambda t: "Escape closes" not in t, "help closed")

    def ctrl_q() -> None:  # to whatever has the focus, as a player's keyboard would
        ActionChains(page.driver).key_down(Keys.CONTROL).send_keys("q").key_up(
            Keys.CONTROL
        ).perform()

    await page.call(ctrl_q)
    await page.wait_text("Press any key to connect again")
