"""The lobby in a real browser window about 101 columns wide (issue 28, play-tests
2026-12-03 night #3: a 760 px window there), where the room list ran off the screen
(Watch cut to "W", a horizontal scroll bar). Chromium only, like most of
tests/server/test_web.py."""

from __future__ import annotations

import asyncio
import os
import pathlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from modernart.server.doors.web.gate import WebGate, WebSettings

from .browser import WAIT, Page, available, give_back, take
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


# Each row of the terminal: its non-blank runs of text with the colours the browser draws
# them in (xterm.js's DOM renderer: a span per run; no background: the terminal's).
COLOURS_JS = """
const screen = getComputedStyle(document.querySelector('.xterm-viewport')).backgroundColor;
return [screen, Array.from(document.querySelectorAll('.xterm-rows > div')).map(row =>
  Array.from(row.querySelectorAll('span')).filter(s => s.textContent.trim()).map(s => {
    const style = getComputedStyle(s);
    const back = style.backgroundColor === 'rgba(0, 0, 0, 0)' ? screen : style.backgroundColor;
    return [s.textContent, style.color, back];
  }))];
"""


BORDER = "│─╭╮╰╯ "  # the panel's border around the list


def rgb(css: str) -> list[float]:
    """A CSS colour ("rgb(r, g, b)" or "rgba(r, g, b, a)") as [r, g, b, a], 0–1 each."""
    parts = [float(p) for p in css[css.index("(") + 1 : css.index(")")].split(",")]
    return [c / 255 for c in parts[:3]] + [parts[3] if len(parts) > 3 else 1.0]


def contrast(fore: str, back: str) -> float:
    """WCAG 2's contrast ratio of a text colour (with its alpha: xterm.js draws dim text
    at half opacity) over a background colour."""
    *front, alpha = rgb(fore)
    under = rgb(back)[:3]
    drawn = [alpha * f + (1 - alpha) * b for f, b in zip(front, under, strict=True)]

    def luminance(colour: list[float]) -> float:
        r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in colour)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light, dark = sorted((luminance(drawn), luminance(under)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


async def test_the_lobby_list_s_header_and_cursor_row_read_clearly_in_the_browser(web, page):
    """Play-test 2026-12-05 #3: the cursor row was grey on light grey (xterm.js drew its
    bold black as bright black on Tango's white, 5:1) and the header white on a light blue
    (2.8:1). The cursor row's text now has WCAG AAA's contrast (7:1), the header's AA's
    (4.5:1), and the cursor row its own background."""
    gate = await web()
    url = f"ws://127.0.0.1:{gate.server.port}/"
    owner = await Client.hello(url, PLAYERS[0])
    try:
        await owner.send("create", seats=4, name=ROOM, game="modernart")
        await owner.expect("joined")
        await page.open(f"http://127.0.0.1:{gate.port}/")
        await page.wait_text("carol")
        # A key first, as a player's: in a full suite the list was once never drawn focused
        # within a minute (the shared browser's window without focus, xterm.js reporting
        # it); a key gives a blurred Textual app its focus back. ↑ on the only room: the
        # cursor stays.
        await page.send("\x1b[A")

        async def lobby_rows() -> tuple[str, list[Any], list[Any]]:
            """The screen's colour and the list's header and cursor rows, once the cursor
            row is drawn focused (its own background): the rows can be drawn before the
            lobby's focus reaches the list (once, beside a CPU hog)."""
            async with asyncio.timeout(WAIT):
                while True:
                    screen, rows = await page.run(COLOURS_JS)
                    rows = [[run for run in row if run[0].strip(BORDER)] for row in rows]
                    header = [r for r in rows if any("Seats" in text for text, _, _ in r)]
                    cursor = [r for r in rows if any("▶" in text for text, _, _ in r)]
                    if header and cursor and cursor[0][0][2] != screen:
                        return screen, header[0], cursor[0]
                    await page.next_change()

        screen, header, cursor = await lobby_rows()
        assert any("carol" in text for text, _, _ in cursor), cursor  # the room's row
        for text, fore, back in header:
            assert contrast(fore, back) >= 4.5, (text, fore, back)
        for text, fore, back in cursor:
            assert contrast(fore, back) >= 7, (text, fore, back)
            assert back not in (screen, header[0][2]), (text, back, screen)
    finally:
        await owner.close()


async def test_the_create_dialog_s_notes_placeholders_and_button_read_clearly(web, page):
    """Play-test 2026-12-05 #5: the create dialog's notes were bright black dimmed (1.4:1 on
    black), its placeholders dimmed on the fields' grey, and Create blue on black (looked
    disabled). Every run of text in the dialog now has WCAG AA's contrast (4.5:1)."""
    gate = await web()
    await page.open(f"http://127.0.0.1:{gate.port}/")
    await page.wait_text("No rooms yet")
    await page.send("c")
    await page.wait_text("Shout window")
    _, rows = await page.run(COLOURS_JS)
    dialog = [run for row in rows for run in row if run[0].strip(BORDER + "▌▐█▀▄")]
    texts = " ".join(text for text, _, _ in dialog)
    for words in ("Tab: next field", "(optional)", "Create", "Seconds without a new bid"):
        assert words in texts, texts
    for text, fore, back in dialog:
        assert contrast(fore, back) >= 4.5, (text, fore, back)
