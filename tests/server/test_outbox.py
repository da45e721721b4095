"""The turn's end (server/wire/outbox.py): each connection gets exactly the frames the plain
way (one write per frame, at once) gives, in the same order, in at most one write a
turn; an act is committed before anyone hears of it; the acts of one turn are one
commit; a failed commit sends none of the lost updates and brings their rooms back
to the stored state (issue 21)."""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from websockets.protocol import State

from modernart.server.limits import Limits
from modernart.server.wire.app import Server
from modernart.server.wire.codec import ws_frame
from modernart.server.wire.outbox import Lost, Outbox
from modernart.server.wire.session import Conn

from .conftest import deck_with
from .disk import full_disk


class FakeTransport:
    """What `Conn` uses of an asyncio transport; records each write."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []

    def is_closing(self) -> bool:
        return False

    def get_write_buffer_size(self) -> int:
        return 0

    def write(self, data: bytes) -> None:
        self.writes.append(bytes(data))


class FakeWs:
    def __init__(self) -> None:
        self.transport = FakeTransport()
        self.protocol = type("P", (), {"state": State.OPEN})()


class Tag:
    """A room as frames are tagged with it (only its `id` is read)."""

    def __init__(self, room_id: str) -> None:
        self.id = room_id


ROOMS = [Tag("r0"), Tag("r1")]
# A turn: frames (connection, payload, room tag or None) and the rooms its commit loses.
turn = st.tuples(
    st.lists(
        st.tuples(st.integers(0, 3), st.binary(max_size=300), st.sampled_from([None, 0, 1])),
        max_size=12,
    ),
    st.sets(st.sampled_from(["r0", "r1"])),
)


@given(st.lists(turn, min_size=1, max_size=5))
@settings(max_examples=80, deadline=None)
def test_each_connection_gets_the_plain_ways_frames_in_order_one_write_a_turn(turns):
    async def scenario() -> None:
        losses: list[Lost] = []

        def commit() -> tuple[Lost, int]:
            return losses.pop(0), 0

        outbox = Outbox(commit)
        conns = [Conn(FakeWs(), "127.0.0.1", Limits(), outbox) for _ in range(4)]  # type: ignore[arg-type]
        expected: list[list[bytes]] = [[] for _ in conns]
        for frames, lost in turns:
            losses.append({room: (None, 0) for room in lost})
            for index, payload, room in frames:
                tag = None if room is None else ROOMS[room]
                conns[index].send_raw(payload, tag)
                if tag is None or tag.id not in lost:  # the plain way, less what was lost
                    expected[index].append(ws_frame(payload))
            writes_before = [len(c.ws.transport.writes) for c in conns]
            outbox.flush()  # the turn's end
            for conn, before in zip(conns, writes_before, strict=True):
                assert len(conn.ws.transport.writes) - before <= 1
                assert conn.queue == [] and conn.queued == 0
        for conn, frames in zip(conns, expected, strict=True):
            assert b"".join(conn.ws.transport.writes) == b"".join(frames)

    asyncio.run(scenario())


async def three_players(
    player: Any, deck: list[str], names: tuple[str, ...] = ("Ann", "Bob", "Cy")
) -> tuple[list[Any], str, dict[str, Any]]:
    clients = [await player(name) for name in names]
    ann = clients[0]
    await ann.send("create", seats=3, options={"deck": deck, "first_auctioneer": 0})
    room = (await ann.expect("joined"))["room"]
    for client in clients[1:]:
        await client.send("join", room=room)
        await client.expect("joined")
    await ann.send("start")
    started = await ann.next_update()
    for client in clients[1:]:
        await client.next_update()
    return clients, room, started


def stored_actions(server: Server, room: str) -> int:
    """What another connection to the database sees: only what was committed."""
    db = sqlite3.connect(server.store.path)  # type: ignore[union-attr]
    try:
        return db.execute("SELECT COUNT(*) FROM actions WHERE room = ?", (room,)).fetchone()[0]
    finally:
        db.close()


async def test_an_update_is_written_only_after_its_action_is_committed(server, player):
    deck = deck_with(["krypto.open", "yoko.sealed"])
    (ann, bob, _), room_id, _ = await three_players(player, deck)
    room = server.hub.rooms[room_id]
    ws = server.hub.identities[bob.you].conn.ws
    seen: list[tuple[int, int]] = []  # (actions in memory, actions committed) at each write

    class Watched:
        """Bob's transport, noting each write (uvloop's own cannot be patched)."""

        def __init__(self, real: Any) -> None:
            self.real = real

        def write(self, data: bytes) -> None:
            seen.append((len(room.game.actions), stored_actions(server, room_id)))
            self.real.write(data)

        def __getattr__(self, name: str) -> Any:
            return getattr(self.real, name)

    real = ws.transport
    ws.transport = Watched(real)
    try:
        await ann.act(type="play", card="krypto.open")
        await bob.next_update()
        await bob.act(type="bid", amount=5)  # the open auction (R12)
        await bob.until(lambda u: any(e["type"] == "bid" for e in u["events"]))
    finally:
        ws.transport = real
    assert seen and all(memory == stored for memory, stored in seen), seen


async def test_the_acts_of_one_turn_are_one_commit(server, player):
    deck = deck_with(["krypto.open"])
    first, room_a, _ = await three_players(player, deck)
    second, room_b, _ = await three_players(player, deck, ("Dee", "Eve", "Flo"))
    hub = server.hub
    stats = hub.outbox.stats
    commits, rows = stats.commits, stats.batched
    # Both rooms act in one step of the loop, as two messages read in one turn are.
    hub.rooms[room_a].act(0, {"type": "play", "card": "krypto.open"})
    hub.rooms[room_b].act(0, {"type": "play", "card": "krypto.open"})
    for client in (*first, *second):
        played = await client.next_update()
        assert played["events"][0] == {"type": "played", "seat": 0, "card": "krypto.open"}
    assert (stats.commits - commits, stats.batched - rows) == (1, 2)
    assert stored_actions(server, room_a) == stored_actions(server, room_b) == 1


async def test_a_failed_commit_sends_nothing_of_it_and_rewinds_the_room(server, player):
    deck = deck_with(["krypto.open", "yoko.sealed"])
    (ann, bob, cy), room_id, started = await three_players(player, deck)
    room = server.hub.rooms[room_id]
    with full_disk(server.store, only="COMMIT") as disk:
        await ann.act(type="play", card="krypto.open")
        resynced = [await client.next_update() for client in (ann, bob, cy)]
    assert disk.refused == 1
    for update in resynced:  # the stored state afresh: nobody heard of the lost play
        assert update["events"] == [] and update["seq"] == started["seq"]
        assert update["view"]["phase"] == "play" and update["view"]["lot"] is None
    assert "krypto.open" in resynced[0]["view"]["hand"]
    assert room.game.actions == [] and stored_actions(server, room_id) == 0
    assert len(room.history) == 0  # the lost update's events are not kept either

    # The disk has room again: play goes on from the stored state.
    await ann.act(type="play", card="krypto.open")
    played = await bob.next_update()
    assert played["events"][0] == {"type": "played", "seat": 0, "card": "krypto.open"}
    assert played["seq"] == started["seq"] + 1
    assert stored_actions(server, room_id) == 1
