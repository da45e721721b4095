"""The doors open on a hub (SSH and the browser: server/doors/terminal/terminals.py's
`Terminals`), told what happens to the identities their sessions play.

A door registers once (`Doors.add`) instead of reaching into the hub's lists.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from modernart.server.wire.session import Conn


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
