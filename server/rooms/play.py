"""A room's game from a client's side: `act`, `sync` and `history` (paged).

These handlers need nothing of the hub: the connection knows its room and seat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from modernart.engine import RuleError
from modernart.engine.games import DEFAULT_GAME, GameInfo, get_game
from modernart.server.rooms.actions import CloseNotAllowed, parse_action
from modernart.server.rooms.room import PLAYING, Room
from modernart.server.wire.codec import encode, encode_entries, map_header
from modernart.server.wire.messages import Act, History, Sync
from modernart.server.wire.refusal import Refused, error, reply

if TYPE_CHECKING:
    from modernart.server.wire.session import Conn

# Packed events in one `history` answer: a quarter of the 1 MiB a client's frames
# may hold (tui/client.py), so that an answer never closes the client with 1009.
HISTORY_PAGE = 256 * 1024


def game_of(conn: Conn) -> GameInfo:
    """The game of the client's room (Modern Art's in the lobby), whose vocabulary
    its messages are read with."""
    return conn.room.info if conn.room is not None else get_game(DEFAULT_GAME)


def _playing_seat(conn: Conn) -> tuple[Room, int]:
    room, seat = conn.room, conn.seat
    if room is None or seat is None:
        raise Refused("not_allowed", "only a seated player may act")
    if room.status != PLAYING:
        raise Refused("not_allowed", "no game is running in this room")
    return room, seat


def on_act(conn: Conn, msg: Act, rid: int | None) -> None:
    try:
        action = parse_action(msg.action, game_of(conn))
    except CloseNotAllowed as exc:
        raise Refused("not_allowed", str(exc)) from None
    room, seat = _playing_seat(conn)
    try:
        room.act(seat, action)
    except RuleError as exc:
        conn.send(error(exc.code, str(exc), rid))


def on_sync(conn: Conn, msg: Sync, rid: int | None) -> None:
    room = conn.room
    if room is None:
        raise Refused("not_allowed", "you are not in a room")
    if room.game is None:
        conn.send(reply(room.room_message(conn.seat), rid))
    else:
        room.send_view(conn, conn.seat, rid)


def on_history(conn: Conn, msg: History, rid: int | None) -> None:
    """The room's public events after update `since` (all when absent); `seq` is the
    latest update's number, so a client knows which updates the answer covers.
    An answer holds at most HISTORY_PAGE bytes of events, whole updates: when more
    follow, `more` is true and `upto` is the last update it covers, and the client
    asks again with `since: upto` (docs/protocol.md addition, issue 21)."""
    since = -1 if msg.since is None else msg.since
    room = conn.room
    if room is None:
        raise Refused("not_allowed", "you are not in a room")
    events, upto = room.history.packed_since(since, HISTORY_PAGE)
    head = {"t": "history", "room": room.id, "seq": room.seq}
    tail: dict[str, Any] = {
        "upto": room.seq if upto is None else upto,
        "more": upto is not None,
    }
    if rid is not None:
        tail["re"] = rid
    conn.send_raw(
        map_header(len(head) + 1 + len(tail))
        + encode_entries(head)
        + encode("events")
        + events
        + encode_entries(tail)
    )
