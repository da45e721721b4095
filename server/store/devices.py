"""The store's table of devices (issue 33): every token that plays an identity.

An identity's first client, and every device that claimed one of its codes
(server/people/handoff.py), holds a token of its own, stored hashed like every token
(server/store/errors.py). A token finds its identity through its device's row only;
revoking a device deletes the row, so its token finds nothing from then on.
`Store` (server/store/sqlite.py) mixes this in.
"""

from __future__ import annotations

import secrets
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass

from modernart.server.store.dialect import Dialect
from modernart.server.store.errors import token_hash

DEVICE_SCHEMA = """
CREATE TABLE IF NOT EXISTS devices (
    id TEXT PRIMARY KEY,            -- public: listed to the identity's own clients
    identity TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    label TEXT NOT NULL,            -- where it last said hello from (server/people/devices.py)
    created REAL NOT NULL,
    seen REAL NOT NULL              -- its last hello
);
CREATE INDEX IF NOT EXISTS devices_identity ON devices (identity);
"""
FIRST_DEVICE = "first device"  # the label until the device's first hello says where it is


@dataclass
class Device:
    id: str
    identity: str
    label: str
    created: float
    seen: float


def new_device_id() -> str:
    return "d" + secrets.token_hex(6)


def device_insert(identity_id: str, token: str, label: str) -> tuple[str, tuple]:
    """The statement that gives the identity a device holding `token`."""
    now = time.time()
    return (
        "INSERT INTO devices (id, identity, token_hash, label, created, seen)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (new_device_id(), identity_id, token_hash(token), label, now, now),
    )


class DeviceTables:
    db: sqlite3.Connection
    dialect: Dialect  # the Store's
    _write: Callable[[str, str, tuple], None]  # the Store's
    _has_table: Callable[[str], bool]

    def open_devices(self) -> None:
        """The table; on a store from before devices, each identity's one token
        becomes its first device (an SSH key's labelled with the key)."""
        fresh = not self._has_table("devices")
        self.db.executescript(self.dialect.schema(DEVICE_SCHEMA))
        if not fresh:
            return
        keys = {token_hash(t): k for k, t in self.db.execute("SELECT key, token FROM key_tokens")}
        rows = [
            (new_device_id(), identity, digest, key_label(keys.get(digest)), created, created)
            for identity, digest, created in self.db.execute(
                "SELECT id, token_hash, created FROM identities"
            )
        ]
        self.db.execute("BEGIN")
        self.db.executemany(
            "INSERT INTO devices (id, identity, token_hash, label, created, seen)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            rows,
        )
        self.db.execute("COMMIT")

    def device_of(self, token: str) -> Device | None:
        """The device holding `token`, if any (none: unknown, or revoked)."""
        row = self.db.execute(
            "SELECT id, identity, label, created, seen FROM devices WHERE token_hash = ?",
            (token_hash(token),),
        ).fetchone()
        return Device(*row) if row else None

    def devices_of(self, identity_id: str) -> list[Device]:
        rows = self.db.execute(
            "SELECT id, identity, label, created, seen FROM devices WHERE identity = ?"
            " ORDER BY created, id",
            (identity_id,),
        ).fetchall()
        return [Device(*r) for r in rows]

    def add_device(self, identity_id: str, token: str, label: str) -> None:
        self._write("a new device", *device_insert(identity_id, token, label))

    def device_seen(self, device_id: str, label: str) -> None:
        self._write(
            "a device's hello",
            "UPDATE devices SET label = ?, seen = ? WHERE id = ?",
            (label, time.time(), device_id),
        )

    def remove_device(self, identity_id: str, device_id: str) -> str | None:
        """Revoke one of the identity's devices: the hash of its token (to find what it
        still has open), None if the identity has no such device."""
        row = self.db.execute(
            "SELECT token_hash FROM devices WHERE id = ? AND identity = ?",
            (device_id, identity_id),
        ).fetchone()
        if row is None:
            return None
        self._write("a revoked device", "DELETE FROM devices WHERE id = ?", (device_id,))
        return str(row[0])


SSH_GUEST = "SSH, no key"  # how the list of devices names a keyless SSH session


def key_label(key: str | None) -> str:
    """How the list of devices names a terminal session's key (server/doors/terminal/): an
    SSH key by the start of its fingerprint, a browser as such (None: no key known)."""
    if key is None:
        return FIRST_DEVICE
    if key.startswith("web:"):
        return "browser"
    return f"SSH key {key[:19]}…" if len(key) > 20 else f"SSH key {key}"
