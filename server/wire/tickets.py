"""Door tickets: how a game server trusts what a door machine says of a session's client.

A terminal session's client (server/doors/terminal/) connects to the game server as any
client does. On the game server's own machine it carries a fresh loopback secret that the
server maps to the player's address (`Server.forwarded`). A door on a machine of its own
(`modernart-server door`, server/doors/machine.py) cannot put anything in the server's
memory, so it signs instead: the ticket names the player's address and the session's key
(an SSH key's fingerprint, `web:<device>`, or none for a guest) and carries an HMAC of
both under the door secret, which the operator gives both sides (`--door-secret-file`).
Without the secret nobody can make a ticket: a forged or altered one is an ordinary
Authorization header, ignored (docs/decisions/30-doors.md).

The ticket travels as the URL's user information (`ws://door:TICKET@game:8765/`), which
the client sends as `Authorization: Basic …`; every part is base64url, safe in a URL.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import pathlib
from dataclasses import dataclass

USER = "door"
MIN_SECRET = 16  # characters: shorter secrets are refused at start
MAX_PART = 256  # an address or key longer than this is no ticket of ours


def read_secret(path: pathlib.Path) -> bytes:
    """The door secret in `path` (surrounding whitespace dropped); OSError with a reason
    the operator can act on if the file is missing or the secret too short."""
    try:
        secret = path.read_bytes().strip()
    except OSError as exc:
        raise OSError(f"cannot read the door secret {path}: {exc.strerror or exc}") from None
    if len(secret) < MIN_SECRET:
        raise OSError(
            f"the door secret in {path} is too short: use at least {MIN_SECRET} random "
            "characters (e.g. `openssl rand -hex 32`)"
        )
    return secret


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True)
class Ticket:
    address: str
    key: str | None  # None: a guest's session


class Tickets:
    """Makes and checks tickets under one door secret."""

    def __init__(self, secret: bytes) -> None:
        # A key of its own for tickets: the secret itself never goes into a MAC's input.
        self._key = hashlib.sha256(b"modernart door ticket\0" + secret).digest()

    def _mac(self, address: str, key: str | None) -> str:
        text = f"{address}\0{key or ''}".encode()
        return _b64(hmac.new(self._key, text, hashlib.sha256).digest())

    def userinfo(self, address: str, key: str | None) -> str:
        """The ticket as a URL's user information (`door:…`)."""
        parts = (_b64(address.encode()), _b64((key or "").encode()), self._mac(address, key))
        return f"{USER}:{'.'.join(parts)}"

    def header(self, address: str, key: str | None) -> str:
        """The Authorization header a client with `userinfo(address, key)` sends."""
        return "Basic " + base64.b64encode(self.userinfo(address, key).encode()).decode()

    def read(self, header: str | None) -> Ticket | None:
        """The ticket in an Authorization header, if it is one of this secret's."""
        if not header or not header.startswith("Basic ") or len(header) > 4 * MAX_PART:
            return None
        try:
            user, _, payload = base64.b64decode(header[6:], validate=True).decode().partition(":")
            address_b64, key_b64, mac = payload.split(".")
            address, key = _unb64(address_b64).decode(), _unb64(key_b64).decode() or None
        except (binascii.Error, UnicodeDecodeError, ValueError):
            return None
        if user != USER or not address or len(address) > MAX_PART:
            return None
        if not hmac.compare_digest(mac, self._mac(address, key)):
            return None
        return Ticket(address, key)
