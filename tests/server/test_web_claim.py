"""A claim code in a real browser when the door refuses the session (issue 28): the box
keeps the code, the page says why, and a retry (any key) claims with it. Chromium only."""

from __future__ import annotations

import asyncio
import os
import pathlib
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from modernart.server.doors.terminal import Limits, TerminalSettings
from modernart.server.doors.web.gate import WebGate, WebSettings

from .browser import WAIT, Page, available, give_back, take
from .pageclient import PageClient
from .sshgate import gates
from .waiting import eventually

pytestmark = [
    pytest.mark.skipif(
        not available() and not os.environ.get("CI"),
        reason="needs Debian's chromium and chromium-driver (.ci/run installs them)",
    ),
    pytest.mark.xdist_group("chromium"),
]

STATUS_JS = "return document.getElementById('claim-status').textContent"
BOX_JS = "return document.getElementById('claim-code').value"


@pytest.fixture
async def web(tmp_path: pathlib.Path) -> AsyncIterator[Callable[..., Awaitable[WebGate]]]:
    """A browser door that admits one identity per address."""
    one = TerminalSettings(limits=Limits(per_address=1))
    async for make in gates(
        tmp_path, lambda server, s: WebGate(server, WebSettings(port=0, **s), None, one)
    ):
        yield make


@pytest.fixture
async def page() -> AsyncIterator[Page]:
    browser = await asyncio.to_thread(take)
    yield Page(browser)
    await asyncio.to_thread(give_back, browser)


async def status(page: Page, has: str) -> str:
    """The claim's status line once it holds `has`."""
    async with asyncio.timeout(WAIT):
        while has not in (said := str(await page.run(STATUS_JS))):
            await page.next_change(200)
    return said


async def test_a_refused_claim_keeps_its_code_in_the_box_and_a_key_retries_it(web, page):
    gate = await web()
    hub, store = gate.server.hub, gate.server.store
    ann = await PageClient.open(gate.port)  # the address's one identity
    await ann.wait_text("Rooms")
    assert ann.cookie is not None
    identity = store.find_identity(ann.cookie.split("=", 1)[1])
    code = hub.handoffs.issue(identity[0], None)
    await page.open(f"http://127.0.0.1:{gate.port}/")
    await page.wait_text("Too many sessions from your address")

    def type_code() -> None:
        page.driver.find_element(By.ID, "claim-code").send_keys(code.lower() + Keys.ENTER)

    await page.call(type_code)
    said = await status(page, "Not claimed")
    assert "Too many sessions from your address (at most 1)" in said
    assert str(await page.run(BOX_JS)).upper() == code  # kept for a retry
    assert code in hub.handoffs.codes
    await ann.ws.close()
    await eventually(lambda: not gate.terminals.sessions, "the address's session ended")
    await page.send("x")  # "Press any key to connect again": with the code
    await status(page, "This browser now plays that identity.")
    await page.wait_text("Rooms")
    assert await page.run(BOX_JS) == "" and code not in hub.handoffs.codes
