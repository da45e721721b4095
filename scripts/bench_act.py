#!/usr/bin/env python3
"""The server's own CPU per act, without sockets: a hub, its rooms and their updates.

`scripts/loadtest.py` measures the whole server over real sockets, but on a shared
machine its CPU per act moves by a fifth between runs of the same server (the
kernel's sends, a neighbour's load). Here one process holds a `Hub` (a real store,
rooms, clocks, the outbox and its group commit) and `--rooms` rooms of four
connections whose transports keep what is written instead of sending it; each
round every room's next player acts (the engine's random bot on its last view),
and the loop then runs the rooms' timers (the hammer's `going`). The clients' work
(decoding frames, choosing) is timed apart and left out: what is left is the
server's Python and SQLite per act, without the kernel's `send`/`recv`.

Each measurement is a process of its own: `--server-src` (e.g. a `git archive` of
main) and this checkout alternate, `--repeat` times each, and the script prints
each run and the ratio of the least and of the medians (this checkout / `--server-src`).

`--store postgresql://…` measures the PostgreSQL store (issue 30) instead of SQLite:
each run makes a database of its own on that server and drops it after (the role
must be allowed to create databases). A commit there waits for the database, which
CPU time does not show: each run also prints the wall time per act.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

CHILD = "--child"


def fresh_store(data: pathlib.Path, url: str) -> tuple[Any, Callable[[], None]]:
    """The store to measure, and what drops its database after (nothing: SQLite)."""
    try:
        from modernart.server.store.sqlite import Store
    except ImportError:  # a baseline from before server/ had folders (issue 29)
        from modernart.server.store import Store  # type: ignore[no-redef]

    if not url:
        return Store(data), lambda: None
    import psycopg
    from psycopg.conninfo import make_conninfo

    from modernart.server.store.postgresql import PgStore

    name = f"bench_act_{os.getpid()}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")

    def drop() -> None:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE {name}")

    return PgStore(make_conninfo(url, dbname=name)), drop


def child(rooms: int, acts: int, seed: int, per_turn: int, url: str) -> dict[str, float]:
    import asyncio

    import msgpack
    import uvloop
    from websockets.protocol import State

    from modernart.engine.modernart.bots import make_bot
    from modernart.server.hub import Hub
    from modernart.server.limits import Limits

    try:
        from modernart.server.wire.session import Conn
    except ImportError:  # a baseline from before server/ had folders (issue 29)
        from modernart.server.session import Conn  # type: ignore[no-redef]

    class Transport:
        def __init__(self) -> None:
            self.out: list[bytes] = []

        def write(self, data: bytes) -> None:
            self.out.append(data)

        def is_closing(self) -> bool:
            return False

        def get_write_buffer_size(self) -> int:
            return 0

        def pause_reading(self) -> None: ...

        def resume_reading(self) -> None: ...

        def get_extra_info(self, name: str, default: object = None) -> object:
            return default

    class Protocol:
        state = State.OPEN

    class Ws:
        def __init__(self) -> None:
            self.protocol = Protocol()
            self.transport = Transport()

    seen = {"update": 0, "error": 0}

    class Player:
        def __init__(self, hub: Hub, limits: Limits, name: str, rng: random.Random) -> None:
            self.ws = Ws()
            self.conn = Conn(self.ws, "127.0.0.1", limits, hub.outbox)  # type: ignore[arg-type]
            self.name = name
            self.view: dict | None = None
            self.seat: int | None = None
            self.bot = make_bot("random", rng.getrandbits(32))

        def read(self) -> list[dict]:
            """What the server wrote since the last read, as messages (client work)."""
            out, self.ws.transport.out = self.ws.transport.out, []
            messages = []
            for data in out:
                pos = 0
                while pos < len(data):
                    size, head = data[pos + 1], 2
                    if size == 126:
                        size, head = data[pos + 2] << 8 | data[pos + 3], 4
                    messages.append(msgpack.unpackb(data[pos + head : pos + head + size]))
                    pos += head + size
            for msg in messages:
                if msg["t"] in seen:
                    seen[msg["t"]] += 1
                if msg["t"] == "update":
                    self.view = msg["view"]
                    self.seat = self.view["you"]
            return messages

    async def run() -> dict[str, float]:
        rng = random.Random(seed)
        limits = Limits.for_dev()
        data = pathlib.Path(tempfile.mkdtemp(prefix="bench-act-"))
        store, drop = fresh_store(data, url)
        hub = Hub(store, dev=True, limits=limits)
        hub.load()

        def send(p: Player, msg: dict, flush: bool = True) -> None:
            hub.handle(p.conn, msgpack.packb(msg), True)
            if flush:
                hub.outbox.flush()

        tables: list[list[Player]] = []
        for r in range(rooms):
            players = [Player(hub, limits, f"P{r}x{i}", rng) for i in range(4)]
            for p in players:
                hub.connected(p.conn)
                send(p, {"t": "hello", "v": 1, "name": p.name})
            options = {"shout_window_ms": 100, "bot_delay_ms": 0, "takeover_s": 0}
            send(players[0], {"t": "create", "seats": 4, "options": options})
            room = next(m["room"] for m in players[0].read() if m["t"] == "joined")
            for p in players[1:]:
                send(p, {"t": "join", "room": room})
            send(players[0], {"t": "start"})
            tables.append(players)
        client = 0.0
        sent = 0
        began, began_wall = time.process_time(), time.perf_counter()
        while sent < acts:
            for players in tables:
                t0 = time.process_time()
                for p in players:
                    p.read()
                ready = [
                    p for p in players if p.view and not p.view["finished"] and p.view["legal"]
                ]
                action = None
                if ready:
                    p = rng.choice(ready)
                    action = p.bot.choose(p.view)
                client += time.process_time() - t0
                if action is not None:
                    sent += 1
                    send(p, {"t": "act", "id": sent, "action": action}, sent % per_turn == 0)
            hub.outbox.flush()
            await asyncio.sleep(0)  # the rooms' timers (the hammer) run
        total = time.process_time() - began
        wall = time.perf_counter() - began_wall
        hub.shutdown()
        store.close()
        drop()
        per_act = (total - client) / sent * 1e6
        wall_per_act = (wall - client) / sent * 1e6
        return {"server_us_per_act": per_act, "wall_us_per_act": wall_per_act, "acts": sent, **seen}

    return uvloop.run(run())


def measure(src: pathlib.Path | None, args: argparse.Namespace) -> dict[str, float]:
    env = dict(os.environ)
    cwd = None
    if src is not None:
        shim = pathlib.Path(tempfile.mkdtemp(prefix="bench-act-src-"))
        (shim / "modernart").mkdir()
        (shim / "modernart" / "__init__.py").write_text("")
        for part in ("engine", "server"):
            (shim / "modernart" / part).symlink_to(src.resolve() / part)
        env["PYTHONPATH"] = str(shim)
        cwd = str(shim)  # not a checkout, whose modernart/ would win
    cmd = [sys.executable, str(pathlib.Path(__file__).resolve()), CHILD]
    cmd += [str(args.rooms), str(args.acts), str(args.seed), str(args.per_turn), args.store]
    out = subprocess.run(cmd, env=env, cwd=cwd, check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == CHILD:
        rooms, acts, seed, per_turn = map(int, sys.argv[2:6])
        print(json.dumps(child(rooms, acts, seed, per_turn, sys.argv[6])))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--acts", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--per-turn", type=int, default=8, help="acts between flushes")
    parser.add_argument("--server-src", type=pathlib.Path, help="the baseline's source tree")
    parser.add_argument("--store", default="", help="a PostgreSQL server's URL (default SQLite)")
    args = parser.parse_args()
    runs: dict[str, list[float]] = {"base": [], "this": []}
    for _ in range(args.repeat):
        for name, src in (("base", args.server_src), ("this", None)):
            if name == "base" and src is None:
                continue
            got = measure(src, args)
            runs[name].append(got["server_us_per_act"])
            wall = got.get("wall_us_per_act")
            also = f" (wall {wall:.1f} µs)" if wall is not None else ""
            print(f"{name}: {runs[name][-1]:.1f} µs per act{also}", flush=True)
    # A neighbour's load only ever adds time: the least of a few runs is the figure.
    for name, pick in (("min", min), ("median", statistics.median)):
        this = pick(runs["this"])
        if runs["base"]:
            base = pick(runs["base"])
            print(f"{name}: base {base:.1f}, this {this:.1f} µs per act, ratio {this / base:.2f}")
        else:
            print(f"{name}: {this:.1f} µs per act")


if __name__ == "__main__":
    main()
