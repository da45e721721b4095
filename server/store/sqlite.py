"""The SQLite store in the data directory: identities, rooms and every applied action.

Writes are synchronous and small (WAL mode): an action is committed before the
update that reflects it is sent, so nothing a client has seen can be lost when
the process dies. The actions and update numbers of one turn of the event loop
are one transaction (`batched`), committed at the turn's end before any frame of
the turn is written (server/wire/outbox.py); every other write commits that batch
first (`settle`), so it stays a transaction of its own. `synchronous=NORMAL`
survives a killed process; only a power cut can lose the last transactions (see docs/operations.md).

A write the database refuses (a full disk, a read-only file) raises `StoreError`
and stores nothing; callers change their memory only after a write succeeded
(or undo it), so memory and disk always agree.

`PgStore` (server/store/postgresql.py) is this store on PostgreSQL (`--store postgresql://…`,
issue 30): the same tables and statements, what differs said by `dialect`.
"""

from __future__ import annotations

import json
import logging
import pathlib
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from modernart.server.store.devices import DeviceTables
from modernart.server.store.dialect import SQLITE, Dialect
from modernart.server.store.errors import StoreError
from modernart.server.store.handoffs import HANDOFF_SCHEMA, HandoffTables
from modernart.server.store.identities import IDENTITY_SCHEMA, IdentityTables
from modernart.server.store.players import PlayerTables
from modernart.server.store.reviews import REVIEW_SCHEMA, ReviewTables
from modernart.server.wire.outbox import Lost

ROOM_SCHEMA = """
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
CHECKPOINT_EVERY = 1.0  # seconds between WAL checkpoints (start_checkpoints)

log = logging.getLogger("modernart.server")


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


# One encoder: `json.dumps` with `separators` builds a new one per call (issue 21).
_JSON = json.JSONEncoder(separators=(",", ":"))


def _c_encoder() -> Callable[[Any, int], Any] | None:
    """json's C encoder, built once: `JSONEncoder.encode` builds a new one for every
    value, which cost 2.6 times the encoding of an action itself (issue 21, fourth
    session). No circular-reference check (stored values are plain data). None where
    json has no C accelerator or its signature differs: `_JSON.encode` then."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return None
    try:
        return make(
            None,
            _JSON.default,
            json.encoder.encode_basestring_ascii,
            None,
            ":",
            ",",
            False,
            False,
            True,
        )
    except TypeError:
        return None


_C_JSON = _c_encoder()


def _dumps(value: Any) -> str:
    """`json.dumps(value, separators=(",", ":"))` (tests/server/test_fast_paths.py)."""
    if _C_JSON is None:
        return _JSON.encode(value)
    return "".join(_C_JSON(value, 0))


class Store(IdentityTables, PlayerTables, DeviceTables, ReviewTables, HandoffTables):
    dialect: Dialect = SQLITE
    errors: tuple[type[Exception], ...] = (sqlite3.Error,)  # what the database raises

    def __init__(self, data_dir: pathlib.Path) -> None:
        self.path = data_dir / DB_NAME
        self._checkpointer: threading.Thread | None = None
        self._stopping = threading.Event()
        self._begin_batches()
        try:
            data_dir.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self._open_tables()
            self.path.chmod(0o600)  # it holds the SSH keys' tokens (WAL files follow its mode)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot use the data directory {data_dir}: {exc}") from None

    def _begin_batches(self) -> None:
        # Group commit (`batched`): set by the hub to have the turn's end scheduled; None:
        # every action commits at once (a store used without an event loop's outbox).
        self.batch_opened: Callable[[], None] | None = None
        # The open batch's rooms: (actions, seq) they had stored before it (None: no
        # action in it yet), and rooms whose batched changes a failed commit lost.
        self._batch: Lost = {}
        self._batch_rows = 0
        self._lost: Lost = {}

    def _open_tables(self) -> None:
        """Create the tables a new database lacks; migrate those of an older one."""
        schema = IDENTITY_SCHEMA + ROOM_SCHEMA + REVIEW_SCHEMA + HANDOFF_SCHEMA
        self.db.executescript(self.dialect.schema(schema))
        # Names never keyed, or keyed by older rules (issues 18, 33): `Hub.load` keys them.
        self.names_fresh = self.open_player_tables()
        self.open_devices()  # the tokens that play each identity (issue 33)
        self.migrate_identities()

    def _has_table(self, name: str) -> bool:
        return self.db.execute(self.dialect.table_exists, (name,)).fetchone() is not None

    def _columns(self, table: str) -> set[str]:
        return {row[0] for row in self.db.execute(self.dialect.columns, (table,))}

    def start_checkpoints(self) -> None:
        """Checkpoint the WAL from a thread of its own, once a second, instead of in
        the commit that crosses SQLite's 1,000 pages (issue 21): a checkpoint copies
        pages and syncs the files twice, and inside a commit it did so in the event
        loop, holding up every game. Commits stay as durable (`synchronous=NORMAL`);
        the thread's own connection works while the GIL is released."""
        if self._checkpointer is not None:
            return
        self.db.execute("PRAGMA wal_autocheckpoint=0")
        self._checkpointer = threading.Thread(
            target=self._checkpoints, name="wal-checkpoints", daemon=True
        )
        self._checkpointer.start()

    def _checkpoints(self) -> None:
        try:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            log.error("the WAL checkpointer could not open the database: %s", exc)
            return
        try:
            while not self._stopping.wait(CHECKPOINT_EVERY):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error as exc:  # busy or failing: the next one tries again
                    log.debug("WAL checkpoint: %s", exc)
        finally:
            db.close()

    def close(self) -> None:
        self.settle()
        if self._checkpointer is not None:
            self._stopping.set()
            self._checkpointer.join()
            self._checkpointer = None
        self.db.close()  # the last connection to close checkpoints what is left

    def _write(self, what: str, sql: str, params: tuple) -> None:
        """One autocommitted statement; StoreError (nothing stored) if it fails."""
        self.settle()
        try:
            self.db.execute(sql, params)
        except self.errors as exc:
            raise StoreError(f"could not save {what}: {exc}") from None

    # ---------------------------------------------------------- group commit

    def batched(
        self, room_id: str, what: str, sql: str, params: tuple, actions: int | None, seq: int
    ) -> None:
        """A room's action or update number, in the turn's transaction (begun by the
        first): stored when the turn ends (`commit_batch`), before its frames are sent.
        `actions`, `seq`: what the room had stored before this write. StoreError if the
        statement fails (the rest of the batch stands), or if a failed commit already
        lost this room's earlier changes in this turn (a gap must never be stored)."""
        if self.batch_opened is None:
            self._write(what, sql, params)
            return
        if room_id in self._lost:
            raise StoreError(f"could not save {what}: the room's last changes were not saved")
        db = self.db
        try:
            if not db.in_transaction:
                db.execute("BEGIN")
                self.batch_opened()
            db.execute(sql, params)
        except self.errors as exc:
            if self._batch and not db.in_transaction:  # the database rolled the batch back
                self._lose(self._batch)
            raise StoreError(f"could not save {what}: {exc}") from None
        before = self._batch.get(room_id)
        if before is None:
            self._batch[room_id] = (actions, seq)
        elif before[0] is None and actions is not None:
            self._batch[room_id] = (actions, before[1])
        self._batch_rows += 1

    def commit_batch(self) -> tuple[Lost, int]:
        """Commit the turn's transaction: (the rooms whose batched changes are lost,
        with what the store holds of them; rows committed). Never raises."""
        rows = self._batch_rows
        self.settle()
        lost, self._lost = self._lost, {}
        return lost, (0 if lost else rows)

    def settle(self) -> None:
        """Commit the open batch now (before another write, or a finished game's end);
        a failure is logged and its rooms are lost (`commit_batch` names them)."""
        db = self.db
        batch, self._batch = self._batch, {}
        self._batch_rows = 0
        try:
            in_transaction = db.in_transaction
        except self.errors:  # closed (the server stopping): nothing can be committed
            in_transaction = False
        if not in_transaction:
            if batch:  # rolled back by SQLite after a failing statement
                self._lose(batch)
            return
        try:
            db.execute("COMMIT")
        except self.errors as exc:
            log.error("could not save the last changes of %d rooms: %s", len(batch), exc)
            if db.in_transaction:
                try:
                    db.execute("ROLLBACK")
                except self.errors as again:
                    log.error("could not roll them back either: %s", again)
            self._lose(batch)

    def _lose(self, batch: Lost) -> None:
        for room_id, before in batch.items():
            self._lost.setdefault(room_id, before)
        batch.clear()

    def saved(self, room_id: str) -> None:
        """Commit now, for a change that must be on disk before what follows (a game's
        last action, before its end is stored): StoreError if the room's batch is lost."""
        self.settle()
        if room_id in self._lost:
            raise StoreError(f"could not save room {room_id}'s last action")

    # ----------------------------------------------------------------- rooms

    def room_exists(self, room_id: str) -> bool:
        row = self.db.execute("SELECT 1 FROM rooms WHERE id = ?", (room_id,)).fetchone()
        return row is not None

    def add_room(self, room_id: str, name: str, settings: dict[str, Any], members: dict) -> None:
        self._write(
            "a new room",
            "INSERT INTO rooms (id, name, status, settings, members, created)"
            " VALUES (?, ?, 'waiting', ?, ?, ?)",
            (room_id, name, _dumps(settings), _dumps(members), time.time()),
        )

    def save_members(self, room_id: str, members: dict[str, Any]) -> None:
        self._write(
            f"room {room_id}'s seats",
            "UPDATE rooms SET members = ? WHERE id = ?",
            (_dumps(members), room_id),
        )

    def start_room(self, room_id: str, members: dict, header: dict, seq: int) -> None:
        """The game starts: one transaction, which also drops any action stored under
        the room before (a database written by a server that started games it could
        not store)."""
        self._transaction(
            f"room {room_id}'s start",
            [
                ("DELETE FROM actions WHERE room = ?", (room_id,)),
                (
                    "UPDATE rooms SET status = 'playing', members = ?, header = ?, seq = ?"
                    " WHERE id = ?",
                    (_dumps(members), _dumps(header), seq, room_id),
                ),
            ],
        )

    def append_action(self, room_id: str, idx: int, action: dict[str, Any], seq: int) -> None:
        """One applied action with the update number that announces it, committed with
        the turn (`batched`), before that update is sent."""
        self.batched(
            room_id,
            f"an action of room {room_id}",
            "INSERT INTO actions (room, idx, action, seq) VALUES (?, ?, ?, ?)",
            (room_id, idx, _dumps(action), seq),
            idx,
            seq - 1,
        )

    def save_seq(self, room_id: str, seq: int) -> None:
        """An update that is no action (presence, `going`) still moves the counter on."""
        self.batched(
            room_id,
            f"room {room_id}'s update counter",
            "UPDATE rooms SET seq = ? WHERE id = ?",
            (seq, room_id),
            None,
            seq - 1,
        )

    def set_status(self, room_id: str, status: str) -> None:
        finished = time.time() if status == "finished" else None
        self._write(
            f"room {room_id}'s status",
            "UPDATE rooms SET status = ?, finished = ? WHERE id = ?",
            (status, finished, room_id),
        )

    def delete_room(self, room_id: str) -> None:
        """A waiting room that emptied: it never had a game, nothing to keep."""
        self._write(
            f"room {room_id}'s removal",
            "DELETE FROM rooms WHERE id = ? AND status = 'waiting'",
            (room_id,),
        )

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

    def unfinished_room_ids(self, created_before: float) -> list[str]:
        """The unfinished rooms made before then, oldest first: their ids alone (no
        actions read), for a cluster's scan for rooms nobody holds (server/cluster/)."""
        rows = self.db.execute(
            "SELECT id FROM rooms WHERE status IN ('waiting', 'playing') AND created < ?"
            " ORDER BY created",
            (created_before,),
        ).fetchall()
        return [r[0] for r in rows]

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
        self.settle()
        dest = sqlite3.connect(target)
        try:
            self.db.backup(dest)
        finally:
            dest.close()
