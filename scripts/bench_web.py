#!/usr/bin/env python3
"""Browser door figures beside the SSH door's, in one run: memory, key to screen, bytes a game.

    .venv/bin/python scripts/bench_web.py [--sessions 10] [--presses 60] [--screenshot PNG]

The server runs in this process with both doors on one `Terminals` (the shared
session machinery). A "page" here is a WebSocket client speaking exactly what
page.js speaks (Origin, subprotocol, ["stdin", …] frames), its screen kept by
pyte; the SSH side uses asyncssh clients. Figures:
- memory: the sessions' processes' PSS (the zygote's share included), per
  session, with N sessions of each door in the lobby;
- key press to screen: from sending a key that changes the lobby (F1, then
  q) to the first output frame on the loopback socket, p50/p99;
- bytes for a whole 4-player game against 3 bots, seat 0 played by keys;
- in headless Chromium and Firefox (those installed): from keydown to the
  terminal's rows changing.
With --screenshot, headless Chromium (Debian's) plays a card and saves the table.
"""

from __future__ import annotations

import argparse
import asyncio
import pathlib
import statistics
import sys
import tempfile
import time
from typing import Any

import asyncssh

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from modernart.server.doors.ssh.server import SshGate, SshSettings
from modernart.server.doors.terminal import Limits
from modernart.server.doors.terminal.terminals import pss_mb
from modernart.server.doors.web.gate import WebGate, WebSettings
from modernart.server.wire.app import Server
from tests.server.browser import available
from tests.server.pageclient import PageClient
from tests.server.sshterm import KeyboardPlayer, open_terminal, ssh_connect

WAIT = 120.0


def sessions_pss(web: WebGate) -> float:
    terminals = web.terminals
    pids = [s.pid for s in terminals.sessions if s.pid] + [terminals.zygote.pid or 0]
    return sum(pss_mb(p) for p in pids if p)


async def quiet(term: Any, seconds: float = 1.0) -> None:
    """Until nothing arrived for `seconds` (a measure over time: sleeping is the point)."""
    while True:
        before = term.received
        await asyncio.sleep(seconds)
        if term.received == before:
            return


async def key_to_screen(term: Any, presses: int) -> list[float]:
    """Milliseconds from a key that changes the lobby to the first bytes back."""
    times = []
    await quiet(term)
    for i in range(presses):
        # F1 opens the help, q closes it (no lone Escape: its wait for a sequence).
        key, opens = ("\x1bOP", True) if i % 2 == 0 else ("q", False)
        before = term.received
        t0 = time.perf_counter()
        term.send(key)
        await term.wait(lambda b=before: term.received > b, "a frame")
        times.append((time.perf_counter() - t0) * 1000)
        await term.wait(lambda o=opens: ("Escape closes" in term.text()) == o, "help")
        await quiet(term, 0.3)
    return times


def p(values: list[float], q: float) -> float:
    if len(values) < 2:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


async def whole_game(server: Server, term: Any) -> tuple[int, float]:
    """Bytes the terminal got for a whole game, seat 0 typed, 3 bots."""
    hub = server.hub
    assert hub is not None
    rooms_before = set(hub.rooms)
    term.send("c")
    await term.wait_text("Create a room")
    term.send("\x13")
    await term.wait_text("You host")
    term.send("bbb")
    await term.wait(lambda: len(set(hub.rooms) - rooms_before) == 1, "the room")
    (room_id,) = set(hub.rooms) - rooms_before
    room = hub.rooms[room_id]
    await term.wait(lambda: all(s is not None for s in room.seats), "three bots")
    await quiet(term)
    start, t0 = term.received, time.monotonic()
    term.send("s")
    keyboard = KeyboardPlayer(term, 0)

    def finished() -> bool:
        keyboard.step(room.game)
        return room.game is not None and room.game.finished

    await term.wait(finished, "the game's end", timeout=1800)
    await term.wait_text("Round 4 is over")
    term.send("\r")
    await term.wait_text("Game over")
    return term.received - start, time.monotonic() - t0


async def screenshot(gate: WebGate, path: pathlib.Path) -> None:
    from tests.server.browser import Browser, Page

    browser = await asyncio.to_thread(Browser, 1000, 640)
    try:
        page = Page(browser)
        await page.open(f"http://127.0.0.1:{gate.port}/")
        await page.wait_text("Rooms")
        await page.send("c")
        await page.wait_text("Create a room")
        await page.send("\x13")
        await page.wait_text("You host")
        await page.send("bbb")
        await page.wait(lambda t: t.count("(H)") + t.count("(R)") >= 3, "bots")
        await page.send("s")
        await page.wait_text("Your hand")
        await asyncio.sleep(2)  # let the bots' first moves draw: a picture, not a test
        await page.screenshot(path)
    finally:
        await asyncio.to_thread(browser.quit)


# Key to drawn rows inside Chromium: a keydown listener (capture phase, before
# xterm.js) stamps each key, a MutationObserver on the rows the next change.
STAMP_JS = """
window.benchKeys = []; window.benchDraws = [];
document.addEventListener('keydown', () => benchKeys.push(performance.now()), true);
new MutationObserver(() => benchDraws.push(performance.now())).observe(
  document.querySelector('.xterm-rows'), {childList: true, subtree: true, characterData: true});
"""


async def in_browser(gate: WebGate, presses: int, kind: str = "chromium") -> list[float]:
    """Milliseconds from keydown to the terminal's rows changing, in a headless browser."""
    from selenium.webdriver.common.keys import Keys

    from tests.server.browser import Browser, Page

    browser = await asyncio.to_thread(Browser, 1000, 640, kind)
    try:
        page = Page(browser)
        await page.open(f"http://127.0.0.1:{gate.port}/")
        await page.wait_text("Rooms")
        await page.run(STAMP_JS)
        for i in range(presses):
            opens = i % 2 == 0
            await page.send(Keys.F1 if opens else "q")
            await page.wait(lambda t, o=opens: ("Escape closes" in t) == o, "help")
        keys, draws = await page.run("return [benchKeys, benchDraws]")
    finally:
        await asyncio.to_thread(browser.quit)
    return [min(d for d in draws if d >= k) - k for k in keys if any(d >= k for d in draws)]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--presses", type=int, default=60)
    parser.add_argument("--no-game", action="store_true")
    parser.add_argument("--screenshot", type=pathlib.Path, default=None)
    parser.add_argument("--browser-presses", type=int, default=40, help="0: no browser")
    parser.add_argument(
        "--browsers",
        default="chromium,firefox",
        help="the headless browsers for the drawn-rows figure (those installed)",
    )
    args = parser.parse_args()
    data = pathlib.Path(tempfile.mkdtemp(prefix="bench-web-"))
    server = Server(data, port=0, dev=True)
    await server.start()
    unlimited = Limits(per_address=0, starts_per_address=(0, 60.0), starts_total=(0, 1.0))
    ssh = SshGate(server, SshSettings(port=0, guests=True, limits=unlimited))
    await ssh.start()
    web = WebGate(server, WebSettings(port=0), ssh.terminals)
    await web.start()
    try:
        if args.screenshot:
            await screenshot(web, args.screenshot)
            print(f"screenshot: {args.screenshot}")
        await quiet_start()
        base = sessions_pss(web)
        pages = [await PageClient.open(web.port) for _ in range(args.sessions)]
        for page in pages:
            await page.wait_text("Rooms")
        await asyncio.gather(*(quiet(page, 2.0) for page in pages))
        await web.terminals.measure()
        web_mb = (sessions_pss(web) - base) / args.sessions
        web_keys = await key_to_screen(pages[0], args.presses)
        for page in pages:
            await page.ws.close()
        while web.terminals.sessions:
            await asyncio.sleep(0.2)
        base = sessions_pss(web)
        keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(args.sessions)]
        terms = [
            await open_terminal(await ssh_connect(ssh.port, f"p{i}", k)) for i, k in enumerate(keys)
        ]
        for term in terms:
            await term.wait_text("Rooms")
        await asyncio.gather(*(quiet(term, 2.0) for term in terms))
        ssh_mb = (sessions_pss(web) - base) / args.sessions
        ssh_keys = await key_to_screen(terms[0], args.presses)
        for term in terms:
            assert term.chan is not None
            term.chan.close()
        while web.terminals.sessions:
            await asyncio.sleep(0.2)
        print(f"memory per session in the lobby ({args.sessions} each, PSS):")
        print(f"  browser {web_mb:.1f} MB, SSH {ssh_mb:.1f} MB, ratio {web_mb / ssh_mb:.2f}")
        print(f"key press to first bytes on loopback ({args.presses} presses):")
        for name, t in (("browser", web_keys), ("SSH", ssh_keys)):
            print(f"  {name}: p50 {p(t, 50):.1f} ms, p99 {p(t, 99):.1f} ms, max {max(t):.1f} ms")
        print(f"  ratio p99 {p(web_keys, 99) / p(ssh_keys, 99):.2f}")
        kinds = [k for k in args.browsers.split(",") if k and available(k)]
        for kind in kinds if args.browser_presses else []:
            drawn = await in_browser(web, args.browser_presses, kind)
            print(
                f"key press to drawn rows in {kind} ({len(drawn)} presses): "
                f"p50 {p(drawn, 50):.1f} ms, p99 {p(drawn, 99):.1f} ms, max {max(drawn):.1f} ms"
            )
        if not args.no_game:
            page = await PageClient.open(web.port)
            await page.wait_text("Rooms")
            web_bytes, web_s = await whole_game(server, page)
            await page.ws.close()
            key = asyncssh.generate_private_key("ssh-ed25519")
            term = await open_terminal(await ssh_connect(ssh.port, "gamer", key))
            await term.wait_text("Rooms")
            ssh_bytes, ssh_s = await whole_game(server, term)
            print("bytes for a whole game (seat 0 by keys, 3 bots):")
            print(
                f"  browser {web_bytes / 1e6:.3f} MB ({web_s:.0f} s), "
                f"SSH {ssh_bytes / 1e6:.3f} MB ({ssh_s:.0f} s), "
                f"ratio {web_bytes / ssh_bytes:.2f}"
            )
    finally:
        await web.stop()
        await ssh.stop()
        await server.stop()


async def quiet_start() -> None:
    await asyncio.sleep(1.0)  # the zygote settles before the baseline is read


if __name__ == "__main__":
    asyncio.run(main())
