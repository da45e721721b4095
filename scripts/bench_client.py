"""A native client's memory in the lobby and after a whole game (issue 16, aim: ≤ 1.5×).

Usage: python scripts/bench_client.py [--games 1] [--tracemalloc]

An in-process dev server; two client processes, each `ClientApp` with Textual's own
LinuxDriver on a PTY of its own at 80×24 (what `modernart URL` runs): one stays in
the lobby, the other watches a 3-seat room (`watch=`) whose host, a WebSocket
client here, plays a random bot's moves against two server bots, game after game.
Each process's USS (psutil) is read in the lobby, at the table before the first
game, and after each game. `--tracemalloc` makes the watcher print the 15 largest
growths of its Python allocations between the game's start and its end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import fcntl
import os
import pathlib
import struct
import subprocess
import sys
import tempfile
import termios
from typing import Any

import msgpack
import psutil
from websockets.asyncio.client import ClientConnection, connect

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from modernart.engine.modernart.bots import make_bot  # noqa: E402
from modernart.server.wire.app import Server  # noqa: E402

MB = 1024 * 1024
CLIENT = """
import sys, signal
from modernart.server.doors.terminal.worker import SessionTokens
from modernart.tui.app import ClientApp
url, name, room, trace = sys.argv[1], sys.argv[2], sys.argv[3] or None, sys.argv[4] == "1"
if trace:
    import tracemalloc
    tracemalloc.start(5)
    def dump(*_):
        snap = tracemalloc.take_snapshot()
        global first
        if "first" not in globals():
            first = snap
            return
        with open(sys.argv[5], "w") as out:
            for stat in snap.compare_to(first, "traceback")[:15]:
                out.write(f"{stat}\\n")
                for line in stat.traceback.format()[-6:]:
                    out.write(f"    {line}\\n")
    signal.signal(signal.SIGUSR1, dump)
ClientApp(url, name=name, tokens=SessionTokens(None), watch=room).run()
"""


async def send(ws: ClientConnection, t: str, **fields: Any) -> None:
    await ws.send(msgpack.packb({"t": t, **fields}))


async def expect(ws: ClientConnection, t: str) -> dict[str, Any]:
    while (msg := msgpack.unpackb(await ws.recv()))["t"] != t:
        pass
    return msg


def uss_mb(proc: subprocess.Popen) -> float:
    return psutil.Process(proc.pid).memory_full_info().uss / MB


def pty_client(
    code: str, argv: list[str], env: dict[str, str] | None = None, cwd: pathlib.Path | None = None
) -> tuple[subprocess.Popen, int, bytearray]:
    """`python -c code argv…` on a PTY of its own at 80×24: the process, the PTY's master
    (read by the loop) and the last 64 KiB it showed."""
    master, slave = os.openpty()
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    proc = subprocess.Popen(
        [sys.executable, "-c", code, *argv],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        start_new_session=True,
        env=dict(os.environ, TERM="xterm-256color", **(env or {})),
        cwd=cwd,
    )
    os.close(slave)
    os.set_blocking(master, False)
    shown = bytearray()

    def drain() -> None:
        with contextlib.suppress(BlockingIOError, OSError):
            shown.extend(os.read(master, 65536))
            del shown[:-65536]

    asyncio.get_running_loop().add_reader(master, drain)
    return proc, master, shown


def start_client(url: str, name: str, room: str, trace: pathlib.Path | None) -> tuple:
    return pty_client(CLIENT, [url, name, room, "1" if trace else "0", str(trace or "")])


async def quiet(shown: bytearray, seconds: float = 2.0, limit: float = 30.0) -> None:
    """Until the client has drawn nothing for `seconds` (a measure over time)."""
    for _ in range(int(limit / seconds)):
        before = bytes(shown[-256:]), len(shown)
        await asyncio.sleep(seconds)
        if (bytes(shown[-256:]), len(shown)) == before:
            return


async def play(host: ClientConnection) -> None:
    bot = make_bot("random", 1)
    while True:
        view = (await expect(host, "update"))["view"]
        if view.get("finished"):
            return
        action = bot.choose(view) if view.get("legal") else None
        if action is not None:
            await send(host, "act", action=action)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--tracemalloc", action="store_true")
    args = parser.parse_args()
    data = pathlib.Path(tempfile.mkdtemp(prefix="bench-client-"))
    server = Server(data, port=0, dev=True)
    await server.start()
    url = f"ws://127.0.0.1:{server.port}/"
    host = await connect(url)
    await send(host, "hello", v=1, name="host")
    await expect(host, "welcome")
    await send(host, "create", seats=3)
    room = (await expect(host, "joined"))["room"]
    for _ in range(2):
        await send(host, "add_bot")
    trace = data / "growth.txt" if args.tracemalloc else None
    lobby, lobby_pty, lobby_shown = start_client(url, "lobby", "", None)
    watcher, watcher_pty, watcher_shown = start_client(url, "watcher", room, trace)
    try:
        await asyncio.gather(quiet(lobby_shown, limit=60), quiet(watcher_shown, limit=60))
        lobby_mb, table_mb = uss_mb(lobby), uss_mb(watcher)
        print(f"lobby client: USS {lobby_mb:.1f} MB; watcher at the table: {table_mb:.1f} MB")
        if trace:
            watcher.send_signal(10)  # SIGUSR1: the first snapshot
        for game in range(args.games):
            if game:
                await send(host, "rematch")
            await send(host, "start")
            await play(host)
            await quiet(watcher_shown)
            after = uss_mb(watcher)
            print(
                f"after game {game + 1}: watcher USS {after:.1f} MB "
                f"({after / lobby_mb:.2f}× the lobby client, {after / table_mb:.2f}× at the "
                f"table before it); lobby client {uss_mb(lobby):.1f} MB"
            )
        if trace:
            watcher.send_signal(10)
            await asyncio.sleep(3)  # the snapshot is written: a measure over time
            print(trace.read_text() if trace.exists() else "(no snapshot)")
    finally:
        for proc in (lobby, watcher):
            proc.kill()
            proc.wait()
        for fd in (lobby_pty, watcher_pty):
            asyncio.get_running_loop().remove_reader(fd)
            os.close(fd)
        await host.close()
        await server.stop()


if __name__ == "__main__":
    asyncio.run(main())
