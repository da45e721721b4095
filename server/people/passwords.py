"""A locked room's password: stored salted and hashed, and wrong tries limited per
address and per room (item 7 of issue 7), so that guessing a short PIN takes days.
In a cluster every process's tries count on every other, a beat late
(server/cluster/rates.py)."""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING

from modernart.server.limits import PASSWORD_TRIES, Buckets
from modernart.server.wire.messages import Join, Watch
from modernart.server.wire.refusal import Refused

if TYPE_CHECKING:
    from modernart.server.rooms.room import Room
    from modernart.server.wire.session import Conn

log = logging.getLogger("modernart.server")


def hash_password(password: str, salt: str) -> str:
    return hashlib.sha256((salt + password).encode()).hexdigest()


def lock(password: str | None) -> dict[str, str] | None:
    """What a room stores of its password (None: no password)."""
    if not password:
        return None
    salt = secrets.token_hex(8)
    return {"salt": salt, "hash": hash_password(password, salt)}


class Passwords:
    def __init__(self, tries_per_minute: float, note: Callable[[str], None]) -> None:
        """`note`: the hub's count of abuses (a wrong password is one)."""
        self.tries = Buckets(PASSWORD_TRIES, tries_per_minute / 60 or float("inf"))
        self.note = note

    def check(self, conn: Conn, room: Room, msg: Join | Watch) -> None:
        """The message's `password` opens `room` (any does, if it has none). Wrong tries
        count as abuse."""
        password = msg.password
        if room.password is None:
            return
        keys = (conn.address, room.id)
        if not all(self.tries[key].ready() for key in keys):
            raise Refused(
                "rate_limited", "too many wrong passwords; wait a minute and try again", abuse=True
            )
        expected = room.password["hash"]
        given = hash_password(password or "", room.password["salt"])
        if password is None or not hmac.compare_digest(expected, given):
            for key in keys:
                self.tries.take(key)  # counted for the cluster's other processes
            log.debug("wrong password for room %s from %s", room.id, conn.address)
            self.note("wrong passwords")
            why = "this room needs its password" if not password else "wrong password"
            raise Refused("wrong_password", why, abuse=True)
