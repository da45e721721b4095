"""A small kit for bots that play over the wire protocol (PROTOCOL.md, docs/bots.md).

    async with await BotClient.connect("ws://127.0.0.1:8765/", "MyBot") as bot:
        await bot.join("ab12")
        await bot.play(decide)        # decide(view) -> action (no `seat`) or None

`play` runs the loop every bot needs: it reads each `update`, hands its
events to `observe` (if given), asks `decide` for an action whenever `legal`
is not empty, sends it as `act`, and returns the last view when the game is
over. A refused action gets one safe default (pass, decline, the lowest
amount); a shout that lost its race in an open auction (R12) is thought over
again. After each act it sends `sync` and decides again only from the view
that answers it (an update sent before the act arrived may still offer the
same move). A shout can wait for `shout_delay(view)` milliseconds; a newer
update cancels it and `decide` is asked again.
"""

from __future__ import annotations

import asyncio
import inspect
import itertools
from collections.abc import Awaitable, Callable
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect

View = dict[str, Any]
Action = dict[str, Any]
OPEN = "open"  # R12's phase: shouts race each other and the hammer
# At most 20 acts a second (each followed by a `sync`): the server allows 60
# messages a second; after a `rate_limited` error the bot pauses this long.
ACT_INTERVAL_S = 0.05
RATE_LIMITED_PAUSE_S = 1.0
Decide = Callable[[View], Action | Awaitable[Action | None] | None]


class ServerError(Exception):
    """The server answered `error` to a lobby request (its `code` and `message`)."""

    def __init__(self, msg: dict[str, Any]) -> None:
        super().__init__(f"{msg.get('code')}: {msg.get('message')}")
        self.code = msg.get("code")


class BotClient:
    """One bot's connection: hello done, then lobby requests and the game loop."""

    def __init__(self, ws: ClientConnection, welcome: dict[str, Any]) -> None:
        self.ws = ws
        self.you: str = welcome["you"]
        self.token: str = welcome["token"]
        self.room: str | None = None
        self.seat: int | None = None
        self.game: str | None = None  # the room's game (its `room` message says)
        self.view: View | None = None
        self._ids = itertools.count(1)
        self._early: list[dict[str, Any]] = []  # game messages read while awaiting a reply
        # Acts the server refused: {"error": the error, "action", "phase": the view's}
        self.refused: list[dict[str, Any]] = []

    @classmethod
    async def connect(cls, url: str, name: str, token: str | None = None) -> BotClient:
        """Open the socket and say `hello` (with `token` to resume an identity)."""
        ws = await connect(url, max_size=2**20, compression=None)
        hello: dict[str, Any] = {"t": "hello", "v": 1, "name": name}
        if token:
            hello["token"] = token
        await ws.send(msgpack.packb(hello))
        while True:
            msg = msgpack.unpackb(await ws.recv(), raw=False)
            if msg["t"] == "welcome":
                return cls(ws, msg)
            if msg["t"] == "error":
                await ws.close()
                raise ServerError(msg)

    async def __aenter__(self) -> BotClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        await self.ws.close()

    async def send(self, t: str, **fields: Any) -> int:
        rid = next(self._ids)
        await self.ws.send(msgpack.packb({"t": t, "id": rid, **fields}))
        return rid

    async def recv(self) -> dict[str, Any]:
        if self._early:
            return self._early.pop(0)
        return msgpack.unpackb(await self.ws.recv(), raw=False)

    async def request(self, t: str, reply: str, **fields: Any) -> dict[str, Any]:
        """Send `t` and wait for its `reply` (ServerError on `error`); other messages
        that arrive meanwhile are kept for the game loop."""
        rid = await self.send(t, **fields)
        while True:
            msg = msgpack.unpackb(await self.ws.recv(), raw=False)
            if msg["t"] == "error" and msg.get("re") == rid:
                raise ServerError(msg)
            if msg["t"] == reply:
                if reply == "joined":
                    self.room, self.seat = msg["room"], msg["seat"]
                return msg
            self._early.append(msg)

    async def join(self, room: str, password: str | None = None) -> int | None:
        """Take the lowest free seat of `room`; returns the seat."""
        fields = {"room": room} if password is None else {"room": room, "password": password}
        await self.request("join", "joined", **fields)
        await self._room_summary()
        return self.seat

    async def _room_summary(self) -> None:
        """Read on to the `room` message that follows `joined` (PROTOCOL.md), for the
        room's game; other messages are kept for the game loop."""
        while True:
            msg = msgpack.unpackb(await self.ws.recv(), raw=False)
            if msg["t"] == "room" and msg["room"]["id"] == self.room:
                self.game = msg["room"]["game"]
                self._early.append(msg)
                return
            self._early.append(msg)

    async def create(self, seats: int = 4, **fields: Any) -> str:
        """Create a room (as its host); returns its id."""
        await self.request("create", "joined", seats=seats, **fields)
        assert self.room is not None
        return self.room

    async def act(self, action: Action) -> int:
        return await self.send("act", action=action)

    async def play(
        self,
        decide: Decide,
        observe: Callable[[list[dict[str, Any]]], None] | None = None,
        shout_delay: Callable[[View], float] | None = None,
    ) -> View:
        """Play until the game ends; returns the final view (see the module doc)."""
        loop = asyncio.get_running_loop()
        pending: Action | None = None  # a shout waiting for its moment
        due = 0.0
        acted: dict[int, tuple[Action, Any]] = {}  # request id -> (action, phase)
        synced: int | None = None  # after an act: the `sync` whose reply we wait for
        refused_turn = False  # a turn's move was refused: play safe on the next view
        history_seq: int | None = None
        backlog: list[tuple[int, list[dict[str, Any]]]] = []

        last_act = 0.0

        async def send_act(action: Action, phase: Any) -> None:
            """Act, then ask for the view that follows it (PROTOCOL.md `sync`): updates
            sent before the act arrived may still offer the same move. Acts are paced
            (`ACT_INTERVAL_S`) to stay well inside the server's rate limit."""
            nonlocal synced, last_act
            wait = last_act + ACT_INTERVAL_S - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            last_act = loop.time()
            acted[await self.act(action)] = (action, phase)
            synced = await self.send("sync")

        async def respond(view: View) -> None:
            nonlocal pending, due, refused_turn
            if refused_turn:
                refused_turn = False
                fallback = safe_action(view["legal"])
                if fallback is not None:
                    await send_act(fallback, None)  # phase None: not refused twice
                return
            action = decide(view)
            if inspect.isawaitable(action):
                action = await action
            if action is None:
                return
            delay = shout_delay(view) if shout_delay and action["type"] == "bid" else 0
            if view.get("phase") == OPEN and delay > 0:
                pending, due = action, loop.time() + delay / 1000
            else:
                await send_act(action, view.get("phase"))

        while True:
            timeout = max(0.0, due - loop.time()) if pending else None
            try:
                msg = await asyncio.wait_for(self.recv(), timeout)
            except TimeoutError:
                shout, pending = pending, None
                await send_act(shout, OPEN)  # type: ignore[arg-type]
                continue
            kind = msg["t"]
            if kind == "update":
                pending = None
                self.view = view = msg["view"]
                if observe is not None:
                    if history_seq is None and not backlog:
                        await self.send("history")  # everything before this update
                    if history_seq is None:
                        backlog.append((msg["seq"], msg["events"]))
                    elif msg["seq"] > history_seq:
                        observe(msg["events"])
                if view.get("finished") or view.get("status") == "finished":
                    return view
                if synced is not None and msg.get("re") == synced:
                    synced = None
                if synced is None and view["legal"]:
                    await respond(view)
            elif kind == "history" and observe is not None and history_seq is None:
                history_seq = msg["seq"]
                observe(msg["events"])
                for seq, events in backlog:
                    if seq > history_seq:
                        observe(events)
                backlog.clear()
            elif kind == "error" and msg.get("re") in acted:
                action, phase = acted.pop(msg["re"])
                self.refused.append({"error": msg, "action": action, "phase": phase})
                # A shout that lost its race is thought over when the sync's view
                # comes; a refused turn's move gets a safe default instead.
                refused_turn = phase not in (OPEN, None)
            elif kind == "error" and msg.get("code") == "rate_limited":
                # A dropped message (maybe our act or sync): back off, then look again.
                await asyncio.sleep(RATE_LIMITED_PAUSE_S)
                synced = await self.send("sync")
            elif kind == "error" and msg.get("re") == synced:
                synced = None  # (no room any more?) do not wait for ever


def safe_action(legal: dict[str, Any]) -> Action | None:
    """What to do when a chosen action was refused: the move that risks least."""
    if "pass" in legal:
        return {"type": "pass"}
    if "decline" in legal:
        return {"type": "decline"}
    for kind in ("sealed", "price"):
        if kind in legal:
            return {"type": kind, "amount": legal[kind][0]}
    if legal.get("play"):
        return {"type": "play", "card": legal["play"][0]}
    return None


async def run_level_bot(
    url: str,
    room: str,
    level: str,
    name: str | None = None,
    password: str | None = None,
    budget_s: float | None = None,
) -> View:
    """`modernart bot`: one of our bots plays a seat of `room` over the wire, in the
    room's own game (any game of engine/games.py at any of its levels).

    Decisions run in a thread so the connection keeps answering pings while the
    expert searches; real-time shouts (a game with a hammer) wait for the level's
    reaction time (GameInfo.shout_delay_ms). Returns the final view."""
    import random

    from modernart.engine.games import get_game
    from modernart.engine.search import SearchBot

    rng = random.Random()

    async with await BotClient.connect(url, name or f"{level}-bot") as client:
        await client.join(room, password)
        info = get_game(client.game or "modernart")
        if level not in info.bots:
            raise ServerError(
                {
                    "code": "bad_level",
                    "message": f"{info.title}'s bot levels: {', '.join(info.bots)}",
                }
            )
        bot: Any = info.make_bot(level)
        if isinstance(bot, SearchBot) and budget_s:
            bot.budget_s = budget_s
        timing = info.shout_delay_ms

        def shout_delay(view: View) -> float:
            return timing(level, 0, view.get("deadline_ms"), rng) if timing else 0

        return await client.play(
            lambda view: asyncio.to_thread(bot.choose, view),
            observe=getattr(bot, "observe", None),
            shout_delay=shout_delay,
        )
