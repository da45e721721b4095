"""What a process knows of the others: who is alive, the rooms each holds (for the one
lobby), the players seated there (to send a returning player to its seat) and who is
connected to each (for `who`).

Every process publishes a *beat* on the lobby channel once a second, and soon after
its rooms change: its id, its listed rooms' summaries, its seated players, its counts
for the limits, what its rate buckets spent since its last beat (rates.py) and, when
it changed (or every `PEOPLE_EVERY` beats, or when a process new to it is heard), its
connected people (who.py). A process not heard for `DEAD_S` is dead: its rooms are
claimed by the living (an atomic compare-and-set on the room's owner key) and
restored from the shared store.

A room's owner key (`modernart:owner:<room>`) holds the process that holds the room;
it lasts `OWNER_TTL_MS` and its owner renews it every beat, so a room whose process
vanished without a trace (and whose beat nobody heard) is free again after that. A
renewal that finds another process's name there (this one was silent too long, a
loop stalled past `DEAD_S`, and was taken for dead) gives the room up: `on_lost`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from modernart.engine.games import get_game
from modernart.server.cluster.bus import LOBBY, PREFIX, Bus
from modernart.server.cluster.rates import Spent
from modernart.server.rooms.base import FINISHED, PLAYING, WAITING

log = logging.getLogger("modernart.server")

BEAT_S = 1.0  # a beat a second …
SOON_S = 0.05  # … and one this soon after a change of rooms
DEAD_S = 3.5  # a process not heard for this long is dead
LATE_S = 0.5  # a beat this late: this process's own loop stalled, it judges nobody now
OWNER_TTL_MS = 15_000
PEOPLE_EVERY = 10  # beats: the people list goes out whole at least this often

# Take a room whose owner is `ARGV[1]` (a dead process, or this one to renew it) or
# nobody, for `ARGV[2]`: 1, else 0 (another process holds it).
CLAIM = """
local owner = redis.call('GET', KEYS[1])
if owner == false or owner == ARGV[1] or owner == ARGV[2] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0
"""


def owner_key(room_id: str) -> str:
    return f"{PREFIX}owner:{room_id}"


class RemoteRoom:
    """A room of another process as the lobby lists it (RoomList reads these three)."""

    __slots__ = ("_summary", "id", "info", "status")

    def __init__(self, summary: dict[str, Any]) -> None:
        self.id: str = summary["id"]
        self.status: str = summary["status"]
        self.info = get_game(summary["game"])
        self._summary = summary

    def summary(self) -> dict[str, Any]:
        return self._summary


Counts = dict[str, dict[str, int]]  # a beat's counts (server/limits.py's kinds) per key
# A connected client as a beat names it for `who` (who.py): [identity id, name] in the
# lobby; [identity id, name, room id, seated] in a room.
Person = list[Any]


@dataclass
class Node:
    heard: float
    rooms: list[RemoteRoom] = field(default_factory=list)
    seats: dict[str, str] = field(default_factory=dict)  # identity → room id
    counts: Counts = field(default_factory=dict)
    people: list[Person] = field(default_factory=list)  # its connections (who.py)
    # Its unlisted rooms with someone in them (a finished game's table after its time on
    # the list): room id → [name, status, game], for `who`.
    aside: dict[str, list[str]] = field(default_factory=dict)


class Nodes:
    def __init__(
        self,
        bus: Bus,
        rooms: Callable[[], Iterable[Any]],
        changed: Callable[[], None],
        counts: Callable[[], Counts],
        people: Callable[[], list[Person]] = list,
        spent: Callable[[], Spent] = dict,
    ) -> None:
        """`rooms`: this process's rooms (the hub's); `changed`: the lobby's list changed;
        `counts`: this process's counts for the limits; `people`: its connections;
        `spent`: what its rate buckets spent since the last call (rates.py)."""
        self.bus = bus
        self.node = bus.node
        self._rooms = rooms
        self._counts = counts
        self._spent = spent
        self._people = people
        self._people_sent: list[Person] | None = None  # the list the last beat carried
        self._people_age = 0  # beats since then
        self._changed = changed
        self.others: dict[str, Node] = {}
        self._owner: dict[str, str] = {}  # room id → the process listing it
        self._beat: asyncio.TimerHandle | None = None
        self._soon = False
        self._renewing: asyncio.Task | None = None
        self._due = float("inf")  # when the next beat should come (loop time)
        self.on_dead: Callable[[str, Node], None] = lambda node, last: None
        self.on_rooms: Callable[[str, Node], None] = lambda node, heard: None
        self.on_lost: Callable[[list[str]], None] = lambda room_ids: None
        self.on_spent: Callable[[Spent], None] = lambda spent: None  # another's `t`
        self._claim = bus.redis.register_script(CLAIM)

    # ------------------------------------------------------------- this one

    def start(self) -> None:
        self._beat = asyncio.get_running_loop().call_soon(self.beat)

    def stop(self) -> None:
        if self._renewing is not None:
            self._renewing.cancel()
        if self._beat is not None:
            self._beat.cancel()
            self._beat = None
        bye: dict[str, Any] = {"k": "bye", "n": self.node}
        spent = self._spent()
        if spent:
            bye["t"] = spent
        self.bus.publish(LOBBY, bye)

    def soon(self) -> None:
        """Rooms changed here: a beat soon (at most one per SOON_S)."""
        if self._beat is not None and not self._soon:
            self._soon = True
            self._beat.cancel()
            loop = asyncio.get_running_loop()
            self._beat = loop.call_later(SOON_S, self.beat)
            self._due = loop.time() + SOON_S

    def beat(self) -> None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        # Late: this loop was held up (others' beats may wait unread in its socket), so
        # their silence says nothing this time.
        stalled = now - self._due > LATE_S
        self._soon = False
        self._beat = loop.call_later(BEAT_S, self.beat)
        self._due = now + BEAT_S
        try:
            rooms, seats, aside = [], {}, {}
            for room in self._rooms():
                if not getattr(room, "unlisted", False):
                    rooms.append(room.summary())
                elif room.members():
                    aside[room.id] = [room.name, room.status, room.info.name]
                for i in room.humans() if room.status in (WAITING, PLAYING) else ():
                    identity = room.seats[i].identity
                    if identity.room is room:  # not one who left it (`leave`): as on one server
                        seats[identity.id] = room.id
            beat = {"k": "beat", "n": self.node, "r": rooms, "s": seats, "l": self._counts()}
            if aside:
                beat["w"] = aside
            spent = self._spent()
            if spent:
                beat["t"] = spent
            people = self._people()
            if people != self._people_sent or self._people_age >= PEOPLE_EVERY - 1:
                beat["p"] = self._people_sent = people
                self._people_age = 0
            else:
                self._people_age += 1
            self.bus.publish(LOBBY, beat)
            held = [r["id"] for r in rooms if r["status"] != FINISHED]
            if self._renewing is None or self._renewing.done():  # else the last one is late
                self._renewing = loop.create_task(self._renew(held))
            if not stalled:
                self._sweep(now)
        except Exception:
            log.exception("cluster: a beat failed")

    async def _renew(self, room_ids: list[str]) -> None:
        """This process's rooms' keys renewed; those another process took: `on_lost`."""
        try:
            kept = await self._claim_each(room_ids, "")
        except Exception:
            log.exception("cluster: renewing %d rooms' ownership failed", len(room_ids))
            return
        lost = [room_id for room_id, ok in zip(room_ids, kept, strict=True) if not ok]
        if lost:
            log.error("cluster: rooms %s were taken by another process; given up", lost)
            self.on_lost(lost)

    async def claim(self, room_ids: list[str], dead: str = "") -> list[str]:
        """The rooms of `room_ids` this process now owns (those nobody owned, or `dead`)."""
        won = await self._claim_each(room_ids, dead)
        return [room_id for room_id, ok in zip(room_ids, won, strict=True) if ok]

    async def _claim_each(self, room_ids: list[str], dead: str) -> list[bool]:
        """`CLAIM` for each room, in one pipelined round trip: whether this process owns it."""
        if not room_ids:
            return []
        pipe = self.bus.redis.pipeline(transaction=False)
        for room_id in room_ids:  # queued in the pipeline (the await sends nothing yet)
            args = [dead, self.node, OWNER_TTL_MS]
            await self._claim(keys=[owner_key(room_id)], args=args, client=pipe)
        return [bool(ok) for ok in await pipe.execute()]

    # ------------------------------------------------------------- the others

    def heard(self, payload: dict[str, Any]) -> None:
        node = payload.get("n")
        if node == self.node or not isinstance(node, str):
            return
        spent = payload.get("t")
        if spent:
            try:
                self.on_spent(spent)
            except Exception:  # the rest of the beat still counts
                log.exception("cluster: the rates spent by process %s were not counted", node)
        if payload["k"] == "bye":
            self._gone(node)
            return
        now = asyncio.get_running_loop().time()
        known = self.others.get(node)
        rooms = [RemoteRoom(s) for s in payload["r"]]
        people = payload.get("p")  # absent: as its last beat had it
        if people is None:
            people = [] if known is None else known.people
        fresh = Node(now, rooms, payload["s"], payload.get("l") or {}, people, payload.get("w", {}))
        self.others[node] = fresh
        if known is None:  # a process new to this one: it hears this one's people next beat
            self._people_sent = None
        if known is not None:
            for room in known.rooms:
                if self._owner.get(room.id) == node:
                    del self._owner[room.id]
        for room in rooms:
            self._owner[room.id] = node
        if known is None or [r.summary() for r in known.rooms] != payload["r"]:
            self._changed()
        self.on_rooms(node, fresh)

    def _sweep(self, now: float) -> None:
        for node, known in list(self.others.items()):
            if now - known.heard > DEAD_S:
                log.warning("cluster: process %s is silent; taking its rooms", node)
                self._gone(node)

    def _gone(self, node: str) -> None:
        known = self.others.pop(node, None)
        if known is None:
            return
        for room in known.rooms:
            if self._owner.get(room.id) == node:
                del self._owner[room.id]
        self._changed()
        self.on_dead(node, known)

    def owner_of(self, room_id: str) -> str | None:
        """The process holding `room_id`, if another one lists it."""
        return self._owner.get(room_id)

    def seat_of(self, identity_id: str) -> tuple[str, str] | None:
        """(process, room) where `identity_id` is seated in another process's room."""
        for node, known in self.others.items():
            room_id = known.seats.get(identity_id)
            if room_id is not None:
                return node, room_id
        return None

    def count(self, kind: str, key: str) -> int:
        """What the other processes counted of `kind` for `key` at their last beat."""
        return sum(known.counts.get(kind, {}).get(key, 0) for known in self.others.values())

    def remote_rooms(self) -> list[RemoteRoom]:
        return [room for known in self.others.values() for room in known.rooms]
