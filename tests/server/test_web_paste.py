"""A long paste in a real browser (issue 33, item 5): page.js sends it in frames the
server takes (a frame may be 64 KiB), the door cuts it at its limit, and the keys work
after it. Chromium only, like most of tests/server/test_web.py."""

from __future__ import annotations

import asyncio
import os
import pathlib
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from modernart.server.doors.web.gate import WebGate, WebSettings

from .browser import Page, available, give_back, take
from .sshgate import gates

pytestmark = [
    pytest.mark.skipif(
        not available() and not os.environ.get("CI"),
        reason="needs Debian's chromium and chromium-driver (.ci/run installs them)",
    ),
    pytest.mark.xdist_group("chromium"),
]

# A paste as the browser makes one: a `paste` event on xterm.js's textarea.
PASTE_JS = """
const data = new DataTransfer();
data.setData('text/plain', arguments[0]);
document.querySelector('.xterm-helper-textarea').dispatchEvent(
  new ClipboardEvent('paste', {clipboardData: data, bubbles: true, cancelable: true}));
"""


@pytest.fixture
async def web(tmp_path: pathlib.Path) -> AsyncIterator[Callable[..., Awaitable[WebGate]]]:
    async for make in gates(tmp_path, lambda server, s: WebGate(server, WebSettings(port=0, **s))):
        yield make


@pytest.fixture
async def page() -> AsyncIterator[Page]:
    browser = await asyncio.to_thread(take)
    yield Page(browser)
    await asyncio.to_thread(give_back, browser)


async def test_a_100_kib_paste_in_the_browser_is_cut_and_the_keys_still_work(web, page):
    gate = await web()
    await page.open(f"http://127.0.0.1:{gate.port}/")
    await page.wait_text("Rooms")
    await page.send("n")
    await page.wait_text("Your name")
    await page.run(PASTE_JS, "Zed\n" + "x" * 100_000)  # one frame would be 100 KB
    await page.wait_text("Zed")  # the paste's first line, in the name box
    (session,) = gate.terminals.sessions
    assert session.keys.cutter.cuts == 1  # at 64 KiB, by the door
    await page.send("\x1b")  # Escape closes the name box: the keys work
    await page.wait(lambda shown: "Your name" not in shown, "the name box closed")
    assert "Disconnected" not in await page.text()
