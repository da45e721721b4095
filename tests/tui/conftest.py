"""Fixtures for the client's tests: a real in-process server and raw protocol clients."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import msgpack
import pytest
from websockets.asyncio.client import ClientConnection, connect


class RawClient:
    """Another player at the table, driven by the test over real websockets and msgpack."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.ids = itertools.count(1)
        self.inbox: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None
        self.seat: int | None = None
        self.room: str | None = None
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for frame in self.ws:
            msg = msgpack.unpackb(frame, raw=False)
            self.inbox.append(msg)
            if msg["t"] == "update":
                self.view = msg["view"]
            elif msg["t"] == "joined":
                self.room, self.seat = msg["room"], msg["seat"]

    async def send(self, t: str, **fields: Any) -> None:
        await self.ws.send(msgpack.packb({"t": t, "id": next(self.ids), **fields}))

    async def act(self, **action: Any) -> None:
        await self.send("act", action=action)

    async def wait_for(self, t: str, timeout: float = 10.0, **match: Any) -> dict[str, Any]:
        """The first message of type `t` matching `match` received so far or soon."""
        async with asyncio.timeout(timeout):
            while True:
                for msg in self.inbox:
                    if msg["t"] == t and all(msg.get(k) == v for k, v in match.items()):
                        return msg
                await asyncio.sleep(0.01)

    async def close(self) -> None:
        await self.ws.close()
        self._reader.cancel()


@pytest.fixture
async def raw(url: str) -> AsyncIterator[Callable[[str], Awaitable[RawClient]]]:
    """`await raw("Bob")`: a connected client that said hello."""
    clients: list[RawClient] = []

    async def make(name: str) -> RawClient:
        client = RawClient(await connect(url))
        await client.send("hello", v=1, name=name)
        await client.wait_for("welcome")
        clients.append(client)
        return client

    yield make
    for client in clients:
        await client.close()
