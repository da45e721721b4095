"""Every abuse limit of the server: rate buckets and the operator's `Limits`.

docs/operations.md lists each limit with its default and its flag.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Hashable
from dataclasses import dataclass


class TokenBucket:
    """`capacity` tokens refilled at `rate` per second; `take()` spends one if it can."""

    def __init__(self, capacity: float, rate: float) -> None:
        self.capacity = capacity
        self.rate = rate
        self.tokens = capacity
        self.stamp = time.monotonic()

    def _refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def ready(self) -> bool:
        """Whether a token is there, without spending it."""
        self._refill()
        return self.tokens >= 1

    def take(self) -> bool:
        self._refill()
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    @property
    def full(self) -> bool:
        self._refill()
        return self.tokens >= self.capacity


class Buckets:
    """One `TokenBucket` per key (an address, a room) made on first use; full ones
    are forgotten by `prune()` so that the table never outgrows its active keys."""

    def __init__(self, capacity: float, rate: float) -> None:
        self.capacity = capacity
        self.rate = rate
        self.table: dict[Hashable, TokenBucket] = {}

    def __getitem__(self, key: Hashable) -> TokenBucket:
        bucket = self.table.get(key)
        if bucket is None:
            bucket = self.table[key] = TokenBucket(self.capacity, self.rate)
        return bucket

    def prune(self) -> None:
        for key, bucket in list(self.table.items()):
            if bucket.full:
                del self.table[key]


# PROTOCOL.md: the limit must allow at least 50 messages a second.
MESSAGES_BURST, MESSAGES_PER_S = 120, 60
# Errors a connection may provoke (bad_message, rate_limited, wrong_password)
# before it is closed.
ABUSE_BURST, ABUSE_PER_S = 20, 0.5
# Chat has its own limit; exceeding it is refused politely, not counted as abuse.
CHAT_BURST, CHAT_PER_S = 5, 1
# Wrong passwords: 5 tries, then 3 a minute, per address and per room; a 4-digit
# PIN (5,000 guesses on average) then takes more than a day from any number of
# addresses.
PASSWORD_TRIES, PASSWORD_TRIES_PER_S = 5, 3 / 60
# Without --dev a bot thinks at least this long, and a seat is taken over by a
# bot no sooner than this (0, never, stays allowed).
MIN_BOT_DELAY_MS = 500
MIN_TAKEOVER_S = 30
# New identities per address: this burst, then `Limits.new_identities_per_hour`.
NEW_IDENTITIES_BURST = 20


@dataclass
class Limits:
    """The operator's limits (flags of `modernart-server`); 0 means no limit."""

    max_connections: int = 4000  # open WebSocket connections in all
    max_per_address: int = 32  # open connections per client address
    waiting_rooms_per_address: int = 10
    games_per_identity: int = 5  # running games an identity is seated in, at `start`
    games_per_address: int = 20  # running games started from one address
    new_identities_per_hour: int = 60  # per address, after a burst of 20
    identity_ttl_hours: float = 24.0  # identities never seated are forgotten after this

    @classmethod
    def for_dev(cls) -> Limits:
        """`--dev`: no per-address limits (every test client comes from 127.0.0.1)."""
        return cls(
            max_per_address=0,
            waiting_rooms_per_address=0,
            games_per_address=0,
            new_identities_per_hour=0,
        )

    def replace(self, **changes: int | float | None) -> Limits:
        """These limits with the given ones changed (None: keep the default)."""
        return dataclasses.replace(self, **{k: v for k, v in changes.items() if v is not None})
