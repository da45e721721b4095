"""The doors open on a hub (SSH and the browser: server/doors/terminal/terminals.py's
`Terminals`), told what happens to the identities their sessions play.

A door registers once (`Doors.add`) instead of reaching into the hub's lists.
"""

from __future__ import annotations

import pathlib
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from modernart.server.readiness import Readiness
    from modernart.server.store.port import StorePort
    from modernart.server.wire.session import Conn, Identity


class People(Protocol):
    def identity_for_token(self, token: str) -> Identity | None: ...


class DoorsHub(Protocol):
    """What the doors use of the hub of their own process (server/hub.py's `Hub`)."""

    doors: Doors
    people: People


class GameServer(Protocol):
    """What the doors need of the game server: this process's `Server` (server/wire/app.py),
    or, on a door machine, `DoorMachine` (server/doors/machine.py), whose `hub` is None."""

    data_dir: pathlib.Path
    trust_proxy: bool
    max_per_address: int
    readiness: Readiness

    @property
    def hub(self) -> DoorsHub | None: ...

    @property
    def store(self) -> StorePort | None: ...

    def connections_from(self, address: str) -> int:
        """The game server's connections counted for `address` (that it knows of)."""

    def client_url(self, userinfo: str | None = None) -> str:
        """The URL a session's client reaches the game server at."""

    def forward(self, address: str, key: str | None = None) -> tuple[str, str]:
        """A URL for a client playing for `address` with `key`, and its Authorization
        header: the game server counts that connection for `address`."""

    def unforward(self, header: str) -> None:
        """The connection of `header` is over."""

    async def claim_code(self, code: str, address: str, label: str) -> tuple[str, str] | None:
        """Redeem a hand-off code for a new device: (its token, the identity's name), or
        None for a wrong code; `Refused` (server/wire/refusal.py) when not tried."""


class Door(Protocol):
    def welcomed(self, conn: Conn, token: str) -> None:
        """`conn` was welcomed as the identity `token` plays."""

    def claimed(self, conn: Conn, token: str) -> None:
        """`conn` claimed another identity with a code; `token` is its new device's."""

    def device_label(self, conn: Conn) -> str | None:
        """How the list of devices names `conn`'s (None: not one of this door's)."""

    def revoked(self, digest: str, by: str) -> None:
        """The device whose token hashes to `digest` was revoked from device `by`."""


class Doors:
    def __init__(self) -> None:
        self._open: list[Door] = []

    def add(self, door: Door) -> None:
        self._open.append(door)

    def remove(self, door: Door) -> None:
        if door in self._open:
            self._open.remove(door)

    def welcomed(self, conn: Conn, token: str) -> None:
        for door in self._open:
            door.welcomed(conn, token)

    def claimed(self, conn: Conn, token: str) -> None:
        for door in self._open:
            door.claimed(conn, token)

    def label(self, conn: Conn) -> str | None:
        """The label of the first door `conn` came through (None: none of them)."""
        for door in self._open:
            if (label := door.device_label(conn)) is not None:
                return label
        return None

    def revoked(self, digest: str, by: str) -> None:
        for door in list(self._open):
            door.revoked(digest, by)
