"""A small test client: real websockets on 127.0.0.1, real msgpack frames.

Every message received is kept in `received`, so tests can check secrecy over
everything a client was ever sent.
"""

from __future__ import annotations

import asyncio
import itertools
import socket
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect

from modernart.engine.modernart.bots import make_bot

TIMEOUT = 10.0


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now (for a server a test starts)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Client:
    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.received: list[dict[str, Any]] = []
        self.frames: list[bytes] = []
        self.buffer: list[dict[str, Any]] = []
        self.ids = itertools.count(1)
        self.token: str | None = None
        self.you: str | None = None
        self.seat: int | None = None
        self.room: str | None = None
        self.view: dict[str, Any] | None = None
        self.seq = 0

    @classmethod
    async def open(cls, url: str, address: str | None = None) -> Client:
        """`address`: sent as X-Forwarded-For, for a server started with trust_proxy."""
        headers = {"X-Forwarded-For": address} if address else None
        return cls(await connect(url, max_size=None, compression=None, additional_headers=headers))

    @classmethod
    async def hello(
        cls, url: str, name: str, token: str | None = None, address: str | None = None
    ) -> Client:
        client = await cls.open(url, address)
        msg: dict[str, Any] = {"v": 1, "name": name}
        if token:
            msg["token"] = token
        await client.send("hello", **msg)
        welcome = await client.expect("welcome")
        client.token, client.you = welcome["token"], welcome["you"]
        return client

    async def send(self, t: str, **fields: Any) -> int:
        rid = next(self.ids)
        await self.ws.send(msgpack.packb({"t": t, "id": rid, **fields}))
        return rid

    async def send_raw(self, data: bytes | str) -> None:
        await self.ws.send(data)

    async def act(self, **action: Any) -> int:
        return await self.send("act", action=action)

    def _note(self, msg: dict[str, Any]) -> None:
        self.received.append(msg)
        if msg["t"] == "update":
            self.view = msg["view"]
            self.seq = msg["seq"]
        elif msg["t"] == "joined":
            self.room, self.seat = msg["room"], msg["seat"]

    async def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        if self.buffer:
            return self.buffer.pop(0)
        frame = await asyncio.wait_for(self.ws.recv(), timeout)
        self.frames.append(frame)
        msg = msgpack.unpackb(frame, raw=False)
        self._note(msg)
        return msg

    async def expect(self, t: str, timeout: float = TIMEOUT, **match: Any) -> dict[str, Any]:
        """The next message of type `t` (matching `match`); earlier others are kept aside."""
        skipped = []
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        try:
            while True:
                msg = await self.recv(max(0.01, end - loop.time()))
                if msg["t"] == t and all(msg.get(k) == v for k, v in match.items()):
                    return msg
                skipped.append(msg)
        finally:
            self.buffer[:0] = skipped

    async def expect_reply(self, rid: int, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The answer to request `rid`, whatever its type; others are kept aside."""
        skipped = []
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        try:
            while True:
                msg = await self.recv(max(0.01, end - loop.time()))
                if msg.get("re") == rid:
                    return msg
                skipped.append(msg)
        finally:
            self.buffer[:0] = skipped

    async def expect_error(self, code: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        msg = await self.expect("error", timeout)
        assert msg["code"] == code, msg
        return msg

    async def next_update(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next update, dropping any other messages before it."""
        while True:
            msg = await self.recv(timeout)
            if msg["t"] == "update":
                return msg

    async def until(self, predicate: Any, timeout: float = TIMEOUT) -> dict[str, Any]:
        """Read updates until one satisfies `predicate(update)`."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            msg = await self.next_update(max(0.01, end - loop.time()))
            if predicate(msg):
                return msg

    async def drain(self, quiet: float = 0.05) -> list[dict[str, Any]]:
        """Everything that arrives until the line is quiet for `quiet` seconds."""
        out = list(self.buffer)
        self.buffer.clear()
        while True:
            try:
                out.append(await self.recv(quiet))
            except TimeoutError:
                return out

    async def close(self) -> None:
        await self.ws.close()


async def autoplay(client: Client, seed: int, quiet: float = 60.0) -> dict[str, Any]:
    """Play the client's seat with the engine's random bot until game_end; the last update.

    It acts, as the server's own bots do (server/rooms/bots.py), only on an update
    whose view waits for its seat (`to_act`), never merely because `legal` offers
    something: an open auction's high bidder may raise her own bid (R12), and
    answering each of her own bids with another ran her up to her whole money at
    the machine's speed, past the connection's rate (PROTOCOL.md: 60 messages a
    second here), after which the server refuses anything she sends.

    An action that went stale (someone was faster) is refused after the newer
    update that made it stale (one connection's frames keep their order), which
    brings a fresh choice. A refusal of an action chosen on the newest view is
    another thing: nothing newer will come while the game waits for this seat,
    so it fails at once, saying what was refused. `quiet` bounds the wait for
    each next message, not the whole game (which takes longer on a loaded machine).
    """
    bot = make_bot("random", seed)
    last: tuple[int, int, dict[str, Any]] | None = None  # (request id, seq seen, action)

    async def act_on(view: dict[str, Any]) -> None:
        nonlocal last
        if view["you"] in view["to_act"] and (action := bot.choose(view)):
            last = (await client.act(**action), client.seq, action)

    if client.view is not None:
        await act_on(client.view)
    while True:
        msg = await client.recv(quiet)
        if msg["t"] == "error" and last is not None and msg.get("re") == last[0]:
            assert client.seq > last[1], f"{last[2]} on update {last[1]} was refused: {msg}"
            continue  # stale: the update that made it so came first, and was acted on
        if msg["t"] != "update":
            continue
        if msg["view"]["finished"]:
            return msg
        newer = await client.drain(0.003)  # act on the newest view only
        client.buffer.extend(newer)
        if any(m["t"] == "update" for m in newer):
            continue
        await act_on(msg["view"])
