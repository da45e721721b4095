"""The attack of issue 32 on reviews, run by scripts/attack.py like its own.

- "32.1 review flood": six tables of three players each play a quick game to its end
  (a seventh table's game keeps running). Then every player, as fast as the rate
  limits let it, asks for the review of its own game (all of a table join one
  computation), of another table's game, of the running game, of unknown and
  malformed ids. It counts the answers by kind; what must hold: the running game is
  never reviewed ("running reviewed": 0), bad ids are refused with their `re`, a
  table's players who got a review all got the same one, and the healthy game's
  acts stay as quick (attack.py times them) while the niced review worker computes.

Against a server before issue 32 (`--server-src` of an older tree) every `review` is
`bad_message` (an unknown type) and counts as abuse: the flooders are closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import Counter
from typing import Any

import msgpack
from attack33_web import client
from attackkit import pack, until
from websockets.asyncio.client import ClientConnection

from modernart.engine.modernart.bots import make_bot

TABLES = 6
BAD_IDS: list[Any] = ["nosuchgame", "../modernart.sqlite3", "", "x" * 65, 7, None, ["a"]]


async def play(ws: ClientConnection, seat: int) -> None:
    """A random bot's moves on the newest view until the game is over; a move that went
    stale (refused) is made again on the next view, or after a quiet second."""
    bot = make_bot("random", seat)
    view: dict[str, Any] | None = None
    while view is None or not view["finished"]:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(1.0 if view is not None else 60):
                while True:  # everything waiting, then a short quiet
                    m = msgpack.unpackb(await ws.recv(), strict_map_key=False)
                    if m["t"] == "update":
                        view = m["view"]
                        break
            with contextlib.suppress(TimeoutError):
                while True:
                    async with asyncio.timeout(0.02):
                        m = msgpack.unpackb(await ws.recv(), strict_map_key=False)
                    if m["t"] == "update":
                        view = m["view"]
        action = bot.choose(view) if view is not None and view["legal"] else None
        if action and not view["finished"]:
            await ws.send(pack({"t": "act", "action": action}))


async def table(url: str, n: int, finish: bool) -> tuple[list[ClientConnection], str]:
    """Three players at a table of their own; their game played to its end if `finish`."""
    suffix = f"{time.monotonic_ns() % 10**6}"
    players = [await client(url, f"10.32.{n}.{i + 1}", f"Rev{n}x{i}x{suffix}") for i in range(3)]
    options = {"shout_window_ms": 100, "turn_timeout_s": 0, "takeover_s": 0}
    await players[0].send(pack({"t": "create", "seats": 3, "options": options}))
    room = (await until(players[0], lambda m: m["t"] == "joined"))["room"]
    for ws in players[1:]:
        await ws.send(pack({"t": "join", "room": room}))
        await until(ws, lambda m: m["t"] == "joined")
    await players[0].send(pack({"t": "start"}))
    if finish:
        await asyncio.gather(*(play(ws, seat) for seat, ws in enumerate(players)))
    return players, room


async def review_flood(url: str, end: float) -> dict[str, Any]:
    tables = [await table(url, n, finish=True) for n in range(TABLES)]
    _, running = await table(url, TABLES, finish=False)
    end = max(end, time.monotonic() + 10)  # the games took their time: flood 10 s at least
    answers: Counter[str] = Counter()
    reviews: dict[str, set[str]] = {}  # room -> the distinct reviews received
    running_reviewed = 0

    async def flood(ws: ClientConnection, own: str, other: str) -> None:
        nonlocal running_reviewed
        asked: dict[int, str] = {}
        rid = 0
        with contextlib.suppress(Exception):
            while time.monotonic() < end:
                for room in (own, other, running, BAD_IDS[rid % len(BAD_IDS)]):
                    rid += 1
                    asked[rid] = room if isinstance(room, str) else "?"
                    await ws.send(pack({"t": "review", "id": rid, "room": room}))
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(max(0.05, min(1.0, end - time.monotonic()))):
                        while True:
                            m = msgpack.unpackb(await ws.recv(), strict_map_key=False)
                            kind = m["t"] if m["t"] != "error" else f"error {m.get('code')}"
                            if "re" not in m and m["t"] in ("error", "review", "reviewing"):
                                answers["answers without re"] += 1
                            if m["t"] not in ("review", "reviewing", "error"):
                                continue
                            answers[kind] += 1
                            room = asked.get(m.get("re"), "?")
                            if m["t"] in ("review", "reviewing") and room == running:
                                running_reviewed += 1
                            if m["t"] == "review":
                                text = json.dumps(m["review"], sort_keys=True)
                                reviews.setdefault(room, set()).add(text)
                await asyncio.sleep(0.1)  # within the message rate: about 40 a second

    jobs = []
    for i, (players, room) in enumerate(tables):
        other = tables[(i + 1) % len(tables)][1]
        jobs += [flood(ws, room, other) for ws in players]
    await asyncio.gather(*jobs)
    for players, _ in tables:
        for ws in players:
            await ws.close()
    return {
        "answers": dict(answers),
        "games reviewed": len(reviews),
        "games with two different reviews": sum(len(v) > 1 for v in reviews.values()),
        "running reviewed": running_reviewed,
    }


ATTACKS = {"32.1 review flood": review_flood}
