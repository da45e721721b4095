"""The attacks of issue 33 items 4 and 9c, run by scripts/attack.py like its own.

- "33.4 double Origin flood": `/ws` requests with two `Origin` headers to the
  browser door, as fast as a few sockets can (the old code: HTTP 500 and a
  traceback each, 1.39 MB/s of log).
- "33.4 foreign origin flood": `/ws` requests from a foreign `Origin` (the old
  code: an INFO line each, 0.5 MB/s).
- "33.9 rematch toggles": a finished table's player toggles its rematch answer
  about 50 times a second while 60 spectators watch (the old code: each toggle
  reached every spectator).

The browser door's port is `WEB_PORT` (attack.py sets it when it starts the
server with `--web-port`, as it sets attack_ssh.SSH_PORT) or the environment's
`MODERNART_WEB_PORT`; without one the web attacks say so and do nothing.
attack.py measures the log's growth beside each.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections import Counter
from typing import Any

import msgpack
from attackkit import hello, open_ws, pack, until
from websockets.asyncio.client import ClientConnection

from modernart.engine.modernart.bots import make_bot

WEB_PORT = 0  # set by attack.py in the attack's process
SOCKETS = 8  # requests in flight at once


def web_port() -> int:
    return WEB_PORT or int(os.environ.get("MODERNART_WEB_PORT", "0"))


async def ask(port: int, request: bytes) -> int:
    """One raw request; the answer's status (0: no answer)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(request)
        await writer.drain()
        line = await reader.readline()
        with contextlib.suppress(OSError):
            await reader.read()
        parts = line.split()
        return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    finally:
        writer.close()


async def request_flood(end: float, origins: list[str]) -> dict[str, Any]:
    port = web_port()
    if not port:
        return {"skipped": "no browser door: start the server with --web-port"}
    head = f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
    head += "Upgrade: websocket\r\nConnection: Upgrade\r\n"
    head += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
    request = (head + "".join(f"Origin: {o}\r\n" for o in origins) + "\r\n").encode()
    statuses: Counter[int] = Counter()
    started = time.monotonic()

    async def one_socket() -> None:
        while time.monotonic() < end:
            try:
                statuses[await ask(port, request)] += 1
            except OSError:
                statuses[0] += 1

    await asyncio.gather(*(one_socket() for _ in range(SOCKETS)))
    count = sum(statuses.values())
    return {
        "requests": count,
        "per s": round(count / (time.monotonic() - started)),
        "statuses": dict(statuses),
    }


async def double_origin(url: str, end: float) -> dict[str, Any]:
    port = web_port()
    return await request_flood(end, [f"http://127.0.0.1:{port}"] * 2)


async def foreign_origin(url: str, end: float) -> dict[str, Any]:
    return await request_flood(end, ["http://evil.example"])


# ------------------------------------------------------------- rematch toggles


async def client(url: str, address: str, name: str) -> ClientConnection:
    ws = await open_ws(url, address)
    await hello(ws, name)
    return ws


async def finished_table(url: str) -> tuple[list[ClientConnection], str]:
    """Three players who play a quick game to its end; their room."""
    suffix = f"{time.monotonic_ns() % 10**6}"
    players = [await client(url, "10.33.9.1", f"Toggler{i}x{suffix}") for i in range(3)]
    options = {"shout_window_ms": 100, "turn_timeout_s": 0, "takeover_s": 0}
    await players[0].send(pack({"t": "create", "seats": 3, "options": options}))
    room = (await until(players[0], lambda m: m["t"] == "joined"))["room"]
    for ws in players[1:]:
        await ws.send(pack({"t": "join", "room": room}))
        await until(ws, lambda m: m["t"] == "joined")
    await players[0].send(pack({"t": "start"}))
    await asyncio.gather(*(play(ws, seat) for seat, ws in enumerate(players)))
    return players, room


async def play(ws: ClientConnection, seat: int) -> None:
    """Act on every update that offers something, until the game is over."""
    bot = make_bot("random", seat)
    while True:
        update = await until(ws, lambda m: m["t"] == "update", 60)
        view = update["view"]
        if view["finished"]:
            return
        if view["legal"] and (action := bot.choose(view)):
            await ws.send(pack({"t": "act", "action": action}))


async def rematch_toggles(url: str, end: float) -> dict[str, Any]:
    players, room = await finished_table(url)
    seen = Counter[int]()
    watchers = []
    for i in range(60):  # 6 addresses, within the per-address limits
        ws = await client(url, f"10.33.9.{10 + i // 10}", f"Watcher{i}x{room}")
        await ws.send(pack({"t": "watch", "room": room}))
        await until(ws, lambda m: m["t"] == "joined")
        watchers.append(ws)

    async def count(i: int, ws: ClientConnection) -> None:
        with contextlib.suppress(Exception):
            async for frame in ws:
                if msgpack.unpackb(frame, strict_map_key=False).get("t") == "rematch":
                    seen[i] += 1

    readers = [asyncio.create_task(count(i, ws)) for i, ws in enumerate(watchers)]
    toggler = players[0]
    answers: Counter[str] = Counter()

    async def answers_of() -> None:
        with contextlib.suppress(Exception):
            async for frame in toggler:
                message = msgpack.unpackb(frame, strict_map_key=False)
                answers[message.get("code") or message["t"]] += 1

    reading = asyncio.create_task(answers_of())
    toggles = 0
    end = max(end, time.monotonic() + 3)  # toggles for a while even if the game was slow
    while time.monotonic() < end:
        await toggler.send(pack({"t": "rematch", "room": room, "accept": toggles % 2 == 0}))
        toggles += 1
        await asyncio.sleep(0.02)  # about 50 a second, under the 60 a connection may send
    await asyncio.sleep(1)  # the last broadcasts arrive
    for task in [*readers, reading]:
        task.cancel()
    for ws in [*players, *watchers]:
        await ws.close()
    per_watcher = [seen[i] for i in range(len(watchers))]
    return {
        "toggles": toggles,
        "rematch messages per spectator (max)": max(per_watcher),
        "to all spectators": sum(per_watcher),
        "toggler got": dict(answers),
    }


ATTACKS = {
    "33.4 double Origin flood": double_origin,
    "33.4 foreign origin flood": foreign_origin,
    "33.9 rematch toggles": rematch_toggles,
}
