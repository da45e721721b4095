#!/usr/bin/env python3
"""Cost of reading one client act off the socket: `GuardedConnection.data_received`
with its fast path for whole binary frames (server/wire/app.py, issue 21) against
websockets' own parser (the same connection class, its fast path bypassed), run
interleaved in one process on the same frames. A frame is an `act` as a websockets
client masks it, one per `data_received` (as they arrive under load), handed to a
handler that only keeps it. Prints microseconds per frame and the ratio."""

from __future__ import annotations

import argparse
import asyncio
import time

import msgpack
from websockets.asyncio.connection import Connection
from websockets.asyncio.server import ServerConnection
from websockets.client import ClientProtocol
from websockets.datastructures import Headers
from websockets.http11 import Request
from websockets.protocol import State
from websockets.server import ServerProtocol
from websockets.uri import parse_uri

from modernart.server.cli import new_loop
from modernart.server.wire.app import GuardedConnection
from modernart.server.wire.codec import MAX_FRAME


class Sink(asyncio.Transport):
    def write(self, data: object) -> None:
        pass

    def is_closing(self) -> bool:
        return False

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def set_write_buffer_limits(self, high: object = None, low: object = None) -> None:
        pass


class Websockets(GuardedConnection):
    def data_received(self, data: bytes) -> None:
        ServerConnection.data_received(self, data)


def frames(n: int) -> list[bytes]:
    client = ClientProtocol(parse_uri("ws://127.0.0.1/"), state=State.OPEN)
    out = []
    for i in range(n):
        client.send_binary(msgpack.packb({"t": "act", "id": i, "type": "bid", "amount": 17}))
        out.append(b"".join(client.data_to_send()))
    return out


def seconds(kind: type[GuardedConnection], chunks: list[bytes]) -> float:
    conn = kind(ServerProtocol(state=State.OPEN, max_size=MAX_FRAME), None, ping_interval=None)
    Connection.connection_made(conn, Sink())
    conn.request = Request("/", Headers())
    got: list = []
    conn.start_handling(got.append)
    feed = conn.data_received
    start = time.perf_counter()
    for chunk in chunks:
        feed(chunk)
    took = time.perf_counter() - start
    assert len(got) == len(chunks)
    return took


async def run(count: int, repeats: int) -> None:
    chunks = frames(count)
    best = {GuardedConnection: float("inf"), Websockets: float("inf")}
    for _ in range(repeats):
        for kind in best:
            best[kind] = min(best[kind], seconds(kind, chunks))
    fast, slow = (best[k] / count * 1e6 for k in (GuardedConnection, Websockets))
    print(f"frame bytes: {len(chunks[0])}  frames: {count}  repeats: {repeats} (min)")
    print(f"websockets_parser_us: {slow:.2f}")
    print(f"fast_path_us: {fast:.2f}")
    print(f"ratio: {fast / slow:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=20000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    with asyncio.Runner(loop_factory=new_loop) as runner:
        runner.run(run(args.frames, args.repeats))


if __name__ == "__main__":
    main()
