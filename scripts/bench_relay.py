"""The screen relay's cost per update: Textual's strips drawn into cells, against parsing
Textual's escape sequences back with pyte (the design before), in the same run.

Usage: python scripts/bench_relay.py [--baseline REV] [--repeat 5]

A real `ClientApp` at 80×24 (under Textual's `run_test`) watches a whole 3-player
game of two server bots (100 ms a move) and a random player (a WebSocket client here)
on an in-process server, and keeps every screen update Textual makes. Each update is
then relayed as a session's terminal would get it, one frame an update (the worst
case: no two merged):
- new: `pieces(update)` → `ScreenRelay.draw` → `take()` (this tree);
- old: `update.render_segments(console)` → the old `ScreenRelay.feed` (pyte) → `take()`
  → `SgrFilter` (REV's server/terminal; default bcbe95c, the last with pyte), with
  Textual's per-strip rendering cache emptied first, as each new strip is rendered once
  in a session.
It prints the CPU time per update of each (the best of `--repeat` passes), their ratio,
and the bytes each sends for the game.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import pathlib
import subprocess
import sys
import tempfile
import time
import types
from typing import Any

from rich.color import ColorSystem
from websockets.asyncio.client import connect

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from modernart.server.doors.terminal.screen import ScreenRelay, pieces  # noqa: E402
from modernart.server.doors.terminal.worker import SessionTokens  # noqa: E402
from modernart.server.wire.app import Server  # noqa: E402
from modernart.tui.app import ClientApp  # noqa: E402
from modernart.tui.textual_internals import CompositorUpdate  # noqa: E402
from scripts.bench_client import expect, play, send  # noqa: E402

ALT_ON = "\x1b[?1049h\x1b[?25l"
BOT_DELAY_MS = 100  # each act on a screen of its own, as at the bots' pace of play
PYTE_RELAY = "bcbe95c"  # the last commit whose relay parsed escape sequences with pyte


class Watcher(ClientApp):
    """The client, keeping every screen update it makes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.updates: list[CompositorUpdate] = []

    def _display(self, screen: Any, renderable: Any) -> None:
        if isinstance(renderable, CompositorUpdate):
            self.updates.append(renderable)
        super()._display(screen, renderable)


async def capture() -> tuple[list[CompositorUpdate], Any]:
    server = Server(pathlib.Path(tempfile.mkdtemp(prefix="bench-relay-")), port=0, dev=True)
    await server.start()
    url = f"ws://127.0.0.1:{server.port}/"
    host = await connect(url)
    await send(host, "hello", v=1, name="host")
    await expect(host, "welcome")
    await send(host, "create", seats=3, options={"bot_delay_ms": BOT_DELAY_MS})
    room = (await expect(host, "joined"))["room"]
    for _ in range(2):
        await send(host, "add_bot")
    app = Watcher(url, name="watcher", tokens=SessionTokens(None), watch=room)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await send(host, "start")
            await play(host)
            for _ in range(20):  # the last screens
                await pilot.pause()
            return list(app.updates), app.console
    finally:
        await host.close()
        await server.stop()


def old_modules(rev: str) -> Any:
    """REV's server/terminal as a package of its own (`oldterm`), its screen relay and filter."""
    tree = pathlib.Path(tempfile.mkdtemp(prefix="bench-relay-old-"))
    archive = subprocess.run(["git", "archive", rev], cwd=ROOT, check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    package = types.ModuleType("oldterm")
    terminal = tree / "server" / "doors" / "terminal"  # server/terminal before issue 29's folders
    package.__path__ = [str(terminal if terminal.is_dir() else tree / "server" / "terminal")]
    sys.modules["oldterm"] = package
    return importlib.import_module("oldterm.screen"), importlib.import_module("oldterm.output")


def run_new(updates: list[CompositorUpdate], colours: ColorSystem) -> tuple[float, int]:
    relay = ScreenRelay(80, 24)
    relay.feed(ALT_ON.encode())
    start, sent = time.process_time(), 0
    for update in updates:
        relay.draw(pieces(update), (0, 0), colours)
        sent += len(relay.take())
    return time.process_time() - start, sent


def run_old(updates: list[CompositorUpdate], console: Any, old: Any) -> tuple[float, int]:
    screen, output = old
    for update in updates:  # each strip rendered once, as in a session
        for strip in (p[2] for p in pieces(update)):
            strip._render_cache = None
    relay, sgr = screen.ScreenRelay(80, 24), output.SgrFilter()
    relay.feed(ALT_ON.encode())
    start, sent = time.process_time(), 0
    for update in updates:
        relay.feed(update.render_segments(console).encode())
        sent += len(sgr.feed(relay.take()))
    return time.process_time() - start, sent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=PYTE_RELAY)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    old = old_modules(args.baseline)
    updates, console = asyncio.run(capture())
    colours = console._color_system or ColorSystem.TRUECOLOR
    cells = sum(p[3] for u in updates for p in pieces(u))
    print(f"{len(updates)} updates in a game ({cells / len(updates):.0f} cells each)")
    new = min(run_new(updates, colours) for _ in range(args.repeat))
    before = min(run_old(updates, console, old) for _ in range(args.repeat))
    per = 1e6 / len(updates)
    print(f"old ({args.baseline}, pyte): {before[0] * per:8.1f} µs an update, {before[1]:,} bytes")
    print(f"new (strips):      {new[0] * per:8.1f} µs an update, {new[1]:,} bytes")
    print(f"new / old: {new[0] / before[0]:.3f} of the CPU, {new[1] / before[1]:.3f} of the bytes")


if __name__ == "__main__":
    main()
