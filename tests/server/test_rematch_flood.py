"""Rematch answers are limited per player (issue 33: 785 toggles in 15 s reached each
of 60 spectators), over real sockets."""

from __future__ import annotations

import asyncio
import pathlib
from collections.abc import AsyncIterator

import pytest

from modernart.server.limits import REMATCH_BURST, Limits
from modernart.server.wire.app import Server

from .test_players import two_humans_and_a_bot
from .wsclient import Client, autoplay


@pytest.fixture
async def slow_refill(tmp_path: pathlib.Path) -> AsyncIterator[str]:
    """A dev server whose rematch answers come back so slowly that none does in a test:
    what passes is the burst, whatever the machine's speed. Messages are not limited:
    a fast machine's game leaves the autoplayed seats' budgets spent, and the 51
    messages below would meet that limit instead of the rematch's."""
    limits = Limits.for_dev().replace(rematch_answers_per_s=1e-6, messages_per_s=0)
    server = Server(tmp_path / "data", port=0, dev=True, limits=limits)
    await server.start()
    yield f"ws://127.0.0.1:{server.port}/"
    await server.stop()


async def test_a_flood_of_rematch_toggles_reaches_the_spectators_only_as_the_burst(slow_refill):
    clients: list[Client] = []

    async def player(name: str) -> Client:
        clients.append(await Client.hello(slow_refill, name))
        return clients[-1]

    ann, bob, room = await two_humans_and_a_bot(player)
    watchers = [await player(f"Watcher{i}") for i in range(3)]
    for w in watchers:
        await w.send("watch", room=room)
        await w.expect("update")
    await asyncio.gather(autoplay(ann, seed=7), autoplay(bob, seed=8))

    for i in range(50):  # accept, decline, accept, …
        await ann.send("rematch", room=room, accept=i % 2 == 0)
    await ann.expect_reply(await ann.send("who"))  # every answer's reply came before
    # The burst's 5 pass (accept … accept); of the 45 after, each decline is refused
    # (23) and each accept changes nothing (22: Ann alone hears the state again).
    refused = [m for m in ann.received if m.get("code") == "rate_limited"]
    assert len(refused) == 23 and REMATCH_BURST == 5
    # Each watcher has had every broadcast by the time it answers its own request.
    for w in watchers:
        rid = await w.send("who")
        await w.expect_reply(rid)
        seen = [m for m in w.received if m["t"] == "rematch"]
        assert len(seen) == REMATCH_BURST
        assert seen[-1]["accepted"] == [0] and seen[-1]["declined"] == []
    # The limit holds no one else back: Bob's answer starts the rematch.
    await bob.send("rematch", room=room, accept=True)
    final = await watchers[0].expect("rematch", accepted=[0, 1])
    assert final["new_room"]
    for c in clients:
        await c.close()
