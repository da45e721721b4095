"""A room's seats and members: who sits where, who watches, the host, and
whether the seated humans are there (presence: a stand-in takes an absent
player's turns; a game nobody attends pauses)."""

from __future__ import annotations

from typing import Any

from modernart.server.rooms.base import (
    BOT_NAMES,
    LEVEL_MARKS,
    PLAYING,
    WAITING,
    Member,
    Player,
    Seat,
    guarded,
)
from modernart.server.rooms.botpool import searches


class Seating:
    """Seating, summaries and presence: a part of `Room` (server/rooms/room.py)."""

    # ------------------------------------------------------------- summaries

    def settings_json(self) -> dict[str, Any]:
        return {
            "game": self.info.name,
            "seats": self.size,
            "variant": self.variant,
            "options": self.options.to_json(),
            "password": self.password,
        }

    def members_json(self) -> dict[str, Any]:
        return {
            "host": self.host,
            "seats": [s.to_json() if s else None for s in self.seats],
        }

    def summary(self) -> dict[str, Any]:
        """A room as the lobby lists it: never the password, only `locked`."""
        return {
            "id": self.id,
            "name": self.name,
            "game": self.info.name,
            "seats": self.size,
            "seated": [s.name if s else None for s in self.seats],
            "bots": [bool(s and s.level) for s in self.seats],
            "connected": [bool(s and s.connected) for s in self.seats],
            "status": self.status,
            "paused": self.paused,  # playing, but waiting for a human to come back
            "variant": self.variant,
            "spectators": len(self.spectators),
            "locked": self.password is not None,
            "host": self.host,
            "options": self.options.public(),
        }

    def members(self) -> list[tuple[Any, int | None]]:
        out: list[tuple[Any, int | None]] = [
            (s.conn, i) for i, s in enumerate(self.seats) if s and s.conn
        ]
        out.extend((c, None) for c in self.spectators)
        return out

    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s and s.identity is not None]

    def seat_of(self, identity: Player) -> int | None:
        for i, s in enumerate(self.seats):
            if s and s.identity is identity:
                return i
        return None

    def free_seat(self) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s is None), None)

    # ------------------------------------------------------ waiting room

    def room_message(self, you: int | None) -> dict[str, Any]:
        return {"t": "room", "room": self.summary(), "you": you}

    def broadcast_room(self) -> None:
        """The room's new summary to its members (joins, leaves, bots, host)."""
        for conn, seat in self.members():
            conn.send(self.room_message(seat))

    def seat_human(self, identity: Player) -> int:
        seat = self.free_seat()
        assert seat is not None
        self.seats[seat] = Seat(identity.name, identity=identity)
        if self.host is None:
            self.host = seat
        return seat

    def seat_bot(self, level: str, at: int | None = None, name: str | None = None) -> int:
        seat = self.free_seat() if at is None else at
        assert seat is not None
        name = name or f"{BOT_NAMES[seat]} ({LEVEL_MARKS.get(level, level[0].upper())})"
        bot = self.info.make_bot(level)
        self.seats[seat] = Seat(name, level=level, bot=bot)
        if searches(bot):
            self.ports.bots.warm(self.info.name)
        return seat

    def unseat(self, seat: int) -> None:
        """A human leaves a waiting room: the host role passes to the next human."""
        self.seats[seat] = None
        if self.host == seat:
            humans = self.humans()
            self.host = humans[0] if humans else None
        if not self.humans():
            # No humans left: the bots go too and the room disappears.
            self.seats = [None] * self.size

    # ------------------------------------------------------------ presence

    def attach(self, seat: int, conn: Member) -> None:
        s = self.seats[seat]
        assert s is not None
        s.conn = conn
        s.left = False
        self.ports.lobby.attendance_changed(self)
        if s.takeover is not None:
            s.takeover.cancel()
            s.takeover = None
        if s.autopilot is not None:
            s.autopilot = None
            if s.pending is not None:
                s.pending.cancel()
                s.pending = None
        if self.paused:
            self.paused = False
            for i, other in enumerate(self.seats):
                if other and other.identity is not None and other.conn is None:
                    self._seat_absent(i)
            self._update_clocks([])
            self._schedule_bots()

    def detach(self, seat: int, *, left: bool = False, told: bool = False) -> None:
        """A seat's connection is gone. `left`: on purpose (`leave`, `bye`); `told`: the
        members hear of it in a running game (`left` or `disconnected {seat}`)."""
        s = self.seats[seat]
        assert s is not None
        s.conn = None
        s.left = left
        self.ports.lobby.attendance_changed(self)
        if self.status != PLAYING:
            if told and self.status == WAITING:
                self.broadcast_room()
            return
        if self._unattended():  # before the news: its view says the game is paused
            self.paused = True
            self.stop_clocks()
        else:
            self._seat_absent(seat)
        if told:
            self.notify([{"type": "left" if left else "disconnected", "seat": seat}])

    def _unattended(self) -> bool:
        """Without --dev, a game goes on only while a seated human is connected: bots
        never play whole games by themselves on a public server."""
        if self.ports.dev:
            return False
        return not any(s.conn for s in self.seats if s and s.identity is not None)

    def _seat_absent(self, seat: int) -> None:
        s = self.seats[seat]
        assert s is not None
        if self.options.takeover_s > 0 and s.takeover is None:
            s.takeover = self.clock.call_later(self.options.takeover_s, self._take_over, seat)

    @guarded
    def _take_over(self, seat: int) -> None:
        s = self.seats[seat]
        assert s is not None
        s.takeover = None
        if s.conn is not None or self.status != PLAYING:
            return
        s.autopilot = self.info.make_bot()
        self.notify([{"type": "autopilot", "seat": seat}])
        self._schedule_bots()

    def spectators_changed(self) -> None:
        """A spectator came or went: the table shows how many watch (`watching {count}`);
        a waiting room's summary says it already."""
        if self.status == PLAYING:
            self.notify([{"type": "watching", "count": len(self.spectators)}], kept=False)
