"""Who may have a game's record, for every door (issue 28): the rule of the `record`
message (docs/protocol.md). Only a game that is over (finished or abandoned); a locked
room's only to those who played in it; never a running game. The SSH door's `record`
command and read-only SFTP view (server/doors/ssh/records.py) and the browser door's
download (server/doors/web/records.py) ask here, so the rule lives in one place."""

from __future__ import annotations

import re
from dataclasses import dataclass

from modernart.engine import Record
from modernart.server.store.export import record_of_room
from modernart.server.store.sqlite import Store
from modernart.server.wire.refusal import Refused

OVER = ("finished", "abandoned")
LISTED = 50  # the newest finished games a player's list (SFTP `games/`, the page) shows
ROOM_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what a room id in a path or command may be


def visible_record(store: Store, viewer: str | None, room_id: str) -> Record:
    """The record of `room_id` if `viewer` (an identity id; None: someone without one,
    e.g. a guest) may have it, else `Refused` with a message for a person."""
    stored = store.room(room_id) if ROOM_ID.fullmatch(room_id) else None
    if stored is None or stored.header is None:
        raise Refused("no_such_room", f"no game {room_id!r}")
    if stored.status not in OVER:
        raise Refused("not_allowed", "a game's record is given once the game is over")
    seats = stored.members.get("seats") or []
    players = {s.get("identity") for s in seats if s}
    if stored.settings.get("password") and (viewer is None or viewer not in players):
        raise Refused("not_allowed", "this room was locked: its record is its players'")
    record = record_of_room(store, room_id)
    assert record is not None
    return record


@dataclass(frozen=True)
class FinishedGame:
    """One of a player's games that is over, as a list shows it."""

    room: str
    game: str
    finished: float  # Unix seconds
    outcome: str  # finished or abandoned


def own_games(store: Store, viewer: str | None) -> list[FinishedGame]:
    """`viewer`'s newest games that are over (at most `LISTED`), newest first."""
    if viewer is None:
        return []
    return [
        FinishedGame(g["room"], g["rows"][0][1], float(g["rows"][0][2]), g["rows"][0][5])
        for g in store.games_of(viewer, LISTED, viewer)
    ]


def identity_of_token(store: Store, token: str | None) -> str | None:
    """The identity id a token (a key's, a cookie's) stands for, if any."""
    found = store.find_identity(token) if token else None
    return found[0] if found else None
