#!/usr/bin/env python3
"""Attacks of issue 7 against a fresh `modernart-server` while a healthy game plays.

The script starts its own server (no `--dev`, `--trust-proxy` so that attackers
can pose as many addresses through X-Forwarded-For, on 127.0.0.1 only) with a
fresh data directory. A healthy 3-player game of three websocket clients plays
in its own room all along, one act at a time, each timed from writing `act` to
the socket to its answer (the update that shows it, or an error). Each attack
runs in a separate process for `--seconds`; the table gives the healthy game's
act→answer p50/p99/max before (the `--quiet` seconds before it), during and
after (the `--quiet` seconds after it), the server's RSS before, at the peak and
after, the server's CPU during the attack, and what the attack achieved.

The SSH attacks of issue 21 (`--only 21.1 21.3 21.7 21.10`) are in
scripts/attack_ssh.py; the server has SSH with guests on a free port.

Items 5 (a full disk) and 12 (a read-only data directory) cannot be provoked
from outside; tests/server/test_store_failure.py and test_hardening.py cover them.

Issue 21's attacks are numbered 21.N (`--only 21.4`); 21.9 needs
`--seed-identities 200000 --seconds 70` (see that flag).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import multiprocessing
import os
import pathlib
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import attack_ssh
import msgpack
from bench_sessions import baseline_tree
from loadtest import EVENT_OF, cpu_seconds, free_port, rss_kb
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.frames import Frame, Opcode

from modernart.engine.modernart.bots import make_bot


def pack(message: dict[str, Any]) -> bytes:
    return msgpack.packb(message)


async def open_ws(url: str, address: str) -> ClientConnection:
    return await connect(
        url,
        additional_headers={"X-Forwarded-For": address},
        max_size=None,
        compression=None,
        open_timeout=20,
    )


async def hello(ws: ClientConnection, name: str, token: str | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"t": "hello", "v": 1, "name": name}
    if token:
        message["token"] = token
    await ws.send(pack(message))
    return await until(ws, lambda m: m["t"] in ("welcome", "error"))


async def until(ws: ClientConnection, match: Callable[[dict], bool], timeout: float = 20) -> dict:
    async with asyncio.timeout(timeout):
        while True:
            message = msgpack.unpackb(await ws.recv(), strict_map_key=False)
            if match(message):
                return message


# ------------------------------------------------------------ the healthy game


class Healthy:
    """Three clients play one game after another in their own room; every act is timed."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.samples: list[tuple[float, float]] = []  # (when, seconds to the answer)
        self.errors: list[str] = []

    async def run(self, stop: asyncio.Event) -> None:
        rng = random.Random(7)
        clients = [await open_ws(self.url, "10.0.0.1") for _ in range(3)]
        for i, ws in enumerate(clients):
            await hello(ws, f"Healthy{i}")
        bots = [make_bot("random", i) for i in range(3)]
        while not stop.is_set():
            host = clients[0]
            options = {"shout_window_ms": 300, "turn_timeout_s": 0, "takeover_s": 0}
            await host.send(pack({"t": "create", "seats": 3, "options": options}))
            room = (await until(host, lambda m: m["t"] == "joined"))["room"]
            for ws in clients[1:]:
                await ws.send(pack({"t": "join", "room": room}))
                await until(ws, lambda m: m["t"] == "joined")
            await host.send(pack({"t": "start"}))
            views = [(await until(ws, lambda m: m["t"] == "update"))["view"] for ws in clients]
            await self._play(clients, bots, views, rng, stop)
            for ws in clients:
                await ws.send(pack({"t": "leave"}))
                await until(ws, lambda m: m["t"] == "left")
        for ws in clients:
            await ws.close()

    async def _play(self, clients, bots, views, rng, stop: asyncio.Event) -> None:
        ids = iter(range(1, 10**9))
        while not views[0]["finished"] and not stop.is_set():
            ready = [i for i, v in enumerate(views) if v["legal"]]
            if not ready:  # an open auction waits for its hammer: read what comes
                views = await self._refresh(clients, views, 1.0)
                continue
            seat = rng.choice(ready)
            action = bots[seat].choose(views[seat])
            if action is None:
                views = await self._refresh(clients, views, 0.05)
                continue
            rid = next(ids)
            kind = EVENT_OF[action["type"]]
            ws = clients[seat]
            sent = time.perf_counter()
            await ws.send(pack({"t": "act", "id": rid, "action": action}))

            def answer(
                m: dict, seat: int = seat, kind: str = kind, rid: int = rid, views: list = views
            ) -> bool:
                if m["t"] == "error":
                    return m.get("re") == rid
                if m["t"] != "update":
                    return False
                views[seat] = m["view"]
                who = "winner" if kind == "sold" else "seat"
                return any(e["type"] == kind and e.get(who) == seat for e in m["events"])

            try:
                await until(ws, answer, 30)
                self.samples.append((time.monotonic(), time.perf_counter() - sent))
            except TimeoutError:
                self.errors.append(f"no answer to {action}")
            views = await self._refresh(clients, views, 0.005)
            await asyncio.sleep(0.01)  # a brisk but human-ish table

    @staticmethod
    async def _refresh(clients, views, quiet: float) -> list[dict]:
        """Read every client's pending updates (waiting up to `quiet` for more)."""
        views = list(views)
        for i, ws in enumerate(clients):
            with contextlib.suppress(TimeoutError):
                while True:
                    async with asyncio.timeout(quiet):
                        m = msgpack.unpackb(await ws.recv(), strict_map_key=False)
                    if m["t"] == "update":
                        views[i] = m["view"]
        return views


# ------------------------------------------------------------------- attacks


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
    **attack_ssh.ATTACKS,
    "21.2 markup names": markup_names,
    "21.4 chat fan-out": chat_fanout,
    "21.5 unread lists, kernel buffers": unread_lists,
    "21.6 flood within every limit": budget_flood,
    "21.8 presence churn": presence_churn,
    "21.9 identity expiry": identity_expiry,
}


def run_attack(name: str, url: str, seconds: float, ssh_port: int = 0) -> dict[str, Any]:
    """In its own process: one attack for `seconds`. The attackers stand in for other
    machines, so they run at the lowest priority: on these two shared cores their own
    CPU must not be what slows the server and the healthy game down."""
    with contextlib.suppress(OSError):
        os.nice(19)
    end = time.monotonic() + seconds
    attack_ssh.SSH_PORT = ssh_port
    try:
        return asyncio.run(asyncio.wait_for(ATTACKS[name](url, end), seconds + 120))
    except Exception as exc:
        return {"attack failed": f"{type(exc).__name__}: {exc}"}


# -------------------------------------------------------------- measurements


def rss_mb(pid: int) -> float:
    return rss_kb(pid) / 1024


class Sampler(threading.Thread):
    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.samples: list[tuple[float, float]] = []
        self.running = True

    def run(self) -> None:
        while self.running:
            with contextlib.suppress(OSError):
                self.samples.append((time.monotonic(), rss_mb(self.pid)))
            time.sleep(0.1)

    def peak(self, start: float, stop: float) -> float:
        return max((r for t, r in self.samples if start <= t <= stop), default=0.0)


def stats(samples: list[tuple[float, float]], start: float, stop: float) -> str:
    values = sorted(d * 1000 for t, d in samples if start <= t < stop)
    if not values:
        return "no acts"
    p99 = values[min(len(values) - 1, int(0.99 * len(values)))]
    return f"{statistics.median(values):.1f} / {p99:.1f} / {values[-1]:.0f}"


def seed_identities(data: pathlib.Path, count: int) -> None:
    """`count` identities that never took a seat, two days old, stored before the server
    starts (item 21.9: its first sweep forgets them all)."""
    from modernart.server.store import Store, token_hash

    store = Store(data)
    old = time.time() - 48 * 3600
    with store.db:
        store.db.execute("BEGIN")
        store.db.executemany(
            "INSERT INTO identities (id, name, token_hash, created, seated) VALUES (?, ?, ?, ?, 0)",
            ((f"s{i}", "Old", token_hash(f"seed{i}"), old) for i in range(count)),
        )
    store.close()


async def main_async(args: argparse.Namespace) -> int:
    port = free_port()
    data = tempfile.mkdtemp(prefix="modernart-attack-")
    log_path = pathlib.Path(data) / "server.log"
    cmd = [sys.executable, "-m", "modernart.server.cli"]
    cmd += ["--port", str(port), "--data", data, "--trust-proxy"]
    ssh_port = free_port()  # SSH with guests, for the SSH attacks (21.x)
    cmd += ["--ssh-port", str(ssh_port), "--ssh-guests", "--log-level", "info"]
    env = dict(os.environ)
    if args.baseline:  # the old design, SSH client processes included
        env["PYTHONPATH"] = str(baseline_tree(args.baseline, pathlib.Path(data)))
    elif args.server_src is not None:  # a baseline: that source tree's server
        shim = pathlib.Path(data) / "src"
        (shim / "modernart").mkdir(parents=True)
        (shim / "modernart" / "__init__.py").write_text("")
        for part in ("engine", "server"):
            (shim / "modernart" / part).symlink_to(args.server_src.resolve() / part)
        env["PYTHONPATH"] = str(shim)  # found before the installed (editable) package
    if args.seed_identities:
        seed_identities(pathlib.Path(data), args.seed_identities)
    with log_path.open("wb") as log:  # cwd: not a checkout, whose modernart/ would win
        proc = subprocess.Popen(cmd, stdout=log, stderr=log, env=env, cwd=data)
    url = f"ws://127.0.0.1:{port}/"
    for _ in range(200):
        with contextlib.suppress(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        time.sleep(0.05)
    sampler = Sampler(proc.pid)
    sampler.start()
    healthy = Healthy(url)
    stop = asyncio.Event()
    game = asyncio.create_task(healthy.run(stop))
    rows = []
    loop = asyncio.get_running_loop()
    names = [n for n in ATTACKS if not args.only or any(n.startswith(o + " ") for o in args.only)]
    try:
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            await asyncio.sleep(args.quiet)
            for name in names:
                before_start = time.monotonic() - args.quiet
                rss_before = rss_mb(proc.pid)
                cpu_before = cpu_seconds(proc.pid)
                log_before = log_path.stat().st_size
                start = time.monotonic()
                job = pool.apply_async(run_attack, (name, url, args.seconds, ssh_port))
                outcome = await loop.run_in_executor(None, job.get)
                stop_at = time.monotonic()
                cpu = cpu_seconds(proc.pid) - cpu_before
                log_growth = log_path.stat().st_size - log_before
                await asyncio.sleep(args.quiet)
                after_stop = time.monotonic()
                row = {
                    "attack": name,
                    "before": stats(healthy.samples, before_start, start),
                    "during": stats(healthy.samples, start, stop_at),
                    "after": stats(healthy.samples, stop_at, after_stop),
                    "rss": f"{rss_before:.0f} / {sampler.peak(start, after_stop):.0f} / "
                    f"{rss_mb(proc.pid):.0f}",
                    "cpu": f"{cpu:.1f} s in {stop_at - start:.0f} s",
                    "log": f"{log_growth / 1024:.0f} KiB",
                    "outcome": outcome,
                }
                rows.append(row)
                print(" | ".join(str(v) for v in row.values()), flush=True)
                if game.done():
                    break
    finally:
        stop.set()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(game, 30)
        sampler.running = False
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
        tail = log_path.read_text(errors="replace").splitlines()[-5:]
        shutil.rmtree(data, ignore_errors=True)
    print()
    print(
        "| attack | healthy act→answer p50 / p99 / max, ms: before | during | after "
        "| server RSS MB before / peak / after | server CPU | log | outcome |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(str(v) for v in row.values()) + " |")
    print(f"healthy acts: {len(healthy.samples)}  healthy errors: {len(healthy.errors)}")
    if healthy.errors:
        print("healthy problems:", healthy.errors[:3], file=sys.stderr)
    if game.done() and not game.cancelled() and game.exception():
        print("the healthy game failed:", repr(game.exception()), file=sys.stderr)
    print("server log tail:", *tail, sep="\n  ")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=8, help="length of each attack")
    parser.add_argument(
        "--quiet",
        type=float,
        default=6,
        help="seconds before/after each (the server hands memory back within 5 s)",
    )
    parser.add_argument("--only", nargs="*", help="attack numbers to run (default: all)")
    parser.add_argument(
        "--baseline",
        help="attack the server of this commit (engine, server and tui: its SSH door too)",
    )
    parser.add_argument(
        "--seed-identities",
        type=int,
        default=0,
        help="store this many old never-seated identities first (21.9: run it with"
        " --only 21.9 --seconds 70, so that the first sweep, 60 s in, falls in it)",
    )
    parser.add_argument(
        "--server-src",
        type=pathlib.Path,
        help="attack the server of this source tree (e.g. `git archive` of an older commit)",
    )
    return asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
