"""The SQLite store in the data directory: identities, rooms and every applied action.

Writes are synchronous and small (WAL mode): an action is committed before the
update that reflects it is sent, so nothing a client has seen can be lost when
the process dies. `synchronous=NORMAL` survives a killed process; only a power
cut can lose the last transactions (see docs/operations.md).
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import sqlite3
import time
from dataclasses import dataclass
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS identities (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    status TEXT NOT NULL,           -- waiting | playing | finished | closed
    settings TEXT NOT NULL,         -- JSON: seats, variant, options, password
    members TEXT NOT NULL,          -- JSON: host seat and one entry per seat
    header TEXT,                    -- JSON record header once started (incl. deck)
    seq INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL,
    finished REAL
);
CREATE TABLE IF NOT EXISTS actions (
    room TEXT NOT NULL,
    idx INTEGER NOT NULL,
    action TEXT NOT NULL,
    seq INTEGER NOT NULL,           -- the room's update number that announced it
    PRIMARY KEY (room, idx)
) WITHOUT ROWID;
"""

DB_NAME = "modernart.sqlite3"


def token_hash(token: str) -> str:
    """Tokens are long random secrets, so a plain SHA-256 is enough to match them."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class StoredRoom:
    id: str
    name: str
    status: str
    settings: dict[str, Any]
    members: dict[str, Any]
    header: dict[str, Any] | None
    seq: int
    actions: list[dict[str, Any]]


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class Store:
    def __init__(self, data_dir: pathlib.Path) -> None:
        data_dir.mkdir(parents=True, exist_ok=True)
        self.path = data_dir / DB_NAME
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    # ------------------------------------------------------------ identities

    def add_identity(self, identity_id: str, name: str, token: str) -> None:
        self.db.execute(
            "INSERT INTO identities (id, name, token_hash, created) VALUES (?, ?, ?, ?)",
            (identity_id, name, token_hash(token), time.time()),
        )

    def find_identity(self, token: str) -> tuple[str, str] | None:
        """(id, name) of the identity holding `token`, if any."""
        row = self.db.execute(
            "SELECT id, name FROM identities WHERE token_hash = ?", (token_hash(token),)
        ).fetchone()
        return (row[0], row[1]) if row else None

    def identity_name(self, identity_id: str) -> str | None:
        row = self.db.execute("SELECT name FROM identities WHERE id = ?", (identity_id,)).fetchone()
        return row[0] if row else None

    def rename_identity(self, identity_id: str, name: str) -> None:
        self.db.execute("UPDATE identities SET name = ? WHERE id = ?", (name, identity_id))

    # ----------------------------------------------------------------- rooms

    def room_exists(self, room_id: str) -> bool:
        row = self.db.execute("SELECT 1 FROM rooms WHERE id = ?", (room_id,)).fetchone()
        return row is not None

    def add_room(self, room_id: str, name: str, settings: dict[str, Any], members: dict) -> None:
        self.db.execute(
            "INSERT INTO rooms (id, name, status, settings, members, created)"
            " VALUES (?, ?, 'waiting', ?, ?, ?)",
            (room_id, name, _dumps(settings), _dumps(members), time.time()),
        )

    def save_members(self, room_id: str, members: dict[str, Any]) -> None:
        self.db.execute("UPDATE rooms SET members = ? WHERE id = ?", (_dumps(members), room_id))

    def start_room(self, room_id: str, members: dict, header: dict, seq: int) -> None:
        self.db.execute(
            "UPDATE rooms SET status = 'playing', members = ?, header = ?, seq = ? WHERE id = ?",
            (_dumps(members), _dumps(header), seq, room_id),
        )

    def append_action(self, room_id: str, idx: int, action: dict[str, Any], seq: int) -> None:
        """One applied action with the update number that announces it: one statement,
        committed at once (autocommit), before that update is sent."""
        self.db.execute(
            "INSERT INTO actions (room, idx, action, seq) VALUES (?, ?, ?, ?)",
            (room_id, idx, _dumps(action), seq),
        )

    def save_seq(self, room_id: str, seq: int) -> None:
        """An update that is no action (presence, `going`) still moves the counter on."""
        self.db.execute("UPDATE rooms SET seq = ? WHERE id = ?", (seq, room_id))

    def set_status(self, room_id: str, status: str) -> None:
        finished = time.time() if status == "finished" else None
        self.db.execute(
            "UPDATE rooms SET status = ?, finished = ? WHERE id = ?", (status, finished, room_id)
        )

    def delete_room(self, room_id: str) -> None:
        """A waiting room that emptied: it never had a game, nothing to keep."""
        self.db.execute("DELETE FROM rooms WHERE id = ? AND status = 'waiting'", (room_id,))

    def _load(self, row: tuple) -> StoredRoom:
        room_id = row[0]
        rows = self.db.execute(
            "SELECT action, seq FROM actions WHERE room = ? ORDER BY idx", (room_id,)
        ).fetchall()
        return StoredRoom(
            id=room_id,
            name=row[1],
            status=row[2],
            settings=json.loads(row[3]),
            members=json.loads(row[4]),
            header=json.loads(row[5]) if row[5] else None,
            seq=max([row[6], *(seq for _, seq in rows)]),
            actions=[json.loads(a) for a, _ in rows],
        )

    _COLUMNS = "id, name, status, settings, members, header, seq"

    def unfinished_rooms(self) -> list[StoredRoom]:
        rows = self.db.execute(
            f"SELECT {self._COLUMNS} FROM rooms WHERE status IN ('waiting', 'playing')"
            " ORDER BY created"
        ).fetchall()
        return [self._load(r) for r in rows]

    def room(self, room_id: str) -> StoredRoom | None:
        row = self.db.execute(
            f"SELECT {self._COLUMNS} FROM rooms WHERE id = ?", (room_id,)
        ).fetchone()
        return self._load(row) if row else None

    def finished_room_ids(self) -> list[str]:
        rows = self.db.execute(
            "SELECT id FROM rooms WHERE status = 'finished' ORDER BY finished"
        ).fetchall()
        return [r[0] for r in rows]

    def backup(self, target: pathlib.Path) -> None:
        """An online copy of the database (sqlite3's backup API), safe while serving."""
        dest = sqlite3.connect(target)
        try:
            self.db.backup(dest)
        finally:
            dest.close()
