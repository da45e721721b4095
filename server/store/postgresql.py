"""The store on PostgreSQL (`modernart-server --store postgresql://…`, issue 30).

The same tables, statements and contract as the SQLite store (server/store/sqlite.py):
one synchronous connection in autocommit mode, so that `BEGIN`/`COMMIT` are the
store's own as with SQLite's `isolation_level=None`; a turn's actions are one
transaction committed before the turn's frames are written (server/wire/outbox.py).
Why synchronous on the event loop: docs/decisions/30-store.md.

A failed statement aborts a PostgreSQL transaction (SQLite may keep the rest of
it): the connection rolls it back at once, so the store sees what it sees when
SQLite rolls a batch back (`in_transaction` false) and loses that batch's rooms.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import shutil
import subprocess
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

import psycopg
from psycopg import pq
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from modernart.server.store.dialect import POSTGRESQL
from modernart.server.store.errors import StoreError
from modernart.server.store.sqlite import Store
from modernart.server.wire.outbox import Lost

# A room's stored actions and last update number (as `Store._load` counts them).
HELD = (
    "SELECT (SELECT COUNT(*) FROM actions WHERE room = ?),"
    " GREATEST(seq, (SELECT MAX(seq) FROM actions WHERE room = ?)) FROM rooms WHERE id = ?"
)
# `Store.unfinished_room_ids`' rows (PostgreSQL only: the cluster's store).
UNFINISHED_INDEX = (
    "CREATE INDEX IF NOT EXISTS rooms_unfinished ON rooms (created)"
    " WHERE status IN ('waiting', 'playing')"
)
_OPEN = (pq.TransactionStatus.INTRANS, pq.TransactionStatus.INERROR, pq.TransactionStatus.ACTIVE)


@lru_cache(maxsize=512)
def _placeholders(sql: str) -> str:
    """SQLite's `?` as psycopg's `%s` (and a literal `%`, as in LIKE 'bot:%', doubled)."""
    return sql.replace("%", "%%").replace("?", "%s")


def one_line(exc: Exception) -> str:
    """libpq's message, its hint lines joined: the operator's error is one line."""
    return " ".join(str(exc).split())


class PgConnection:
    """A psycopg connection answering the few calls of sqlite3's the store makes.

    A connection the server dropped (PostgreSQL restarted, a network cut) fails the
    statement that finds it gone (its transaction is lost: `in_transaction` false);
    the next statement connects again."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._conn = psycopg.connect(url, autocommit=True)

    def _live(self) -> psycopg.Connection:
        if self._conn.closed:
            self._conn = psycopg.connect(self._url, autocommit=True)
        return self._conn

    @property
    def in_transaction(self) -> bool:
        return self._conn.info.transaction_status in _OPEN

    def execute(self, sql: str, params: Sequence[Any] = ()) -> psycopg.Cursor:
        try:
            conn = self._live()
            if params:
                return conn.execute(_placeholders(sql), params)  # type: ignore[arg-type]
            return conn.execute(sql)  # type: ignore[arg-type]
        except psycopg.Error:
            self._abandon()
            raise

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            with self._live().cursor() as cur:
                cur.executemany(_placeholders(sql), rows)  # type: ignore[arg-type]
        except psycopg.Error:
            self._abandon()
            raise

    def executescript(self, script: str) -> None:
        """Several statements without parameters (the schema)."""
        self.execute(script)

    def _abandon(self) -> None:
        """Roll back a transaction the failed statement aborted (nothing else works in it)."""
        if self._conn.info.transaction_status == pq.TransactionStatus.INERROR:
            with contextlib.suppress(psycopg.Error):  # gone: nothing is open on it any more
                self._conn.execute("ROLLBACK")

    def close(self) -> None:
        self._conn.close()


class PgStore(Store):
    """`Store` on PostgreSQL: `url` is a libpq connection URL (docs/operations.md)."""

    dialect = POSTGRESQL
    errors = (psycopg.Error,)

    def __init__(self, url: str) -> None:
        self.url = url
        self._begin_batches()
        try:
            self.db = PgConnection(url)  # type: ignore[assignment]
        except psycopg.Error as exc:
            raise StoreError(f"cannot use the PostgreSQL store: {one_line(exc)}") from None
        try:
            self._open_tables()
        except psycopg.Error as exc:
            self.db.close()
            raise StoreError(f"cannot use the PostgreSQL store: {one_line(exc)}") from None

    def _open_tables(self) -> None:
        super()._open_tables()
        # The cluster's processes each look for unfinished rooms nobody holds every few
        # seconds (server/cluster/orphans.py): those rows alone, not every finished room.
        self.db.execute(UNFINISHED_INDEX)

    def commit_batch(self) -> tuple[Lost, int]:
        """As SQLite's, but a failed COMMIT may have been applied all the same (the
        connection dropped before its answer came): the rooms named lost go back to
        what the database holds, read again (what they held before, if it cannot be
        read), not to what they held before the batch."""
        lost, rows = super().commit_batch()
        for room_id in lost:
            with contextlib.suppress(psycopg.Error):
                held = self.db.execute(HELD, (room_id, room_id, room_id)).fetchone()
                if held is not None:
                    lost[room_id] = (int(held[0]), int(held[1]))
        return lost, rows

    def start_checkpoints(self) -> None:
        """Nothing to do: PostgreSQL checkpoints in its own processes."""

    def close(self) -> None:
        self.settle()
        self.db.close()

    def backup(self, target: pathlib.Path) -> None:
        """A consistent copy of the database while serving: `pg_dump`'s custom format,
        which `pg_restore` reads (docs/operations.md)."""
        self.settle()
        pg_dump = shutil.which("pg_dump")
        if pg_dump is None:
            raise StoreError("cannot back up: pg_dump is not installed (postgresql-client)")
        # The password, if the URL holds one, goes by the environment: not in `ps`.
        params = conninfo_to_dict(self.url)
        password = params.pop("password", None)
        env = dict(os.environ, **({"PGPASSWORD": str(password)} if password else {}))
        conninfo = make_conninfo(**params)  # type: ignore[arg-type]
        done = subprocess.run(
            [pg_dump, "--format=custom", "--no-owner", "--file", str(target), "-d", conninfo],
            capture_output=True,
            text=True,
            env=env,
        )
        if done.returncode != 0:
            raise StoreError(f"pg_dump failed: {done.stderr.strip()}")
