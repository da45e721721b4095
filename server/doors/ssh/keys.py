"""The SSH server's keys: its host key, and the table from a player's key to an identity.

The host key lives in the data directory, written privately (0600), so that
players' `known_hosts` stays valid across restarts; the table is the store's
(`key_tokens`), since it holds identity tokens (secrets: the database is 0600).
"""

from __future__ import annotations

import json
import logging
import os
import pathlib

import asyncssh

from modernart.server.store.sqlite import Store

log = logging.getLogger("modernart.server.doors.ssh")

HOST_KEY_FILE = "ssh_host_ed25519_key"
IDENTITIES_FILE = "ssh_identities.json"


def write_private(path: pathlib.Path, data: bytes) -> None:
    """Write `data` to `path` atomically, readable by its owner only."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def load_host_key(data_dir: pathlib.Path) -> asyncssh.SSHKey:
    """The server's host key: generated on first start, then reused."""
    path = data_dir / HOST_KEY_FILE
    if path.exists():
        return asyncssh.read_private_key(path)
    key = asyncssh.generate_private_key("ssh-ed25519", comment="modernart-server")
    data_dir.mkdir(parents=True, exist_ok=True)
    write_private(path, key.export_private_key())
    log.info("generated the SSH host key %s", path)
    return key


class KeyIdentities:
    """{public key fingerprint (SHA256): identity token}, in the store (`key_tokens`).

    Servers before issue 21 kept it in `ssh_identities.json`, rewritten whole for
    every new key: that file is imported once, then removed.
    """

    def __init__(self, store: Store, data_dir: pathlib.Path) -> None:
        self.store = store
        self.migrate(data_dir / IDENTITIES_FILE)

    def migrate(self, path: pathlib.Path) -> None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, ValueError) as exc:
            log.warning("cannot read %s (%s): its keys get new identities", path, exc)
            return
        tokens = (
            {k: v for k, v in data.items() if isinstance(v, str)} if isinstance(data, dict) else {}
        )
        self.store.import_key_tokens(tokens)
        path.unlink()
        log.info("moved %d keys' identities from %s into the store", len(tokens), path.name)

    def get(self, fingerprint: str) -> str | None:
        return self.store.key_token(fingerprint)

    def put(self, fingerprint: str, token: str) -> None:
        self.store.put_key_token(fingerprint, token)
