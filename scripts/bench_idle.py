#!/usr/bin/env python3
"""Memory of idle lobby clients: N connections say hello and sit in the lobby.

Starts its own `modernart-server --dev` (or the one of `--server-src`, for a
baseline in the same run), opens `--clients` connections that say hello and
read what the lobby pushes, and reports the server's RSS growth per client
(`per_client_kib`), measured after a full collection had the chance to run
(the clients stay `--settle` seconds). A second figure repeats it while every
client leaves its output unread (`--unread`): what a stalled lobby client may
cost at most, with the room lists it asks for piling up.
"""

from __future__ import annotations

import argparse
import asyncio
import pathlib
import shutil
import signal
import sys
import tempfile

import msgpack
from loadtest import free_port, rss_kb, start_server
from websockets.asyncio.client import connect
from websockets.frames import Frame, Opcode


async def idle_clients(url: str, count: int, settle: float, unread: bool, pid: int) -> float:
    """RSS growth (KiB) of the server per connected client."""
    before = rss_kb(pid)
    clients = []
    for i in range(count):
        ws = await connect(url, max_size=None, compression=None, open_timeout=60)
        await ws.send(msgpack.packb({"t": "hello", "v": 1, "name": f"Idle{i}"}))
        clients.append(ws)
    for ws in clients:
        while msgpack.unpackb(await ws.recv())["t"] != "rooms":
            pass
    if unread:
        ask = Frame(Opcode.BINARY, msgpack.packb({"t": "rooms"})).serialize(mask=True)
        for ws in clients:
            ws.transport.pause_reading()
            for _ in range(100):
                ws.transport.write(ask)
    await asyncio.sleep(settle)
    grown = rss_kb(pid) - before
    for ws in clients:
        ws.transport.abort()
    return grown / count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--settle", type=float, default=3.0)
    parser.add_argument("--rooms", type=int, default=50, help="waiting rooms listed")
    parser.add_argument("--server-src", type=pathlib.Path)
    args = parser.parse_args()
    results = {}
    for unread in (False, True):  # each on a fresh server: freed memory is not reused
        data = tempfile.mkdtemp(prefix="modernart-idle-")
        port = free_port()
        proc = start_server(port, data, args.server_src)
        url = f"ws://127.0.0.1:{port}/"

        async def run(url: str = url, unread: bool = unread, pid: int = proc.pid) -> float:
            for i in range(args.rooms):  # a full first page of the list, as on a busy server
                ws = await connect(url)
                await ws.send(msgpack.packb({"t": "hello", "v": 1, "name": f"Host{i}"}))
                await ws.send(msgpack.packb({"t": "create", "seats": 5, "name": "x" * 40}))
                while msgpack.unpackb(await ws.recv())["t"] != "joined":
                    pass
            await asyncio.sleep(1)
            return await idle_clients(url, args.clients, args.settle, unread, pid)

        try:
            results[unread] = asyncio.run(run())
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(30)
            shutil.rmtree(data, ignore_errors=True)
    idle, stalled = results[False], results[True]
    print(f"clients: {args.clients}  rooms listed: {args.rooms}")
    print(f"per_client_kib: {idle:.1f}")
    print(f"per_unread_client_kib: {stalled:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
