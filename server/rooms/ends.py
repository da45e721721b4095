"""How rooms end (issue 18): a finished room stays listed for `finished_listed_s` so
its players see the result and can rematch; a running game with no seated human
connected for `abandoned_after_s` ends as abandoned (stored, its humans lose) and
leaves the list. Both are limits (docs/operations.md). Timers, not sweeps: a room
arms one when its last human goes and disarms it when one comes back."""

from __future__ import annotations

import asyncio
import itertools
import logging
from typing import Protocol

from modernart.server.limits import Limits
from modernart.server.people.players import PlayerDesk
from modernart.server.rooms.room import PLAYING, Room
from modernart.server.store.sqlite import Store, StoreError

log = logging.getLogger("modernart.server")

ABANDONED = "abandoned"
RETRY_S = 60.0  # a store that refused to keep the abandonment is asked again


class EndsHost(Protocol):
    """What `RoomEnds` needs of the hub (server/hub.py's `Hub`)."""

    rooms: dict[str, Room]
    limits: Limits
    players: PlayerDesk
    store: Store

    def rooms_changed(self) -> None: ...


class RoomEnds:
    def __init__(self, hub: EndsHost) -> None:
        self.hub = hub
        self._abandon: dict[str, asyncio.TimerHandle] = {}
        self._unlist: dict[str, asyncio.TimerHandle] = {}
        # Running rooms' absent humans: seat -> when they went, as a count (who left
        # first loses most when the game is abandoned, server/people/ratingrules.py). Not the
        # loop's time: uvloop's has a millisecond's grain, and two can go in one.
        self._went: dict[str, dict[int, float]] = {}
        self._goings = itertools.count(1)

    def stop(self) -> None:
        for handle in [*self._abandon.values(), *self._unlist.values()]:
            handle.cancel()
        self._abandon.clear()
        self._unlist.clear()
        self._went.clear()

    # ------------------------------------------------------------- finished

    def finished(self, room: Room) -> None:
        self._disarm(room)
        self._went.pop(room.id, None)
        wait = self.hub.limits.finished_listed_s
        loop = asyncio.get_running_loop()
        self._unlist[room.id] = loop.call_later(wait, self._unlist_room, room)

    def _unlist_room(self, room: Room) -> None:
        self._unlist.pop(room.id, None)
        room.unlisted = True
        if self.hub.rooms.get(room.id) is room:
            del self.hub.rooms[room.id]
            self.hub.rooms_changed()

    # ------------------------------------------------------------ abandoned

    def attendance_changed(self, room: Room) -> None:
        """A seated human came or went: arm or disarm the room's abandonment."""
        if room.status != PLAYING:
            self._went.pop(room.id, None)
        else:
            went = self._went.setdefault(room.id, {})
            for i, s in enumerate(room.seats):
                if s is not None and s.identity is not None:
                    if s.conn is None:
                        if i not in went:
                            went[i] = next(self._goings)
                    else:
                        went.pop(i, None)
        if room.status != PLAYING or self._humans_here(room):
            self._disarm(room)
        elif room.id not in self._abandon:
            self._arm(room, self.hub.limits.abandoned_after_s)

    @staticmethod
    def _humans_here(room: Room) -> bool:
        return any(s.conn is not None for s in room.seats if s and s.identity is not None)

    def _arm(self, room: Room, wait: float) -> None:
        loop = asyncio.get_running_loop()
        self._abandon[room.id] = loop.call_later(wait, self._abandon_room, room)

    def _disarm(self, room: Room) -> None:
        handle = self._abandon.pop(room.id, None)
        if handle is not None:
            handle.cancel()

    def _abandon_room(self, room: Room) -> None:
        self._abandon.pop(room.id, None)
        hub = self.hub
        if room.status != PLAYING or self._humans_here(room) or hub.rooms.get(room.id) is not room:
            return
        try:
            hub.players.game_abandoned(room, self._went.get(room.id, {}))
        except StoreError as exc:
            log.error("room %s: %s; abandoning it again later", room.id, exc)
            self._arm(room, RETRY_S)
            return
        self._went.pop(room.id, None)
        log.info("room %s: no player for a while; the game ends as abandoned", room.id)
        room.stop_clocks()
        room.status = ABANDONED
        for i in room.humans():
            identity = room.seats[i].identity  # type: ignore[union-attr]
            if identity is not None and identity.room is room:
                identity.room = identity.seat = None
        for conn in list(room.spectators):
            conn.room = conn.seat = None
            conn.send({"t": "left", "room": room.id})
        room.spectators.clear()
        del hub.rooms[room.id]
        hub.rooms_changed()
