"""What a hop through Redis adds (issue 30): a room message's round trip for a client on
the room's own process against a client on another process of the cluster.

Usage: python scripts/bench_cluster.py [--requests N] [--store URL] [--redis URL]

Two `modernart-server --dev` processes (A, B) share a PostgreSQL store and a Redis; without
--store / --redis the script starts a throwaway PostgreSQL and redis-server of its own (the
tests' helpers, tests/server/pgcluster.py and rediscluster.py). Ann (on A) makes a waiting
room; Bob (on B) joins it. Each then asks `sync` N times, one at a time, alternating: Ann's
answers come from her own process, Bob's cross to A and back through Redis. Prints the
round trips' p50 / p99 / mean in µs for each, and the difference.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

import msgpack
from websockets.asyncio.client import connect

TOP = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TOP))

from tests.server.pgcluster import Cluster  # noqa: E402
from tests.server.rediscluster import RedisServer  # noqa: E402
from tests.server.test_persistence import start_process  # noqa: E402
from tests.server.wsclient import free_port  # noqa: E402


async def up(port: int, store: str, redis: str, data: pathlib.Path) -> subprocess.Popen:
    """A server process of the cluster, once it answers (its messages not rate-limited:
    the requests go back to back)."""
    flags = ["--redis", redis, "--messages-per-s", "0", "--address-messages-per-s", "0"]
    return await start_process(port, data, store, *flags)


async def hello(port: int, name: str):
    ws = await connect(f"ws://127.0.0.1:{port}/", max_size=None, compression=None)
    await ws.send(msgpack.packb({"t": "hello", "v": 1, "name": name}))
    return ws


async def until(ws, kind: str, **match: object) -> dict:
    while True:
        msg = msgpack.unpackb(await ws.recv())
        if msg["t"] == kind and all(msg.get(k) == v for k, v in match.items()):
            return msg


async def round_trip(ws, rid: int) -> float:
    start = time.perf_counter()
    await ws.send(msgpack.packb({"t": "sync", "id": rid}))
    while msgpack.unpackb(await ws.recv()).get("re") != rid:
        pass
    return (time.perf_counter() - start) * 1e6


def figures(name: str, times: list[float]) -> str:
    times = sorted(times)
    p99 = times[int(len(times) * 0.99) - 1]
    return (
        f"{name}: p50 {statistics.median(times):.0f} µs, p99 {p99:.0f} µs,"
        f" mean {statistics.fmean(times):.0f} µs"
    )


async def bench(requests: int, store: str, redis: str, tmp: pathlib.Path) -> None:
    ports = [free_port(), free_port()]
    procs = [await up(p, store, redis, tmp / str(p)) for p in ports]
    try:
        ann, bob = await hello(ports[0], "Ann"), await hello(ports[1], "Bob")
        await ann.send(msgpack.packb({"t": "create", "seats": 3}))
        room = (await until(ann, "joined"))["room"]
        await bob.send(msgpack.packb({"t": "rooms"}))
        while not any(r["id"] == room for r in (await until(bob, "rooms"))["rooms"]):
            pass  # B lists the room once A's beat reaches it (a push follows)
        await bob.send(msgpack.packb({"t": "join", "room": room}))
        await until(bob, "joined")
        load = os.getloadavg()[0]
        local: list[float] = []
        remote: list[float] = []
        for i in range(2, requests + 2):
            local.append(await round_trip(ann, i))
            remote.append(await round_trip(bob, i))
        print(f"load before: {load:.2f}; {requests} sync requests each, alternating")
        print(figures("client on the room's process (A)", local))
        print(figures("client on another process (B, through Redis)", remote))
        added = statistics.median(remote) - statistics.median(local)
        print(f"a hop through Redis adds (p50): {added:.0f} µs")
        await ann.close()
        await bob.close()
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--store", help="a PostgreSQL URL (default: a throwaway one)")
    parser.add_argument("--redis", help="a Redis URL (default: a throwaway redis-server)")
    args = parser.parse_args()
    pg = None if args.store else Cluster()
    redis = None if args.redis else RedisServer()
    try:
        store = args.store or pg.database()  # type: ignore[union-attr]
        url = args.redis or redis.url  # type: ignore[union-attr]
        with tempfile.TemporaryDirectory() as tmp:
            asyncio.run(bench(args.requests, store, url, pathlib.Path(tmp)))
    finally:
        if pg is not None:
            pg.stop()
        if redis is not None:
            redis.stop()


if __name__ == "__main__":
    main()
