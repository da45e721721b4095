"""Issue 28: a rematch's room says it is one ("Ann's table · rematch 2") within the name's
limit, and the table's spectators follow the players into it; over real sockets."""

from __future__ import annotations

import asyncio

from modernart.server.people.names import ROOM_NAME_MAX
from modernart.server.rooms.rematch import rematch_name
from modernart.server.wire.app import Server

from .wsclient import Client, autoplay

LONG = "A table whose name takes all forty chars"  # 40 characters


async def table_of_two(player, name: str) -> tuple[Client, Client, str]:
    ann, bob = await player("Ann"), await player("Bob")
    await ann.send("create", seats=3, name=name, options={"shout_window_ms": 100})
    room = (await ann.expect("joined"))["room"]
    await bob.send("join", room=room)
    await bob.expect("joined")
    await ann.send("add_bot")
    await ann.send("start")
    await ann.next_update()
    await bob.next_update()
    return ann, bob, room


async def summary_of(client: Client, room: str) -> dict:
    """The `room` message about `room` (earlier ones about other rooms are passed)."""
    while (msg := await client.expect("room"))["room"]["id"] != room:
        continue
    return msg["room"]


async def play_and_rematch(ann: Client, bob: Client, room: str, seed: int) -> tuple[str, set]:
    """Both play the game out and accept the rematch: its room, and its name as they
    were told it."""
    await asyncio.gather(autoplay(ann, seed=seed), autoplay(bob, seed=seed + 1))
    await ann.send("rematch", room=room, accept=True)
    await bob.send("rematch", room=room, accept=True)
    final = await ann.expect("rematch", accepted=[0, 1])
    assert final["new_room"]
    names = set()
    for client in (ann, bob):
        await client.expect("joined", room=final["new_room"])
        names.add((await summary_of(client, final["new_room"]))["name"])
        await client.next_update()
    return final["new_room"], names


async def test_spectators_follow_the_players_into_a_rematch_named_as_one(server: Server, player):
    ann, bob, room = await table_of_two(player, LONG)
    cy = await player("Cy")
    await cy.send("watch", room=room)
    await cy.next_update()
    for count, seed in ((1, 7), (2, 9)):
        room, told = await play_and_rematch(ann, bob, room, seed)
        joined = await cy.expect("joined", room=room)
        assert joined["seat"] is None
        summary = await summary_of(cy, room)
        mark = " · rematch" if count == 1 else " · rematch 2"
        assert summary["name"].endswith(mark) and len(summary["name"]) <= ROOM_NAME_MAX
        assert summary["name"].startswith("A table whose name")
        assert told == {summary["name"]}
        update = await cy.until(lambda u, r=room: u["view"]["room"] == r)
        assert update["view"]["you"] is None and update["view"]["status"] == "playing"
        assert server.hub.rooms[room].name == summary["name"]
        assert len(server.hub.rooms[room].spectators) == 1
    # Cy's identity watches the rematch: a client started again watches it again.
    again = await Client.hello(f"ws://127.0.0.1:{server.port}/", "Cy", cy.token)
    welcome = next(m for m in again.received if m["t"] == "welcome")
    assert welcome["watching"] == room
    await again.close()


def test_a_rematch_name_counts_the_rematches_and_keeps_within_the_limit() -> None:
    assert rematch_name("Ann's table") == "Ann's table · rematch"
    assert rematch_name("Ann's table · rematch") == "Ann's table · rematch 2"
    assert rematch_name("ab-table · rematch 9") == "ab-table · rematch 10"
    long = rematch_name(LONG)
    assert long == "A table whose name takes all… · rematch"
    assert len(long) <= ROOM_NAME_MAX and len(rematch_name(long)) <= ROOM_NAME_MAX
