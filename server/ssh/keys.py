"""The SSH server's keys: its host key, and the table from a player's key to an identity.

Both live in the data directory, written privately (0600): the host key so that
players' `known_hosts` stays valid across restarts, the table because it holds
identity tokens (secrets, like the store's).
"""

from __future__ import annotations

import json
import logging
import os
import pathlib

import asyncssh

log = logging.getLogger("modernart.server.ssh")

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
    """{public key fingerprint (SHA256): identity token}, a JSON file in the data directory."""

    def __init__(self, data_dir: pathlib.Path) -> None:
        self.path = data_dir / IDENTITIES_FILE
        self._tokens: dict[str, str] = {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        if isinstance(data, dict):
            self._tokens = {k: v for k, v in data.items() if isinstance(v, str)}

    def get(self, fingerprint: str) -> str | None:
        return self._tokens.get(fingerprint)

    def put(self, fingerprint: str, token: str) -> None:
        self._tokens[fingerprint] = token
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_private(self.path, json.dumps(self._tokens, indent=0).encode())
