"""The WebSocket attacks of issue 7, run by scripts/attack.py against its server
while a healthy game plays; each returns what it achieved."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from attackkit import hello, open_ws, pack, until
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.frames import Frame, Opcode


async def lobby_flood(url: str, end: float) -> dict[str, Any]:
    """Item 1: 300 waiting rooms, then 30 clients ask `rooms` 50 times a second
    and never read their socket."""
    made = 0
    for a in range(30):
        for i in range(10):
            ws = await open_ws(url, f"10.1.{a}.1")
            await hello(ws, f"R{a}-{i}")
            await ws.send(pack({"t": "create", "seats": 5, "name": "x" * 40}))
            reply = await until(ws, lambda m: m["t"] in ("joined", "error"))
            made += reply["t"] == "joined"
            await ws.close()
    sent = 0
    dropped = 0

    async def flooder(a: int) -> None:
        nonlocal sent, dropped
        ws = await open_ws(url, f"10.2.{a}.1")
        await hello(ws, f"F{a}")
        ws.transport.pause_reading()
        try:
            while time.monotonic() < end:
                ws.transport.write(Frame(Opcode.BINARY, pack({"t": "rooms"})).serialize(mask=True))
                sent += 1
                await asyncio.sleep(0.02)
                if ws.transport.is_closing():
                    dropped += 1
                    return
        finally:
            ws.transport.abort()

    await asyncio.gather(*(flooder(a) for a in range(30)))
    return {"rooms made": made, "requests": sent, "flooders dropped": dropped}


async def room_spam(url: str, end: float) -> dict[str, Any]:
    """Item 2: one address creates waiting rooms as fast as it can; then an honest
    client's welcome and room list must fit its 1 MiB frame limit."""
    created = refused = 0
    while time.monotonic() < end:
        ws = await open_ws(url, "10.3.0.1")
        if (await hello(ws, "Spam"))["t"] == "welcome":
            await ws.send(pack({"t": "create", "seats": 3}))
            reply = await until(ws, lambda m: m["t"] in ("joined", "error"))
            created += reply["t"] == "joined"
            refused += reply["t"] == "error"
        else:
            refused += 1
        await ws.close()
    ws = await connect(url, max_size=2**20, additional_headers={"X-Forwarded-For": "10.3.0.2"})
    await hello(ws, "Honest")
    listing = await until(ws, lambda m: m["t"] == "rooms")
    await ws.close()
    return {"rooms created": created, "refused": refused, "honest list": len(listing["rooms"])}


async def fragments(url: str, end: float) -> dict[str, Any]:
    """Item 3: 40 addresses × 30 connections each hold a never-ending fragmented
    message of up to 960 KiB."""
    held = 0
    closed = 0
    refused = 0

    async def one(address: str) -> None:
        nonlocal held, closed, refused
        while time.monotonic() < end:
            try:
                ws = await open_ws(url, address)
            except (InvalidStatus, OSError, TimeoutError):
                refused += 1
                await asyncio.sleep(0.5)
                continue
            stop = asyncio.Event()

            async def chunks(stop: asyncio.Event = stop) -> AsyncIterator[bytes]:
                for _ in range(60):  # 960 KiB
                    yield b"x" * 16384
                await stop.wait()

            held += 1
            try:
                async with asyncio.timeout(max(0.1, end - time.monotonic())):
                    await ws.send(chunks())
                    await ws.wait_closed()  # the message can never end: only a close
            except ConnectionClosed:
                closed += 1
            except TimeoutError:
                closed += ws.close_code is not None
            stop.set()
            ws.transport.abort()

    await asyncio.gather(*(one(f"10.4.{a}.1") for a in range(40) for _ in range(30)))
    return {"messages started": held, "closed by the server": closed, "refused": refused}


async def bot_farm(url: str, end: float) -> dict[str, Any]:
    """Item 4: instant bots, instant takeovers and all-bot games from one address."""
    started = refused = 0
    identity = 0
    while time.monotonic() < end:
        ws = await open_ws(url, "10.5.0.1")
        if (await hello(ws, f"Farm{identity}"))["t"] != "welcome":
            refused += 1
            await ws.close()
            continue
        identity += 1
        for options in ({"bot_delay_ms": 0, "takeover_s": 1}, {"bot_delay_ms": 500}):
            await ws.send(pack({"t": "create", "seats": 3, "options": options}))
            if (await until(ws, lambda m: m["t"] in ("joined", "error")))["t"] == "error":
                refused += 1
                continue
            for _ in range(2):
                await ws.send(pack({"t": "add_bot"}))
            await ws.send(pack({"t": "start", "id": 1}))
            answer = await until(ws, lambda m: m["t"] == "update" or m.get("re") == 1)
            started += answer["t"] == "update"
            refused += answer["t"] == "error"
            await ws.send(pack({"t": "leave"}))
            await until(ws, lambda m: m["t"] == "left")
        await ws.close()  # nobody left at those tables: their games wait
    return {"games started": started, "refused": refused}


async def ghost_spectators(url: str, end: float) -> dict[str, Any]:
    """Item 6: players watch their own running game, then join it again: 20 players
    from 20 addresses, 100 times each (2,000 cycles), within the message rate limit."""

    async def one(a: int) -> tuple[int, int | None]:
        ws = await open_ws(url, f"10.6.{a}.1")
        await hello(ws, f"Ghost{a}")
        await ws.send(pack({"t": "create", "seats": 3, "options": {"takeover_s": 0}}))
        room = (await until(ws, lambda m: m["t"] == "joined"))["room"]
        for _ in range(2):
            await ws.send(pack({"t": "add_bot"}))
        await ws.send(pack({"t": "start"}))
        await until(ws, lambda m: m["t"] == "update")
        ids = itertools.count(1)
        cycles = 0
        while cycles < 100 and time.monotonic() < end:
            cycle = ({"t": "leave"}, {"t": "watch", "room": room}, {"t": "join", "room": room})
            for message in cycle:
                rid = next(ids)
                await ws.send(pack({**message, "id": rid}))
                await until(ws, lambda m, rid=rid: m.get("re") == rid)
            cycles += 1
            await asyncio.sleep(0.05)  # 60 messages a second at most
        await ws.send(pack({"t": "leave", "id": 0}))
        await until(ws, lambda m: m.get("re") == 0)
        await ws.send(pack({"t": "rooms", "status": "playing", "id": -1}))
        listing = await until(ws, lambda m: m.get("re") == -1)
        spectators = next((r["spectators"] for r in listing["rooms"] if r["id"] == room), None)
        await ws.close()
        return cycles, spectators

    results = await asyncio.gather(*(one(a) for a in range(20)))
    return {
        "cycles": sum(c for c, _ in results),
        "spectators after": sum(s or 0 for _, s in results),
    }


async def password_guessing(url: str, end: float) -> dict[str, Any]:
    """Item 7: brute-force a 4-digit PIN from one address."""
    victim = await open_ws(url, "10.7.0.1")
    await hello(victim, "Victim")
    await victim.send(pack({"t": "create", "seats": 4, "password": "4821"}))
    room = (await until(victim, lambda m: m["t"] == "joined"))["room"]
    answers: dict[str, int] = {}
    guess = 0
    token = None
    while time.monotonic() < end and guess < 10_000:
        ws = await open_ws(url, "10.7.0.2")
        welcome = await hello(ws, "Guess", token)
        token = welcome.get("token", token)
        try:
            while time.monotonic() < end:
                await ws.send(pack({"t": "join", "room": room, "password": f"{guess:04d}"}))
                reply = await until(ws, lambda m: m["t"] in ("joined", "error"))
                code = reply.get("code", reply["t"])
                answers[code] = answers.get(code, 0) + 1
                guess += code == "wrong_password"
                if code == "joined":
                    break
                await asyncio.sleep(0.02)
        except ConnectionClosed:
            answers["closed"] = answers.get("closed", 0) + 1
        await ws.close()
    await victim.close()
    return {"guesses checked": answers.get("wrong_password", 0), "answers": answers}


async def malformed_create(url: str, end: float) -> dict[str, Any]:
    """Item 8: `create` with `variant: {1: 1, "a": 2}` from 10 clients at 50/s."""
    counts: dict[str, int] = {}

    async def one(a: int) -> None:
        token = None
        while time.monotonic() < end:
            ws = await open_ws(url, f"10.8.{a}.1")
            token = (await hello(ws, f"M{a}", token)).get("token", token)
            try:
                while time.monotonic() < end:
                    await ws.send(pack({"t": "create", "seats": 3, "variant": {1: 1, "a": 2}}))
                    reply = await until(ws, lambda m: m["t"] == "error")
                    counts[reply["code"]] = counts.get(reply["code"], 0) + 1
                    await asyncio.sleep(0.02)
            except ConnectionClosed:
                counts["closed"] = counts.get("closed", 0) + 1
            await ws.close()

    await asyncio.gather(*(one(a) for a in range(10)))
    return {"answers": counts}


async def identity_flood(url: str, end: float) -> dict[str, Any]:
    """Item 9: new identities from one address as fast as it can."""
    made = refused = 0
    while time.monotonic() < end:
        ws = await open_ws(url, "10.9.0.1")
        if (await hello(ws, "Many"))["t"] == "welcome":
            made += 1
        else:
            refused += 1
        await ws.close()
    return {"identities made": made, "refused": refused}


async def chat_flood(url: str, end: float) -> dict[str, Any]:
    """Item 10: 40 chats at 20 a second."""
    ws = await open_ws(url, "10.10.0.1")
    await hello(ws, "Chatty")
    await ws.send(pack({"t": "create", "seats": 3}))
    await until(ws, lambda m: m["t"] == "joined")
    counts: dict[str, int] = {}
    try:
        for i in range(40):
            await ws.send(pack({"t": "chat", "text": f"spam {i}", "id": i}))
            reply = await until(ws, lambda m, i=i: m["t"] == "chat" or m.get("re") == i)
            key = reply.get("code", reply["t"])
            counts[key] = counts.get(key, 0) + 1
            await asyncio.sleep(0.05)
    except ConnectionClosed:
        counts["closed"] = 1
    await ws.close()
    while time.monotonic() < end:
        await asyncio.sleep(0.1)
    return {"answers": counts, "closed": counts.get("closed", 0)}


async def unread_abusers(url: str, end: float) -> dict[str, Any]:
    """Item 11: 30 connections send bad frames without pause and never read, so
    they never see (nor answer) the server's close."""
    written = 0
    frame = Frame(Opcode.TEXT, b"x").serialize(mask=True)

    async def one(a: int) -> None:
        nonlocal written
        while time.monotonic() < end:
            ws = await open_ws(url, f"10.11.{a}.1")
            await hello(ws, f"A{a}")
            transport = ws.transport
            transport.pause_reading()
            while not transport.is_closing() and time.monotonic() < end:
                if transport.get_write_buffer_size() < 65536:
                    transport.write(frame * 100)
                    written += 100
                await asyncio.sleep(0.001)
            transport.abort()

    await asyncio.gather(*(one(a) for a in range(30)))
    return {"frames written": written}


# ------------------------------------------------------- issue 21's attacks


ATTACKS: dict[str, Callable[[str, float], Awaitable[dict[str, Any]]]] = {
    "1 lobby flood, unread": lobby_flood,
    "2 room spam": room_spam,
    "3 unfinished fragments": fragments,
    "4 bot farm": bot_farm,
    "6 ghost spectators": ghost_spectators,
    "7 password guessing": password_guessing,
    "8 malformed create": malformed_create,
    "9 identity flood": identity_flood,
    "10 chat flood": chat_flood,
    "11 unread abusers": unread_abusers,
}
