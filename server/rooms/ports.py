"""The ports a room talks to the rest of the server through (issue 29).

A `Room` (server/rooms/room.py) is given a `RoomPorts` when it is made and reaches
nothing else: no hub, no globals. What crosses a port is plain data (ids,
JSON-like dicts, numbers) but for the lobby's notifications, which hand over the
room itself (its owner keeps its seats' identities), and the members, which are
connections the room sends to (server/wire/session.py's `Conn`). The hub builds the
ports from itself with `ports_of`; a test builds them from stand-ins
(tests/server/test_room_ports.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol


class RoomStore(Protocol):
    """Persistence: what a room writes (server/store/sqlite.py's `Store`). Each call either
    stores what it is given or raises `StoreError` (server/store/errors.py), changing
    nothing; the room then takes its change back and backs off."""

    def start_room(self, room_id: str, members: dict, header: dict, seq: int) -> None:
        """The game starts: its members, the record's header (no actions), the seq."""

    def append_action(self, room_id: str, idx: int, action: dict[str, Any], seq: int) -> None:
        """The game's action number `idx` and the update's seq."""

    def saved(self, room_id: str) -> None:
        """Commit the room's pending writes now (a game's last action)."""

    def save_seq(self, room_id: str, seq: int) -> None:
        """An update that is no action (presence, the hammer's `going`) took a seq."""


class Timer(Protocol):
    """A planned call (asyncio's `TimerHandle`)."""

    def cancel(self) -> None: ...


class Clock(Protocol):
    """Timers: the room's clocks, bots' pauses and back-offs (the event loop; a test's
    manual clock for virtual time)."""

    def time(self) -> float: ...

    def call_later(self, delay: float, callback: Callable[..., Any], *args: Any) -> Timer: ...

    def call_at(self, when: float, callback: Callable[..., Any], *args: Any) -> Timer: ...


class BotStats(Protocol):
    """The bots' counters (server/rooms/botpool.py's `PoolStats`)."""

    quick: int
    fallback: int
    late: int
    stale: int

    def count(self, full: bool) -> None: ...


class Bots(Protocol):
    """The searching bots' worker processes (server/rooms/botpool.py's `BotPool`)."""

    budget_s: float  # a full search's time
    worlds: int | None
    stats: BotStats

    def warm(self, game: str) -> None:
        """A searching bot sat down: start the workers before its first decision."""

    def free(self) -> bool:
        """Whether a decision can be handed to a worker now."""

    def submit(self, fn: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """`fn(*args)` in a worker (plain data in and out); its answer comes later."""


class Lobby(Protocol):
    """What the room tells its owner (the hub): the lobby's list, running games,
    attendance and the game's end. Given the room itself."""

    def rooms_changed(self) -> None:
        """The lobby's list of rooms changed."""

    def status_changed(self, room: Any, was: str) -> None:
        """The room's status changed from `was` (running games are counted)."""

    def attendance_changed(self, room: Any) -> None:
        """A seated human connected or went (a running game nobody attends ends)."""

    def game_over(self, room: Any) -> dict[str, Any] | None:
        """The game just finished (results, ratings): an event for its last update."""


@dataclass(frozen=True)
class RoomPorts:
    """Everything a room reaches outside itself. `clock` None: the running loop."""

    store: RoomStore
    bots: Bots
    lobby: Lobby
    dev: bool = False  # --dev: bots may play a game nobody attends
    round_read_s: float = 0.0  # a round's summary this long before a turn clock starts
    clock: Clock | None = None


class RoomHost(Lobby, Protocol):
    """An owner that holds the ports itself (server/hub.py's `Hub`)."""

    store: Any
    bots: Any
    dev: bool
    limits: Any  # server/limits.py's `Limits`: `round_read_s`
    clock: Clock | None  # the rooms' timers: None, the running loop


def ports_of(host: RoomHost) -> RoomPorts:
    """The ports of a room the hub holds: its store, bots and limits; itself the lobby."""
    return RoomPorts(host.store, host.bots, host, host.dev, host.limits.round_read_s, host.clock)
