"""The identities the hub holds in memory, and their ends.

An identity is loaded from the store when its token comes back (`returning`) or its
room is restored (`get`), kept while connected or seated, and dropped from memory
when neither (`forget_idle`; the store keeps it). Identities that never played a
game are forgotten by the store too after `identity_ttl_hours` (`expire`).

The doors ask through `identity_for_token`, never through the hub's dicts.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from modernart.server.limits import Limits
from modernart.server.store.sqlite import Store, StoreError
from modernart.server.wire.session import Identity

if TYPE_CHECKING:
    from modernart.server.rooms.room import Room

log = logging.getLogger("modernart.server")

# Identities forgotten per step; between steps the loop serves everyone else for
# EXPIRY_YIELD times as long as the step took (at least 10 ms): expiry takes a
# fifth of the loop at most, however slow the disk or busy the machine.
EXPIRY_BATCH, EXPIRY_YIELD = 200, 4.0


class People:
    def __init__(self, store: Store, limits: Limits, rooms: dict[str, Room]) -> None:
        """`rooms`: the hub's (an identity seated in one of them is kept)."""
        self.store = store
        self.limits = limits
        self.rooms = rooms
        self.identities: dict[str, Identity] = {}
        self.stopping = False
        self._expiry: asyncio.TimerHandle | None = None  # the next batch of expiries
        self._expired = 0  # identities forgotten by the batches under way

    def get(self, identity_id: str, name: str) -> Identity:
        """The identity in memory, loaded (with its stored name) if it is not."""
        identity = self.identities.get(identity_id)
        if identity is None:
            identity = Identity(identity_id, self.store.identity_name(identity_id) or name)
            self.identities[identity_id] = identity
        return identity

    def returning(self, token: str) -> Identity | None:
        """The identity `token` stands for (loaded if need be), or None if the store
        does not know it (never issued here, expired or revoked)."""
        found = self.store.find_identity(token)
        if found is None:
            return None
        identity_id, stored_name, seated = found
        identity = self.get(identity_id, stored_name)
        identity.seated = seated
        return identity

    def identity_for_token(self, token: str) -> Identity | None:
        """The identity `token` stands for if it is in memory (connected or seated)."""
        found = self.store.find_identity(token)
        return self.identities.get(found[0]) if found else None

    def add(self, identity: Identity) -> None:
        self.identities[identity.id] = identity

    def mark_seated(self, identity: Identity) -> None:
        """The identity starts a game: kept for good (issue 33)."""
        if not identity.seated:
            try:
                self.store.mark_seated(identity.id)
            except StoreError as exc:  # kept while seated all the same (`expire`)
                log.error("%s", exc)
                return
            identity.seated = True

    def sweep(self) -> None:
        """Once a minute: idle identities leave memory, and expiry starts unless the
        last sweep's is still going."""
        self.forget_idle()
        if self._expiry is None:
            self.expire()

    def stop(self) -> None:
        self.stopping = True
        if self._expiry is not None:
            self._expiry.cancel()

    def expire(self) -> None:
        """Identities that never played a game (issue 33: sitting in a room is not
        enough; those seated in a room now are kept) are forgotten after `identity_ttl_hours`
        (their token then simply starts a new identity), EXPIRY_BATCH at a time with
        the loop free in between (EXPIRY_YIELD): a backlog of 200,000 never holds
        up play (issue 21)."""
        self._expiry = None
        ttl = self.limits.identity_ttl_hours
        if ttl <= 0 or self.stopping:
            return
        began = time.monotonic()
        keep = self._seated_ids() | {i.id for i in self.identities.values() if i.conn is not None}
        try:
            gone = self.store.expire_identities(time.time() - ttl * 3600, keep, EXPIRY_BATCH)
        except StoreError as exc:
            log.error("expiring identities: %s", exc)
            gone = 0
        self._expired += gone
        if gone == EXPIRY_BATCH:
            pause = max(0.01, EXPIRY_YIELD * (time.monotonic() - began))
            self._expiry = asyncio.get_running_loop().call_later(pause, self.expire)
        elif self._expired:
            log.info("forgot %d identities that never played", self._expired)
            self._expired = 0

    def _seated_ids(self) -> set[str]:
        """Identities seated in a room the hub holds."""
        return {
            seat.identity.id
            for room in self.rooms.values()
            for seat in room.seats
            if seat is not None and seat.identity is not None
        }

    def forget_idle(self) -> None:
        """Drop identities neither connected nor seated from memory; the store keeps
        them, and a returning token loads them again (`get`)."""
        seated = self._seated_ids()
        for identity_id, identity in list(self.identities.items()):
            if identity.conn is None and identity_id not in seated:
                del self.identities[identity_id]
