"""The lobby's room list: pages on request (`rooms`), and pushes when it changes.

A change is pushed to every client in the lobby soon (LOBBY_PUSH_DELAY), but at most
once a LOBBY_PUSH_EVERY, and packed once for all of them (server/lobby/pages.py).

A push reaches the lobby's clients in slices of at least LOBBY_SLICE, one slice a
LOBBY_SLICE_EVERY, over LOBBY_SPREAD at most. The terminal doors run a session's app on
the server's machine: sent to 100 lobby sessions at once, a list had every worker draw it
in the same moment, and a player's key anywhere waited for both cores
(docs/benchmarks.md, "A room list pushed to the lobby").
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from modernart.engine.games import GAME_NAMES
from modernart.server.lobby.pages import RoomList
from modernart.server.rooms.room import FINISHED, PLAYING, WAITING
from modernart.server.wire.codec import BadMessage, ws_frame
from modernart.server.wire.messages import Rooms

if TYPE_CHECKING:
    from modernart.server.rooms.room import Room
    from modernart.server.wire.session import Conn

log = logging.getLogger("modernart.server")

LOBBY_PUSH_DELAY = 0.05  # a quiet lobby hears of a change this fast …
LOBBY_PUSH_EVERY = 1.0  # … but gets at most one `rooms` push a second
LOBBY_SPREAD = 0.5  # seconds over which one push reaches every lobby client …
LOBBY_SLICE_EVERY = 0.05  # … a slice at a time, this far apart …
LOBBY_SLICE = 8  # … of at least this many clients (a small lobby: all at once)


class Lobby:
    def __init__(
        self,
        rooms: Callable[[], Iterable[Room]],
        conns: Callable[[], Iterable[Conn]],
    ) -> None:
        """`rooms`, `conns`: the hub's rooms and live connections."""
        self.listing = RoomList(rooms)
        self._conns = conns
        self.stopping = False
        self._push: asyncio.TimerHandle | None = None
        self._last_push = float("-inf")
        self._slices: list[asyncio.TimerHandle] = []  # the last push's slices still to go

    def stop(self) -> None:
        self.stopping = True
        if self._push is not None:
            self._push.cancel()
        for later in self._slices:
            later.cancel()

    def send_rooms(
        self,
        conn: Conn,
        rid: int | None,
        status: str | None = None,
        page: int = 0,
        game: str | None = None,
    ) -> None:
        """A page of the room list (docs/protocol.md), packed once per change for
        everyone; a client that leaves its output unread gets none."""
        if not conn.backlogged:
            conn.send_now(ws_frame(self.listing.message(status, page, rid, game)))
            conn.rooms_pushed = None

    def changed(self) -> None:
        self.listing.changed()
        if self._push is None and not self.stopping:
            loop = asyncio.get_running_loop()
            wait = max(LOBBY_PUSH_DELAY, self._last_push + LOBBY_PUSH_EVERY - loop.time())
            self._push = loop.call_later(wait, self._push_rooms)

    def _push_rooms(self) -> None:
        self._push = None
        self._last_push = asyncio.get_running_loop().time()
        try:
            lobby = [c for c in self._conns() if c.in_lobby and not c.backlogged]
            if not lobby:
                return
            frame = ws_frame(self.listing.message(None, 0, None))
            most = round(LOBBY_SPREAD / LOBBY_SLICE_EVERY)  # slices
            size = max(LOBBY_SLICE, -(-len(lobby) // most))
            slices = [lobby[start : start + size] for start in range(0, len(lobby), size)]
            self._send(frame, slices[0])
            loop = asyncio.get_running_loop()
            self._slices = [
                loop.call_later(k * LOBBY_SLICE_EVERY, self._send, frame, later)
                for k, later in enumerate(slices[1:], 1)
            ]
        except Exception:
            log.exception("pushing the rooms list failed")

    def _send(self, frame: bytes, conns: list[Conn]) -> None:
        for conn in conns:
            # Gone from the lobby or behind since the push began: not sent. A change the
            # first page does not show (a room further down, a finished game's clean-up)
            # makes the same page: not sent again.
            if conn.in_lobby and not conn.backlogged and conn.rooms_pushed != frame:
                conn.send_now(frame)
                conn.rooms_pushed = frame

    def on_rooms(self, conn: Conn, msg: Rooms, rid: int | None) -> None:
        status = msg.status
        if status not in (None, WAITING, PLAYING, FINISHED):
            raise BadMessage("`status` must be waiting, playing or finished")
        game = msg.game
        if game is not None and game not in GAME_NAMES:
            raise BadMessage(f"`game` must be one of {list(GAME_NAMES)}")
        page = msg.page or 0
        self.send_rooms(conn, rid, status, page, game)
