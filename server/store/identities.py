"""The store's identities (server/store/sqlite.py mixes this in): an identity per token,
found through its devices' tokens (server/store/devices.py), the SSH keys' tokens,
names, and the expiry of identities that never played.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterable

from modernart.server.store.devices import FIRST_DEVICE, device_insert
from modernart.server.store.dialect import Dialect
from modernart.server.store.errors import StoreError, token_hash

IDENTITY_SCHEMA = """
CREATE TABLE IF NOT EXISTS identities (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created REAL NOT NULL,
    seated INTEGER NOT NULL DEFAULT 1   -- 0: never took a seat (expires, see Limits)
);
CREATE TABLE IF NOT EXISTS key_tokens (
    key TEXT PRIMARY KEY,           -- an SSH key's fingerprint (SHA256:…)
    token TEXT NOT NULL,            -- its identity's token (a secret: the file is 0600)
    created REAL NOT NULL
) WITHOUT ROWID;
"""


def identity_inserts(identity_id: str, name: str, token: str) -> list[tuple[str, tuple]]:
    """The statements that store a new identity, never seated, and its first device."""
    return [
        (
            "INSERT INTO identities (id, name, token_hash, created, seated) VALUES (?, ?, ?, ?, 0)",
            (identity_id, name, token_hash(token), time.time()),
        ),
        device_insert(identity_id, token, FIRST_DEVICE),
    ]


class IdentityTables:
    db: sqlite3.Connection  # or server/store/postgresql.py's connection, which answers the same
    dialect: Dialect  # the Store's
    errors: tuple[type[Exception], ...]  # the Store's: what its database raises
    _columns: Callable[[str], set[str]]  # the Store's
    _write: Callable[[str, str, tuple], None]  # the Store's
    _transaction: Callable[[str, Iterable[tuple[str, tuple]]], int]  # PlayerTables'
    settle: Callable[[], None]  # the Store's: commits an open batch first

    def migrate_identities(self) -> None:
        """A database from before identities expired gets their `seated` column."""
        if "seated" not in self._columns("identities"):
            self.db.execute("ALTER TABLE identities ADD COLUMN seated INTEGER NOT NULL DEFAULT 1")
        # Identities that may expire, oldest first: an expiry batch reads its rows.
        self.db.execute(
            "CREATE INDEX IF NOT EXISTS identities_unseated"
            " ON identities (created) WHERE seated = 0"
        )

    def key_token(self, key: str) -> str | None:
        """The token of the identity a key (an SSH key's fingerprint) signs in as.

        A key whose identity is gone (expired) is forgotten: it gets a new one."""
        row = self.db.execute("SELECT token FROM key_tokens WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        if self.find_identity(row[0]) is None:
            self._write("a key", "DELETE FROM key_tokens WHERE key = ?", (key,))
            return None
        return str(row[0])

    def put_key_token(self, key: str, token: str) -> None:
        self._write(
            "a key's identity",
            self.dialect.upsert("key_tokens", ("key", "token", "created"), ("key",)),
            (key, token, time.time()),
        )

    def import_key_tokens(self, tokens: dict[str, str]) -> None:
        """Keys kept elsewhere before (`ssh_identities.json`), in one transaction."""
        now = time.time()
        insert = self.dialect.insert_new("key_tokens", ("key", "token", "created"))
        self._transaction(
            "the keys' identities", [(insert, (k, t, now)) for k, t in tokens.items()]
        )

    def add_identity(self, identity_id: str, name: str, token: str) -> None:
        self._transaction("a new identity", identity_inserts(identity_id, name, token))

    def find_identity(self, token: str) -> tuple[str, str, bool] | None:
        """(id, name, ever seated) of the identity one of whose devices holds `token`
        (`identities.token_hash` is the token it was created with: not looked at)."""
        row = self.db.execute(
            "SELECT i.id, i.name, i.seated FROM devices d JOIN identities i ON i.id = d.identity"
            " WHERE d.token_hash = ?",
            (token_hash(token),),
        ).fetchone()
        return (row[0], row[1], bool(row[2])) if row else None

    def mark_seated(self, identity_id: str) -> None:
        """The identity took a seat: it is kept for good."""
        self._write(
            "a seated identity", "UPDATE identities SET seated = 1 WHERE id = ?", (identity_id,)
        )

    def expire_identities(self, created_before: float, keep: set[str], batch: int) -> int:
        """Forget at most `batch` identities never seated and created before then (but
        those in `keep`, e.g. connected now), oldest first; how many went. The partial
        index makes a batch cost its own rows, however many identities are stored."""
        rows = self.db.execute(
            "SELECT id FROM identities WHERE seated = 0 AND created < ? ORDER BY created LIMIT ?",
            (created_before, batch + len(keep)),
        ).fetchall()
        gone = [(r[0],) for r in rows if r[0] not in keep][:batch]
        self.settle()
        try:
            self.db.executemany("DELETE FROM identities WHERE id = ?", gone)
            self.db.executemany("DELETE FROM devices WHERE identity = ?", gone)
            self.db.executemany("DELETE FROM name_keys WHERE identity = ?", gone)  # freed
        except self.errors as exc:
            raise StoreError(f"could not forget old identities: {exc}") from None
        return len(gone)

    def identity_name(self, identity_id: str) -> str | None:
        row = self.db.execute("SELECT name FROM identities WHERE id = ?", (identity_id,)).fetchone()
        return row[0] if row else None

    def rename_identity(self, identity_id: str, name: str) -> None:
        self._write(
            "a new name", "UPDATE identities SET name = ? WHERE id = ?", (name, identity_id)
        )
