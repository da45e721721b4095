"""Games over and one running, played for real over WebSocket clients, for the tests of
how a player gets a record (issue 28): Ann and Bob's locked game, Ann's public game
against bots (both over), Bob's game still running, and Cy, who played none."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

from .test_players import request
from .wsclient import Client, autoplay


@dataclass
class Games:
    ann: Client
    bob: Client
    cy: Client
    locked: str
    public: str
    running: str


async def _room(host: Client, bots: int, password: str | None = None) -> str:
    extra = {"password": password} if password else {}
    await host.send("create", seats=3, options={"shout_window_ms": 100}, **extra)
    room = (await host.expect("joined"))["room"]
    for _ in range(bots):
        await host.send("add_bot", level="random")
    return room


@contextlib.asynccontextmanager
async def played(url: str) -> AsyncIterator[Games]:
    clients = [await Client.hello(url, name) for name in ("Ann", "Bob", "Cy")]
    ann, bob, cy = clients
    try:
        locked = await _room(ann, 0, password="1234")
        await bob.send("join", room=locked, password="1234")
        await bob.expect("joined")
        await ann.send("add_bot", level="random")
        await ann.send("start")
        await ann.next_update()
        await bob.next_update()
        await asyncio.gather(autoplay(ann, seed=1), autoplay(bob, seed=2))
        await request(ann, "leave")
        await request(bob, "leave")
        public = await _room(ann, 2)
        await ann.send("start")
        await ann.next_update()
        await autoplay(ann, seed=3)
        running = await _room(bob, 2)
        await bob.send("start")
        await bob.next_update()
        yield Games(ann, bob, cy, locked, public, running)
    finally:
        for client in clients:
            await client.close()
