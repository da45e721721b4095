"""The WebSocket attacks of issue 21, run by scripts/attack.py against its server
while a healthy game plays; each returns what it achieved."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import time
from collections.abc import Awaitable, Callable
from typing import Any

import msgpack
from attackkit import hello, open_ws, pack, until
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.frames import Frame, Opcode


async def markup_names(url: str, end: float) -> dict[str, Any]:
    """21.2: a room and a player named with markup (`[/]` crashed every Textual client
    that opened the lobby); chat in markup all along. The server lists them as text;
    tests/tui/test_markup.py shows that the client does too."""
    ws = await open_ws(url, "10.21.2.1")
    await hello(ws, "[/]")
    await ws.send(pack({"t": "create", "seats": 3, "name": "[blink reverse red]SERVER WARNING[/]"}))
    await until(ws, lambda m: m["t"] == "joined")
    sent = 0
    while time.monotonic() < end:
        await ws.send(pack({"t": "chat", "text": "[/] [blink]alarm[/blink]"}))
        sent += 1
        await asyncio.sleep(1.0)
    listed = await open_ws(url, "10.21.2.2")
    await hello(listed, "Reader")
    rooms = await until(listed, lambda m: m["t"] == "rooms")
    names = [r["name"] for r in rooms["rooms"] if "[" in r["name"]]
    await listed.close()
    await ws.close()
    return {"chats": sent, "listed as typed": names[:1]}


async def chat_fanout(url: str, end: float) -> dict[str, Any]:
    """21.4: 300 spectators of one room each chat once a second (their own limit);
    each line used to go to every member: 300 x 300 frames a second."""
    host = await open_ws(url, "10.21.4.1")
    await hello(host, "ChatHost")
    await host.send(pack({"t": "create", "seats": 3}))
    room = (await until(host, lambda m: m["t"] == "joined"))["room"]
    counts = {"watching": 0, "watch refused": 0, "lines sent": 0, "busy": 0, "lines heard": 0}

    async def read(ws: ClientConnection) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for frame in ws:
                message = msgpack.unpackb(frame, strict_map_key=False)
                if message["t"] == "chat":
                    counts["lines heard"] += 1
                elif message.get("code") == "rate_limited":
                    counts["busy"] += 1

    async def one(a: int) -> None:
        ws = await open_ws(url, f"10.21.5.{a % 250}")
        await hello(ws, f"S{a}")
        await ws.send(pack({"t": "watch", "room": room, "id": 1}))
        answer = await until(ws, lambda m: m.get("re") == 1)
        if answer["t"] == "error":
            counts["watch refused"] += 1
            await ws.close()
            return
        counts["watching"] += 1
        reader = asyncio.create_task(read(ws))
        while time.monotonic() < end:
            await ws.send(pack({"t": "chat", "text": f"hello from {a}"}))
            counts["lines sent"] += 1
            await asyncio.sleep(1.0)
        reader.cancel()
        ws.transport.abort()  # gone at once, as 1,000 leaving spectators did

    await asyncio.gather(*(one(a) for a in range(300)))
    await host.close()
    return counts


def send_queues(port: int) -> int:
    """Bytes in the kernel's send queues of the server's sockets (`ss`)."""
    out = subprocess.run(
        ["ss", "-tnH", "state", "established", f"( sport = :{port} )"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    return sum(int(line.split()[1]) for line in out.splitlines() if line.split())


async def unread_lists(url: str, end: float) -> dict[str, Any]:
    """21.5: 50 waiting rooms listed (a page of ~20 KiB), then 600 connections from 20
    addresses ask for the list without ever reading: what the kernel holds for
    them on the server's side (it was 2.1 MB a connection)."""
    port = int(url.rsplit(":", 1)[1].strip("/"))
    for a in range(5):
        for i in range(10):
            ws = await open_ws(url, f"10.21.6.{a}")
            await hello(ws, f"L{a}-{i}")
            await ws.send(pack({"t": "create", "seats": 5, "name": "x" * 40}))
            await until(ws, lambda m: m["t"] in ("joined", "error"))
            await ws.close()
    frame = Frame(Opcode.BINARY, pack({"t": "rooms"})).serialize(mask=True)
    peak = 0
    unread = 0

    async def one(a: int) -> None:
        nonlocal unread
        ws = await open_ws(url, f"10.21.7.{a % 20}")
        await hello(ws, f"U{a}")
        ws.transport.pause_reading()
        unread += 1
        while time.monotonic() < end and not ws.transport.is_closing():
            ws.transport.write(frame)
            await asyncio.sleep(0.05)
        ws.transport.abort()

    async def watch() -> None:
        nonlocal peak
        while time.monotonic() < end:
            peak = max(peak, send_queues(port))
            await asyncio.sleep(0.5)

    await asyncio.gather(watch(), *(one(a) for a in range(600)))
    return {"unread connections": unread, "kernel send queues, peak MB": round(peak / 2**20, 1)}


async def budget_flood(url: str, end: float) -> dict[str, Any]:
    """21.6: 16 addresses x 20 connections (the new identities an address may make at
    once), each within its own rate (55 a second): `rooms` from most, `sync` and
    `history` from those seated in a room."""
    counts = {"sent": 0, "answers": 0, "closed": 0, "refused": 0}

    async def one(a: int, c: int) -> None:
        try:
            ws = await open_ws(url, f"10.21.8.{a}")
            if (await hello(ws, f"B{a}-{c}"))["t"] != "welcome":
                raise ConnectionError
        except (InvalidStatus, OSError, TimeoutError, ConnectionClosed):
            counts["refused"] += 1
            return
        kinds = [{"t": "rooms"}]
        if c % 3 == 0:
            await ws.send(pack({"t": "create", "seats": 3}))
            await until(ws, lambda m: m["t"] in ("joined", "error"))
            kinds = [{"t": "sync"}, {"t": "history"}]

        async def read() -> None:
            with contextlib.suppress(ConnectionClosed):
                async for _ in ws:
                    counts["answers"] += 1

        reader = asyncio.create_task(read())
        i = 0
        try:
            while time.monotonic() < end:
                await ws.send(pack(kinds[i % len(kinds)]))
                counts["sent"] += 1
                i += 1
                await asyncio.sleep(1 / 55)
        except ConnectionClosed:
            counts["closed"] += 1
        reader.cancel()
        await ws.close()

    await asyncio.gather(*(one(a, c) for a in range(16) for c in range(20)))
    return counts


async def presence_churn(url: str, end: float) -> dict[str, Any]:
    """21.8: three players of one running game say hello again and again with their
    tokens (each a disconnect and a connect); then a newcomer asks for the whole
    history with the client's 1 MiB frame limit."""
    tokens = []
    players = []
    for i in range(3):
        ws = await open_ws(url, f"10.21.9.{i}")
        tokens.append((await hello(ws, f"Churn{i}"))["token"])
        players.append(ws)
    await players[0].send(pack({"t": "create", "seats": 3, "options": {"turn_timeout_s": 0}}))
    room = (await until(players[0], lambda m: m["t"] == "joined"))["room"]
    for ws in players[1:]:
        await ws.send(pack({"t": "join", "room": room}))
        await until(ws, lambda m: m["t"] == "joined")
    await players[0].send(pack({"t": "start"}))
    for ws in players:
        await ws.close()
    hellos = 0

    async def churn(i: int) -> None:
        nonlocal hellos
        while time.monotonic() < end:
            ws = await open_ws(url, f"10.21.9.{i}")
            await hello(ws, f"Churn{i}", tokens[i])
            hellos += 1
            ws.transport.abort()

    await asyncio.gather(*(churn(i) for i in range(3)))
    reader = await connect(url, max_size=2**20, additional_headers={"X-Forwarded-For": "10.21.9.9"})
    await hello(reader, "Late")
    await reader.send(pack({"t": "watch", "room": room}))
    await until(reader, lambda m: m["t"] == "joined")
    await reader.send(pack({"t": "history", "id": 1}))
    try:
        history = await until(reader, lambda m: m.get("re") == 1)
        answer = f"{len(history.get('events', []))} events, more={history.get('more')}"
    except ConnectionClosed as exc:
        answer = f"closed {exc.rcvd.code if exc.rcvd else '?'}"
    await reader.close()
    return {"hellos": hellos, "history": answer}


async def identity_expiry(url: str, end: float) -> dict[str, Any]:
    """21.9: the first sweep (60 s after the start) forgets the never-seated identities
    that `--seed-identities` stored, old, before the server started; this attack
    only waits for it, sending nothing."""
    while time.monotonic() < end:
        await asyncio.sleep(0.5)
    return {"waited for the sweep": True}


ATTACKS: dict[str, Callable[[str, float], Awaitable[dict[str, Any]]]] = {
    "21.2 markup names": markup_names,
    "21.4 chat fan-out": chat_fanout,
    "21.5 unread lists, kernel buffers": unread_lists,
    "21.6 flood within every limit": budget_flood,
    "21.8 presence churn": presence_churn,
    "21.9 identity expiry": identity_expiry,
}
