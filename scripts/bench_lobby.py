#!/usr/bin/env python3
"""A lobby session's CPU for each room list the server pushes (issue 31).

Usage: python scripts/bench_lobby.py [--baseline REV] [--rooms 10] [--pushes 30] [--repeat 2]

The server pushes the room list to every session in the lobby when a room changes (at
most once a second: server/lobby/roomlist.py), so with L sessions in the lobby a change
costs L times what one session spends drawing it, at once, in the workers the players'
sessions share. An in-process dev server (this tree) on 127.0.0.1 with `--rooms` rooms,
each made by a websocket client of its own; for each source tree (the baseline's `git
archive`, then this tree, `--repeat` times in turn), a `ClientApp` in the lobby with
Textual's own LinuxDriver on a PTY of its own at 80×24 (what an SSH session's worker
runs, less the screen relay). The bench then changes the list `--pushes` times, one
change a push: a new room (on top of the list: every row moves down), then a second
player seated in it (one cell changes), in turn. The client notes its CPU
(`time.process_time`: the whole process) from each list's arrival to the frame that
shows it drawn (`call_after_refresh`), and the total from the first change to the last
list drawn, divided by the lists. Prints both per tree, by kind of change.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pathlib
import statistics
import sys
import tempfile
from typing import Any

import msgpack
from websockets.asyncio.client import connect

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_client import pty_client  # noqa: E402
from bench_sessions import baseline_tree  # noqa: E402

from modernart.server.lobby.roomlist import LOBBY_PUSH_EVERY  # noqa: E402
from modernart.server.wire.app import Server  # noqa: E402

CLIENT = r"""
import json, sys, time
import modernart.tui
try:
    from modernart.server.doors.terminal.worker import SessionTokens
except ImportError:  # a baseline from before server/ had folders (issue 29)
    from modernart.server.terminal.worker import SessionTokens
from modernart.tui.app import ClientApp

url, rooms, wanted, out, ready = sys.argv[1:6]
rooms, wanted = int(rooms), int(wanted)
state = {"lists": 0, "cpu0": None, "samples": [], "last": None}
on_rooms = ClientApp._on_rooms


def finish(app):
    cpu = time.process_time() - state["cpu0"]
    with open(out, "w") as f:
        figures = {"lists": state["lists"], "cpu": cpu, "samples": state["samples"]}
        json.dump({**figures, "src": modernart.tui.__file__}, f)
    app.exit()


def counted(self, msg):
    listed = len(msg.get("rooms") or [])
    if state["cpu0"] is None:
        on_rooms(self, msg)
        if listed >= rooms:  # every room made: the measure starts with the next list
            state["cpu0"], state["last"] = time.process_time(), listed
            open(ready, "w").close()
        return
    t0 = time.process_time()
    kind = "new room" if listed != state["last"] else "a cell changed"
    state["last"] = listed
    on_rooms(self, msg)
    state["lists"] += 1
    n = state["lists"]

    def drawn():
        state["samples"].append((kind, time.process_time() - t0))
        if n == wanted:
            finish(self)

    self.call_after_refresh(drawn)


ClientApp._on_rooms = counted
ClientApp(url, name=f"lobby{__import__('os').getpid()}", tokens=SessionTokens(None)).run()
"""


class Raw:
    """A websocket client of the server's protocol (msgpack), for the bench's own moves."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws

    @classmethod
    async def open(cls, url: str, name: str) -> Raw:
        raw = cls(await connect(url, compression=None, max_size=None))
        await raw.send({"t": "hello", "v": 1, "name": name})
        await raw.expect("welcome")
        return raw

    async def send(self, msg: dict[str, Any]) -> None:
        await self.ws.send(msgpack.packb(msg))

    async def expect(self, kind: str) -> dict[str, Any]:
        while True:
            msg = msgpack.unpackb(await asyncio.wait_for(self.ws.recv(), 30))
            if msg.get("t") == kind:
                return msg
            if msg.get("t") == "error":
                raise RuntimeError(msg)


async def make_room(url: str, name: str) -> tuple[Raw, str]:
    host = await Raw.open(url, name)
    await host.send({"t": "create", "seats": 4, "name": f"{name}'s table"})
    joined = await host.expect("joined")
    return host, str(joined["room"])


class Changes:
    """The room list changed in turn as people change it: a new room (on top of the
    list), then a second player seated in it (one row's cells); `close` ends them all."""

    def __init__(self, url: str, prefix: str) -> None:
        self.url, self.prefix = url, prefix
        self.clients: list[Raw] = []
        self.made = 0
        self.room = ""

    async def next(self) -> None:
        name = f"{self.prefix}{self.made}"
        if self.made % 2 == 0:
            host, self.room = await make_room(self.url, name)
            self.clients.append(host)
        else:
            guest = await Raw.open(self.url, f"visitor{name}")
            await guest.send({"t": "join", "room": self.room})
            await guest.expect("joined")
            self.clients.append(guest)
        self.made += 1

    async def close(self) -> None:
        for client in self.clients:
            await client.ws.close()


async def run_tree(
    url: str, src: pathlib.Path | None, args: argparse.Namespace, tmp: pathlib.Path, n: int
) -> dict:
    """One lobby client through `--pushes` changes of the list: its figures."""
    out, ready = tmp / f"lobby-{n}.json", tmp / f"ready-{n}"
    env = {"PYTHONPATH": str(src)} if src is not None else None
    argv = [url, str(args.rooms), str(args.pushes), str(out), str(ready)]
    proc, master, shown = pty_client(CLIENT, argv, env, cwd=tmp)
    loop = asyncio.get_running_loop()
    changes = Changes(url, f"new{n}x")
    try:
        while not ready.exists():  # the client's first list (every room in it)
            if proc.poll() is not None:
                break
            await asyncio.sleep(0.1)
        for _ in range(args.pushes):
            await asyncio.sleep(LOBBY_PUSH_EVERY + 0.1)  # one change a push
            await changes.next()
        for _ in range(int(args.timeout / 0.2)):
            if proc.poll() is not None:
                break
            await asyncio.sleep(0.2)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        loop.remove_reader(master)
        os.close(master)
        await changes.close()  # their rooms close: the next tree starts as this one did
    if not out.exists():
        tail = bytes(shown[-3000:]).decode(errors="replace")
        raise SystemExit(f"the lobby client ended without figures:\n{tail}")
    return json.loads(out.read_text())


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", help="also measure this revision's client (git archive)")
    parser.add_argument("--rooms", type=int, default=10, help="rooms listed before the changes")
    parser.add_argument("--pushes", type=int, default=30, help="changes of the list measured")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=30, help="seconds for the last list")
    args = parser.parse_args()
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="bench-lobby-"))
    server = Server(tmp / "data", port=0, dev=True)
    await server.start()
    url = f"ws://127.0.0.1:{server.port}/"
    hosts = [await make_room(url, f"host{i}") for i in range(args.rooms)]
    trees: list[tuple[str, pathlib.Path | None]] = []
    if args.baseline:
        (tmp / "baseline").mkdir()
        trees.append((args.baseline, baseline_tree(args.baseline, tmp / "baseline")))
    trees.append(("this tree", None))
    results: dict[str, list[dict]] = {label: [] for label, _ in trees}
    try:
        for r in range(args.repeat):
            for i, (label, src) in enumerate(trees):
                load = os.getloadavg()[0]
                figures = await run_tree(url, src, args, tmp, r * len(trees) + i)
                results[label].append(figures)
                per = figures["cpu"] / max(1, figures["lists"]) * 1000
                tree = pathlib.Path(figures["src"]).parent.parent.name
                print(
                    f"{label}: {figures['lists']} lists, {per:.2f} ms CPU a list in all"
                    f" (load before {load:.2f}; {tree}/tui)"
                )
    finally:
        for host, _ in hosts:
            await host.ws.close()
        await server.stop()
    print("\nCPU from a list's arrival to its frame, p50 / max (n), and in all per list:")
    for label, runs in results.items():
        kinds: dict[str, list[float]] = {}
        for figures in runs:
            for kind, cpu in figures["samples"]:
                kinds.setdefault(kind, []).append(cpu * 1000)
        parts = [
            f"{kind} {statistics.median(v):.1f} / {max(v):.1f} ms ({len(v)})"
            for kind, v in sorted(kinds.items())
        ]
        total = sum(f["cpu"] for f in runs) / max(1, sum(f["lists"] for f in runs)) * 1000
        print(f"  {label}: " + "; ".join(parts) + f"; in all {total:.1f} ms a list")


if __name__ == "__main__":
    asyncio.run(main())
