"""Issue 33's rating attack (item 6), in scripts/attack.py's shape: `fn(url, end)`.

33.6: a farmer's two accounts from one address trade games as fast as the server
lets them: two-seat Art Society tables, the farmer playing the game's `hard` bot,
the other account passing its bids (the game's lowest legal moves), one game after
another until `end`. It reports the games played, how many of them rated the farmer,
the farmer's rating (and whether it is provisional) and the farmer's place on the
leaderboard (None: not listed).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Any

from attackkit import hello, open_ws, pack, request, until
from websockets.asyncio.client import ClientConnection

from modernart.engine.games import get_game

GAME = "artsociety"  # two seats: no bot's pauses between the farmer's wins
ADDRESS = "10.33.6.1"


async def _open(url: str, name: str) -> tuple[ClientConnection, dict[str, Any]]:
    ws = await open_ws(url, ADDRESS)
    return ws, await hello(ws, name)


async def _play(ws: ClientConnection, level: str, seed: int) -> dict[str, Any]:
    """Play one seat to the game's end with the game's bot of `level`; the last update.
    One act per update; an act refused for the rate is sent again a little later."""
    bot = get_game(GAME).make_bot(level, seed)
    view: dict[str, Any] | None = None
    while True:
        message = await until(ws, lambda m: m["t"] in ("update", "error"), 60)
        if message["t"] == "update":
            view = message["view"]
            if view["finished"]:
                return message
        elif message.get("code") == "rate_limited":
            await asyncio.sleep(0.5)
        else:
            continue
        if view is not None and view.get("legal"):
            action = bot.choose(view)
            if action:
                await ws.send(pack({"t": "act", "action": action}))


async def rating_farm(url: str, end: float) -> dict[str, Any]:
    """33.6: two accounts trading wins as fast as possible."""
    farmer, welcome = await _open(url, "Farmer33")
    sheep, _ = await _open(url, "Sheep33")
    name = welcome.get("name", "Farmer33")
    games = rated = refused = 0
    first = last = None
    try:
        while time.monotonic() < end:
            await farmer.send(pack({"t": "create", "game": GAME, "seats": 2, "id": 1}))
            joined = await until(farmer, lambda m: m["t"] == "joined" or m.get("re") == 1)
            if joined["t"] != "joined":
                refused += 1
                await asyncio.sleep(1)
                continue
            room = joined["room"]
            await sheep.send(pack({"t": "join", "room": room}))
            await until(sheep, lambda m: m["t"] == "joined")
            await farmer.send(pack({"t": "start"}))
            final, _ = await asyncio.gather(
                _play(farmer, "hard", games), _play(sheep, "random", games)
            )
            games += 1
            event = next((e for e in final["events"] if e["type"] == "rated"), None)
            mine = (event or {}).get("ratings", [None])[0]
            if mine is not None:
                rated += 1
                first = mine["before"] if first is None else first
                last = mine["after"]
            for ws in (farmer, sheep):
                await request(ws, 2, "leave")
        who = await request(farmer, 3, "who", game=GAME)
        me = next((p for p in who["players"] if p["name"] == name), {})
        board = await request(farmer, 4, "leaderboard", game=GAME)
        place = next((p["rank"] for p in board["players"] if p["name"] == name), None)
    finally:
        for ws in (farmer, sheep):
            with contextlib.suppress(Exception):
                await ws.close()
    return {
        "games": games,
        "rated for the farmer": rated,
        "refused": refused,
        "farmer's rating": f"{first} → {me.get('rating')}"
        if first is not None
        else me.get("rating"),
        "provisional": me.get("provisional"),
        "leaderboard place": place,
        "leaderboard size": len(board["players"]),
        "last rated after": last,
    }


ATTACKS: dict[str, Callable[[str, float], Awaitable[dict[str, Any]]]] = {
    "33.6 rating farm": rating_farm,
}
