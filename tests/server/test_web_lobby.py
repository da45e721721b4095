"""The lobby in a real browser window about 101 columns wide (issue 28, play-tests
2026-12-03 night #3: a 760 px window there), where the room list ran off the screen
(Watch cut to "W", a horizontal scroll bar). Chromium only, like most of
tests/server/test_web.py."""

from __future__ import annotations

import asyncio
import os
import pathlib
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from modernart.server.doors.web.gate import WebGate, WebSettings

from .browser import Page, available, give_back, take
from .sshgate import gates
from .wsclient import Client

pytestmark = [
    pytest.mark.skipif(
        not available() and not os.environ.get("CI"),
        reason="needs Debian's chromium and chromium-driver (.ci/run installs them)",
    ),
    pytest.mark.xdist_group("chromium"),
]

ROOM = "carol's big table · rematch 2"
PLAYERS = ["carol_collects", "dave_the_dealer", "Hugo", "Vera"]


@pytest.fixture
async def web(tmp_path: pathlib.Path) -> AsyncIterator[Callable[..., Awaitable[WebGate]]]:
    async for make in gates(tmp_path, lambda server, s: WebGate(server, WebSettings(port=0, **s))):
        yield make


@pytest.fixture
async def page() -> AsyncIterator[Page]:
    browser = await asyncio.to_thread(take, "chromium", 760, 600)
    yield Page(browser)
    await asyncio.to_thread(give_back, browser)


async def test_a_760_px_page_shows_every_column_of_the_lobby_whole(web, page):
    gate = await web()
    url = f"ws://127.0.0.1:{gate.server.port}/"
    players = [await Client.hello(url, name) for name in PLAYERS]
    try:
        await players[0].send("create", seats=4, name=ROOM, game="artsociety")
        room = (await players[0].expect("joined"))["room"]
        for client in players[1:]:
            await client.send("join", room=room)
            await client.expect("joined")
        await page.open(f"http://127.0.0.1:{gate.port}/")
        await page.wait_text("carol")
        (session,) = gate.terminals.sessions
        # The window's width for about 101 columns (the font's width differs by machine).
        width = round(760 * 102 / session.cols)
        await page.call(page.driver.set_window_size, width, 600)

        def redrawn(text: str) -> bool:
            """The lobby drawn at the session's new width, about 101 columns."""
            border = [line for line in text.splitlines() if line.startswith("╭─ Rooms")]
            return 100 <= session.cols <= 104 and [len(b) for b in border] == [session.cols]

        shown = await page.wait(redrawn, "the lobby at about 101 columns")
        lines = shown.splitlines()
        header = [line.split()[-3:] for line in lines if "Seats" in line]
        assert header == [["Lock", "Watch", "│"]], shown
        row = [line.split()[-3:] for line in lines if "carol" in line and "Art Society" in line]
        assert row == [["house", "0", "│"]], shown  # the variant, no lock, the Watch count
    finally:
        for client in players:
            await client.close()
