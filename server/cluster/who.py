"""`who` across the cluster: everyone connected to any process of it.

Each process names its connected clients in its beats (nodes.py, `Person`: identity,
name and, in a room, the room's id and whether seated), counted as one process counts
them: one entry per connection that said hello. A client is named by its own process
(its edge), which knows its room even when the room is another process's
(`Conn.remote_room`); a room's stand-ins of other processes' clients (`RemoteConn`) are
no connections of the room's process and are not named twice. The room's name, status
and game come from the lobby's list (this process's rooms and every other's beat) when
`who` is asked; ratings from the shared store, as for this process's own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from modernart.server.cluster.nodes import Nodes, Person

if TYPE_CHECKING:
    from modernart.server.rooms.room import Room
    from modernart.server.wire.session import Conn

# `who`'s entries: (identity id, {name, where[, room[, room_name, status]][, game]});
# no `game` in the lobby (the asker's `game` is the one rated there).
Entries = list[tuple[str, dict[str, Any]]]


def people_of(conns: Iterable[Conn]) -> list[Person]:
    """This process's connected clients, as its beats name them."""
    people: list[Person] = []
    for c in conns:
        identity = c.identity
        if identity is None or c.closed:
            continue
        room = c.room
        if room is not None:
            people.append([identity.id, identity.name, room.id, c.seat is not None])
        elif c.remote_room is not None:  # in another process's room
            people.append([identity.id, identity.name, c.remote_room, c.remote_seat is not None])
        else:
            people.append([identity.id, identity.name])
    return people


class Who:
    def __init__(
        self, conns: Callable[[], Iterable[Conn]], rooms: dict[str, Room], nodes: Nodes
    ) -> None:
        """`conns`: this process's connections; `rooms`: its rooms (the hub's)."""
        self._conns = conns
        self._rooms = rooms
        self._nodes = nodes

    def people(self) -> list[Person]:
        """This process's people, for its beats."""
        return people_of(self._conns())

    def everyone(self, limit: int) -> tuple[Entries, int]:
        """The first `limit` people connected to any process, by name, and how many
        there are in all (`PlayerDesk.on_who`'s list in a cluster)."""
        people = self.people()
        for known in self._nodes.others.values():
            people.extend(known.people)
        people.sort(key=lambda p: p[1].casefold())
        listed: dict[str, Any] | None = None  # room id → the other processes' rooms
        entries: Entries = []
        for person in people[:limit]:
            entry: dict[str, Any] = {"name": person[1], "where": "lobby"}
            if len(person) > 2:
                room_id = person[2]
                entry["where"] = "playing" if person[3] else "watching"
                entry["room"] = room_id
                room = self._rooms.get(room_id)
                if room is not None:
                    entry.update(room_name=room.name, status=room.status, game=room.info.name)
                else:
                    if listed is None:
                        listed = self._listed()
                    facts = listed.get(room_id)
                    if facts is not None:  # else a room not heard of yet: its id alone
                        entry.update(room_name=facts[0], status=facts[1], game=facts[2])
            entries.append((person[0], entry))
        return entries, len(people)

    def _listed(self) -> dict[str, Any]:
        """The other processes' rooms: room id → [name, status, game]."""
        facts: dict[str, Any] = {}
        for known in self._nodes.others.values():
            facts.update(known.aside)
            for room in known.rooms:
                summary = room.summary()
                facts[room.id] = [summary["name"], summary["status"], summary["game"]]
        return facts
