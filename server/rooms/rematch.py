"""Rematch (issue 18): on a finished table each human accepts or declines the same
table again (same game, variant, seats, bots, names and options; the next seat
starts); everyone there sees the answers (`rematch`), and once every human has
accepted the new room starts with everyone who is connected already in it, its
spectators too (issue 28), under a name that says it is a rematch
("Ann's table · rematch 2": the table's second)."""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING, Any, Protocol

from modernart.server.limits import REMATCH_BURST, Limits, TokenBucket
from modernart.server.people.names import ROOM_NAME_MAX
from modernart.server.rooms.options import RoomSettings
from modernart.server.rooms.ports import RoomHost, ports_of
from modernart.server.rooms.room import FINISHED, Room, Seat
from modernart.server.store.sqlite import Store
from modernart.server.wire.messages import Rematch
from modernart.server.wire.refusal import Refused

if TYPE_CHECKING:
    from modernart.server.wire.session import Conn, Identity


REMATCH_NAME = re.compile(r"(?P<table>.*) · rematch(?: (?P<count>[0-9]+))?", re.DOTALL)


def rematch_name(name: str) -> str:
    """The rematch room's name: the table's name and which rematch of it this is
    ("Ann's table · rematch", then "… · rematch 2"), its table's name shortened with
    "…" where the whole would pass ROOM_NAME_MAX."""
    table, count = name, 1
    if (found := REMATCH_NAME.fullmatch(name)) is not None:
        table, count = found["table"], int(found["count"] or 1) + 1
    mark = " · rematch" if count == 1 else f" · rematch {count}"
    room = ROOM_NAME_MAX - len(mark)
    if len(table) > room:
        table = table[: room - 1].rstrip() + "…"
    return table + mark


class RematchHost(RoomHost, Protocol):
    """What a rematch needs of the hub (server/hub.py's `Hub`): a new room's ports too."""

    rooms: dict[str, Room]
    store: Store
    limits: Limits

    def new_room_id(self) -> str: ...


def state_message(room: Room, new_room: str | None = None) -> dict[str, Any]:
    answers = room.rematch
    return {
        "t": "rematch",
        "room": room.id,
        "humans": room.humans(),
        "accepted": sorted(s for s, yes in answers.items() if yes),
        "declined": sorted(s for s, yes in answers.items() if not yes),
        "new_room": new_room,
    }


def on_rematch(hub: RematchHost, conn: Conn, msg: Rematch, rid: int | None) -> None:
    room_id, accept = msg.room, msg.accept
    identity = conn.identity
    assert identity is not None
    room = conn.room if conn.room is not None and conn.room.id == room_id else None
    room = room or hub.rooms.get(room_id)
    if room is None:
        raise Refused("no_such_room", f"no room {room_id!r}")
    seat = room.seat_of(identity)
    if seat is None:
        raise Refused("not_allowed", "only the game's players can ask for a rematch")
    if room.status != FINISHED:
        raise Refused("not_allowed", "a rematch is for a finished game")
    if room.rematch_room is not None:
        raise Refused("not_allowed", "the rematch has started already")
    if room.rematch.get(seat) is accept:  # no change: nobody else needs to hear it again
        conn.send(state_message(room))
        return
    _spend_answer(hub.limits, identity)
    room.rematch[seat] = accept
    humans = room.humans()
    new_room = None
    if all(room.rematch.get(i) for i in humans):
        new_room = _start_again(hub, room)
    data = state_message(room, new_room.id if new_room else None)
    for member, _ in room.members():
        member.send(data)
    if new_room is not None:
        _move_in(room, new_room)
        _spectators_follow(room, new_room)
        new_room.start()
        hub.rooms_changed()


def _spend_answer(limits: Limits, identity: Identity) -> None:
    """A changed answer reaches every member (60 spectators: issue 33 saw 785 toggles in
    15 s): each player's are limited, refused politely like chat beyond the limit."""
    bucket = identity.rematch_answers
    if bucket is None:
        bucket = TokenBucket(REMATCH_BURST, limits.rematch_answers_per_s or float("inf"))
        identity.rematch_answers = bucket
    if not bucket.take():
        raise Refused("rate_limited", "too many rematch answers; wait a moment")


def _start_again(hub: RematchHost, old: Room) -> Room:
    """The same table in a new room (stored first), not started yet."""
    assert old.game is not None
    first = old.info.record_header(old.game)["first_auctioneer"]
    options = dataclasses.replace(old.options, first_auctioneer=(first + 1) % old.size)
    name = rematch_name(old.name)
    settings = RoomSettings(old.size, name, old.variant, options, old.info.name)
    room = Room(ports_of(hub), hub.new_room_id(), settings, old.password)
    for i, s in enumerate(old.seats):
        assert s is not None
        if s.level is not None:
            room.seat_bot(s.level, at=i, name=s.name)
        else:
            assert s.identity is not None
            room.seats[i] = Seat(s.identity.name, identity=s.identity)
    room.host, room.address = old.host, old.address
    hub.store.add_room(room.id, room.name, room.settings_json(), room.members_json())
    hub.rooms[room.id] = room
    old.rematch_room = room.id
    return room


def _move_in(old: Room, room: Room) -> None:
    """The humans sit down at the new table: the connected ones at once."""
    for i in room.humans():
        s = room.seats[i]
        assert s is not None and s.identity is not None
        identity = s.identity
        identity.room, identity.seat = room, i
        conn = old.seats[i].conn  # type: ignore[union-attr]
        if conn is not None:
            old.detach(i)
        else:  # back in the lobby already: sits down too
            conn = getattr(identity, "conn", None)
            if conn is not None and conn.room is not None:
                conn = None
        if conn is not None:
            conn.room, conn.seat = room, i
            room.attach(i, conn)
            conn.send({"t": "joined", "room": room.id, "seat": i})
            conn.send(room.room_message(i))  # its name says it is a rematch


def _spectators_follow(old: Room, room: Room) -> None:
    """Those watching the table watch its rematch (issue 28): they came to see these
    players, and `L` takes them back to the lobby as from any room. They were let into
    the old room (its password), and the new one has the same."""
    for conn in list(old.spectators):
        old.spectators.discard(conn)
        conn.room, conn.seat = room, None
        if conn.identity is not None:
            conn.identity.watching = room.id  # a reload watches the rematch
        room.spectators.add(conn)
        conn.send({"t": "joined", "room": room.id, "seat": None})
        conn.send(room.room_message(None))
