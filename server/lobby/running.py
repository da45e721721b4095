"""Running games per address and per identity, kept as games start and end.

`Hub._check_game_limits` used to count them over every room at each `start`
(issue 21: a scan of all rooms per game started). A room reports each change of
its status (`Room.status`); a game is counted from the moment its room turns
`playing` until it turns anything else, against the address that started it and
each identity seated in it then (a running game's seats and address do not
change: seats are taken and given up only while a room waits).
"""

from __future__ import annotations

from collections import Counter
from typing import Any


class RunningGames:
    def __init__(self) -> None:
        # room -> (the address it counts against, the identities it counts for)
        self._rooms: dict[Any, tuple[str | None, frozenset[str]]] = {}
        self._by_address: Counter[str | None] = Counter()
        self._by_identity: Counter[str] = Counter()

    def started(self, room: Any) -> None:
        """`room` turned `playing` (a start, or a stored game resumed)."""
        if room in self._rooms:
            return
        ids = frozenset(s.identity.id for s in room.seats if s is not None and s.identity)
        self._rooms[room] = (room.address, ids)
        self._by_address[room.address] += 1
        for identity in ids:
            self._by_identity[identity] += 1

    def ended(self, room: Any) -> None:
        """`room` is no longer `playing` (finished, abandoned)."""
        entry = self._rooms.pop(room, None)
        if entry is None:
            return
        address, ids = entry
        _take(self._by_address, address)
        for identity in ids:
            _take(self._by_identity, identity)

    def from_address(self, address: str) -> int:
        return self._by_address[address]

    def of_identity(self, identity_id: str) -> int:
        return self._by_identity[identity_id]

    def by_address(self) -> dict[str, int]:
        """Running games per address (for the other processes of a cluster)."""
        return {a: n for a, n in self._by_address.items() if a is not None}

    def by_identity(self) -> dict[str, int]:
        return dict(self._by_identity)

    def __len__(self) -> int:
        return len(self._rooms)


def _take(counts: Counter[Any], key: Any) -> None:
    counts[key] -= 1
    if counts[key] <= 0:
        del counts[key]
