"""A room: its seats and spectators, and once started the game, its clocks and bots.

`Room` is made of parts, one module each: seating and presence
(server/rooms/seating.py), the turn's apply, commit and send (server/rooms/turns.py),
bots' turns (server/rooms/bots.py) and clocks (server/rooms/clocks.py); what they
share is in server/rooms/base.py. It reaches the rest of the server only through
the `RoomPorts` it is made with (server/rooms/ports.py): the store, the bots'
workers, the lobby and a clock.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from modernart.engine.games import GameInfo, GameState
from modernart.server.rooms.base import FINISHED, PLAYING, WAITING, Seat
from modernart.server.rooms.bots import BotTurns
from modernart.server.rooms.clocks import Clocks
from modernart.server.rooms.history import History
from modernart.server.rooms.options import RoomOptions, RoomSettings
from modernart.server.rooms.ports import Clock, RoomPorts, Timer
from modernart.server.rooms.seating import Seating
from modernart.server.rooms.turns import Turns

__all__ = ["FINISHED", "PLAYING", "RECENT_CHAT", "WAITING", "Room", "Seat"]

RECENT_CHAT = 20  # chat lines a room keeps for those who come later (server/rooms/chat.py)


class Room(Seating, Turns, BotTurns, Clocks):
    def __init__(
        self, ports: RoomPorts, room_id: str, settings: RoomSettings, password: Any
    ) -> None:
        self.ports = ports
        self.id = room_id
        self.info: GameInfo = settings.info  # the room's game: everything game-specific
        self.name = settings.name
        self.size = settings.seats
        self.variant = settings.variant
        self.options: RoomOptions = settings.options
        self.password = password  # None or {"salt", "hash"}; never sent anywhere
        self._status = WAITING
        self.seats: list[Seat | None] = [None] * self.size
        self.host: int | None = 0
        self.spectators: set[Any] = set()  # `Member`s
        self.game: GameState | None = None
        self.seq = 0
        self.history = History()  # public events, for the `history` request
        self.chat: deque[dict[str, Any]] = deque(maxlen=RECENT_CHAT)  # server/rooms/chat.py
        self._hammer: list[Timer] = []
        self._hammer_deadline: float | None = None
        self._turn_clock: Timer | None = None
        self._turn_deadline: float | None = None
        self._clock_seats: frozenset[int] = frozenset()  # the seats the turn clock times
        self._read_until = 0.0  # clock time: no turn clock starts before (a round's summary)
        self._store_failures = 0  # actions refused by the store in a row
        self._retry: Timer | None = None
        self.paused = False  # no seated human connected (without --dev): nothing moves
        self._changed_at = 0.0  # clock time of the last action (bots' reaction times)
        self._plain_bot: Any = None  # the game's default bot: a searching bot's stand-in
        self.address: str | None = None  # the creator's address (per-address limits)
        self.unlisted = False  # finished and its time on the lobby's list is over
        self.rematch: dict[int, bool] = {}  # seat -> accepted (server/rooms/rematch.py)
        self.rematch_room: str | None = None  # the rematch's room once it started
        self._clock: Clock | None = ports.clock

    @property
    def clock(self) -> Clock:
        """The room's clock: its port's, or else the running loop (looked up once: it
        is asked for on every act)."""
        clock = self._clock
        if clock is None:
            clock = self._clock = asyncio.get_running_loop()
        return clock

    @property
    def status(self) -> str:
        return self._status

    @status.setter
    def status(self, value: str) -> None:
        """Every change is reported to the lobby (server/lobby/running.py counts running games)."""
        was, self._status = self._status, value
        if was != value:
            self.ports.lobby.status_changed(self, was)
