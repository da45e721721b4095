"""What every part of a room shares: its statuses, its seats, the members and
players it deals with, and the guard of its timer callbacks (server/rooms/room.py)."""

from __future__ import annotations

import asyncio
import functools
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from modernart.server.rooms.ports import Timer
from modernart.server.store.errors import StoreError

log = logging.getLogger("modernart.server")
# The bots' pauses and search seeds: a generator of the server's own, so that what
# seeds or checks the global one (Hypothesis in tests/server/test_fuzz.py) is left alone.
RNG = random.Random()

WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"


class Member(Protocol):
    """A connection in a room, as the room sees it (server/wire/session.py's `Conn`)."""

    def send(self, message: dict[str, Any]) -> None: ...

    def send_raw(self, data: bytes, room: Any = None) -> None: ...

    def send_framed(self, frame: bytes, room: Any = None) -> None: ...


class Player(Protocol):
    """An identity sitting in a room (server/wire/session.py's `Identity`)."""

    id: str
    name: str
    room: Any
    seat: int | None


def guarded(method: Callable[..., None]) -> Callable[..., None]:
    """Timer callbacks must never raise into the event loop: log and carry on."""

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any) -> None:
        try:
            method(self, *args)
        except StoreError as exc:  # one line: the retry is already scheduled, backing off
            log.error("room %s: %s", self.id, exc)
        except Exception:
            log.exception("room %s: %s failed", self.id, method.__name__)

    return wrapper


# Bots' names: short enough for an 80-column table; the letter says the level.
BOT_NAMES = ("Otto", "Vera", "Hugo", "Mila", "Ines")
# The mark after a bot's name is its level's first letter, but for expert (easy has E).
LEVEL_MARKS = {"expert": "X"}
# After an action the store refused, clocks and bots wait this long before trying
# again, doubling per failure in a row up to the maximum.
STORE_RETRY_S, STORE_RETRY_MAX_S = 1.0, 60.0


@dataclass(eq=False)
class Seat:
    name: str
    identity: Player | None = None  # a human's seat
    level: str | None = None  # a bot's seat
    conn: Member | None = None  # the human's live connection, if any
    autopilot: Any = None  # a bot playing for an absent human
    bot: Any = None  # the bot of a bot seat
    pending: Timer | None = None  # a scheduled bot move
    takeover: Timer | None = None
    thinking: asyncio.Future[Any] | None = None  # a searching bot's decision in a worker
    think_limit: Timer | None = None  # when to stop waiting for it
    # (lot, cap) searched for R12; cap None: this lot is played as `hard` (pool was full)
    open_cap: tuple[tuple[Any, ...], int | None] | None = None
    left: bool = False  # the human left on purpose (`leave`, `bye`), not a lost connection
    # A human's actions: own, or a stand-in's (autopilot, turn clock) — a game the
    # stand-in played most of is a loss for that human (server/people/ratingrules.py)
    own_turns: int = 0
    standin_turns: int = 0

    @property
    def connected(self) -> bool:
        return self.level is not None or self.conn is not None

    def brain(self) -> Any:
        return self.bot if self.level is not None else self.autopilot

    def to_json(self) -> dict[str, Any]:
        if self.level is not None:
            return {"bot": self.level, "name": self.name}
        assert self.identity is not None
        return {"identity": self.identity.id, "name": self.name}
