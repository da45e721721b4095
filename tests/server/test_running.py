"""Running games are counted as rooms start and end (`Limits.games_per_*`, issue 21):
the counts always equal a count over every room, as `start` used to make."""

from __future__ import annotations

import pathlib

from modernart.engine.modernart import parse_variant
from modernart.server.hub import Hub
from modernart.server.rooms.ends import ABANDONED
from modernart.server.rooms.options import RoomOptions, RoomSettings
from modernart.server.rooms.ports import ports_of
from modernart.server.rooms.room import FINISHED, PLAYING, Room
from modernart.server.store.port import open_store
from modernart.server.wire.session import Identity


def scanned(hub: Hub, identity: Identity, address: str) -> tuple[int, int]:
    """The old count: every room's status and seats looked at."""
    playing = [r for r in hub.rooms.values() if r.status == PLAYING]
    mine = sum(1 for r in playing if r.seat_of(identity) is not None)
    return mine, sum(1 for r in playing if r.address == address)


def counted(hub: Hub, identity: Identity, address: str) -> tuple[int, int]:
    return hub.running.of_identity(identity.id), hub.running.from_address(address)


def new_room(hub: Hub, room_id: str, identity: Identity, address: str) -> Room:
    settings = RoomSettings(
        3, room_id, parse_variant("classic", 3).to_dict(), RoomOptions(takeover_s=0)
    )
    room = Room(ports_of(hub), room_id, settings, None)
    room.address = address
    hub.store.add_room(room.id, room.name, room.settings_json(), room.members_json())
    hub.rooms[room.id] = room
    room.seat_human(identity)
    room.seat_bot("random")
    room.seat_bot("random")
    hub.store.save_members(room.id, room.members_json())
    return room


async def test_running_games_are_counted_from_start_to_end_and_after_a_restart(
    tmp_path: pathlib.Path, store_url: str | None
):
    store = open_store(tmp_path, store_url)
    hub = Hub(store)
    hub.load()
    ann = hub.people.get("ann-id", "Ann")
    here = "10.0.0.1"
    first = new_room(hub, "r1", ann, here)
    second = new_room(hub, "r2", ann, here)
    assert counted(hub, ann, here) == scanned(hub, ann, here) == (0, 0)  # waiting
    first.start()
    assert counted(hub, ann, here) == scanned(hub, ann, here) == (1, 1)
    second.start()
    assert counted(hub, ann, here) == scanned(hub, ann, here) == (2, 2)
    assert hub.running.from_address("10.0.0.2") == 0
    first.stop_clocks()
    store.set_status(first.id, ABANDONED)  # as RoomEnds abandons a game nobody attends
    first.status = ABANDONED
    assert counted(hub, ann, here) == scanned(hub, ann, here) == (1, 1)
    first.status = ABANDONED  # no change, no second count
    assert counted(hub, ann, here) == (1, 1)
    hub.shutdown()
    store.close()

    # After a restart the stored running game counts for its players again (its
    # starting address is not stored: it counts against none, as before).
    store = open_store(tmp_path, store_url)
    hub = Hub(store)
    hub.load()
    ann = hub.identities["ann-id"]
    assert counted(hub, ann, here) == scanned(hub, ann, here) == (1, 0)
    room = hub.rooms["r2"]
    room.stop_clocks()
    room.status = FINISHED
    assert counted(hub, ann, here) == scanned(hub, ann, here) == (0, 0)
    assert len(hub.running) == 0
    hub.shutdown()
    store.close()
