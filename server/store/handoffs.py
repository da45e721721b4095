"""The store's table of hand-off codes (issue 30): a cluster's codes, good on any process.

One process alone keeps its codes in memory (server/people/handoff.py); the processes
of a cluster keep them here, in the store they share, so that a code asked for on one
process is claimed on whichever the other device reaches. A code is stored as the
SHA-256 of its normal form, like a token (server/store/errors.py), never as itself;
it expires at a wall-clock time (the processes share no other clock), and taking it
is one `DELETE … RETURNING`: of two processes claiming one code at once, the
database gives it to one. A new table, so a database from before it gets it at
start-up (CREATE TABLE IF NOT EXISTS, as every table of the store). `Store`
(server/store/sqlite.py) mixes this in.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable

from modernart.server.store.dialect import Dialect
from modernart.server.store.errors import StoreError

HANDOFF_SCHEMA = """
CREATE TABLE IF NOT EXISTS handoffs (
    code_hash TEXT PRIMARY KEY,     -- SHA-256 of the code's normal form, never the code
    identity TEXT NOT NULL,
    device TEXT,                    -- the device that asked for it (revoked: the code goes)
    expires REAL NOT NULL           -- wall-clock seconds (time.time())
);
CREATE INDEX IF NOT EXISTS handoffs_identity ON handoffs (identity);
"""


class HandoffTables:
    db: sqlite3.Connection  # or server/store/postgresql.py's connection, which answers the same
    dialect: Dialect  # the Store's
    errors: tuple[type[Exception], ...]  # the Store's: what its database raises
    _write: Callable[[str, str, tuple], None]  # the Store's
    _transaction: Callable[[str, Iterable[tuple[str, tuple]]], int]  # PlayerTables'
    settle: Callable[[], None]  # the Store's: commits an open batch first

    def put_handoff(
        self, digest: str, identity_id: str, device: str | None, expires: float, now: float
    ) -> bool:
        """The identity's code is now the one hashed `digest` (its earlier code, and every
        code expired by `now`, are gone): False if another identity's code has that hash
        (draw another code), StoreError if it could not be stored."""
        columns = ("code_hash", "identity", "device", "expires")
        added = self._transaction(
            "a hand-off code",
            [
                ("DELETE FROM handoffs WHERE identity = ? OR expires <= ?", (identity_id, now)),
                (
                    self.dialect.insert_new("handoffs", columns),
                    (digest, identity_id, device, expires),
                ),
            ],
        )
        return added == 1

    def take_handoff(self, digest: str, now: float) -> tuple[str, str | None, float] | None:
        """The code hashed `digest`, used up: (its identity, the device that asked for it,
        when it would have expired); None if there is no such code or it expired by `now`.
        Atomic: of two callers at once, one gets it."""
        self.settle()
        try:
            rows = self.db.execute(
                "DELETE FROM handoffs WHERE code_hash = ? AND expires > ?"
                " RETURNING identity, device, expires",
                (digest, now),
            ).fetchall()  # all: SQLite's statement (and its write) ends with its last row
        except self.errors as exc:
            raise StoreError(f"could not use a hand-off code: {exc}") from None
        return (rows[0][0], rows[0][1], float(rows[0][2])) if rows else None

    def cancel_handoff(self, identity_id: str, device: str) -> None:
        """The identity's code stops working if `device` asked for it (now revoked)."""
        self._write(
            "a revoked device's code",
            "DELETE FROM handoffs WHERE identity = ? AND device = ?",
            (identity_id, device),
        )
