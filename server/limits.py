"""Every abuse limit of the server: rate buckets and the operator's `Limits`.

docs/operations.md lists each limit with its default and its flag.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

# What a cluster's processes count for one another (server/cluster/), so that these
# limits hold across processes: each process adds the others' counts to its own.
CONNECTIONS = "ca"  # open connections per address (`max_per_address`)
WAITING_ROOMS = "wa"  # waiting rooms per address that made them
GAMES_BY_ADDRESS = "ga"  # running games per address that started them
GAMES_BY_IDENTITY = "gi"  # running games per identity seated in them
# The rates a cluster's processes spend for one another: each beat carries what this
# process's buckets of each kind spent per key since its last beat, and every other
# process debits its own buckets by as much (`Buckets.debit`, server/cluster/rates.py).
WRONG_PASSWORDS = "wp"  # per address and per room (server/people/passwords.py)
WRONG_CODES = "wc"  # hand-off codes per address (server/people/handoff.py)
NEW_IDENTITIES = "ni"  # per address (server/people/hello.py)

# The buckets' clock: seconds, only ever compared. A test replaces it to pace its
# messages on virtual time (tests/server/test_protocol.py).
clock: Callable[[], float] = time.monotonic


class TokenBucket:
    """`capacity` tokens refilled at `rate` per second; `take()` spends one if it can.
    An infinite rate (a limit of 0, none) always has a token."""

    def __init__(self, capacity: float, rate: float) -> None:
        self.capacity = capacity
        self.rate = rate
        self.tokens = capacity
        self.stamp = clock()

    def _refill(self) -> None:
        if self.rate == float("inf"):
            self.tokens = self.capacity = float("inf")
            return
        now = clock()
        # Tokens credited beyond the capacity (`credit`) stay until spent.
        refilled = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.tokens = max(self.tokens, refilled)
        self.stamp = now

    def credit(self, seconds: float) -> None:
        """`seconds` worth of tokens more, even beyond the capacity (a stall of the
        server's during which the client's messages waited, server/wire/pacing.py)."""
        self._refill()
        self.tokens += seconds * self.rate

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

    def debit(self, tokens: float) -> None:
        """Spend `tokens` without refusing: what other processes of a cluster spent for
        the same key, so that every process's bucket counts every spending once. It
        may go below empty (a debt, paid back by the refill): spending is never lost,
        else tries made at the same moment on several processes, each finding its own
        bucket's token, would each be forgiven the others' (docs/decisions/30-cluster.md).
        The debt is bounded by what the other processes' own buckets let through."""
        self._refill()
        self.tokens -= tokens

    @property
    def full(self) -> bool:
        self._refill()
        return self.tokens >= self.capacity


class Buckets:
    """One `TokenBucket` per key (an address, a room) made on first use; full ones
    are forgotten by `prune()` so that the table never outgrows its active keys.

    In a cluster (`share()`), what `take` spends is also counted per key until
    `spent()` hands it over, for the next beat to tell the other processes."""

    def __init__(self, capacity: float, rate: float) -> None:
        self.capacity = capacity
        self.rate = rate
        self.table: dict[Hashable, TokenBucket] = {}
        self._spent: dict[Hashable, int] | None = None  # None: not shared (one process)

    def __getitem__(self, key: Hashable) -> TokenBucket:
        bucket = self.table.get(key)
        if bucket is None:
            bucket = self.table[key] = TokenBucket(self.capacity, self.rate)
        return bucket

    def take(self, key: Hashable) -> bool:
        """Spend a token of `key`'s bucket if it has one (counted, when shared)."""
        if not self[key].take():
            return False
        if self._spent is not None:
            self._spent[key] = self._spent.get(key, 0) + 1
        return True

    def share(self) -> None:
        """Count what `take` spends from now on (`spent`). A limit of 0 (an infinite
        rate) spends nothing worth telling: not counted."""
        if self.rate != float("inf") and self._spent is None:
            self._spent = {}

    def spent(self) -> dict[Hashable, int]:
        """The tokens taken per key since the last call (only the keys that spent)."""
        if not self._spent:
            return {}
        spent, self._spent = self._spent, {}
        return spent

    def debit(self, key: Hashable, tokens: float) -> None:
        """`key`'s bucket spends `tokens` that another process took (not counted again)."""
        self[key].debit(tokens)

    def prune(self) -> None:
        for key, bucket in list(self.table.items()):
            if bucket.full:
                del self.table[key]


def _limit(default: float, text: str) -> Any:
    return field(default=default, metadata={"help": text})


@dataclass
class Limits:
    """Every limit of the server. Each field is a flag of `modernart-server` (its name
    with dashes: `--max-connections`); docs/operations.md lists them. 0: no limit."""

    max_connections: int = _limit(4000, "open WebSocket connections in all (HTTP 503 beyond)")
    max_per_address: int = _limit(32, "open connections per client address (HTTP 429 beyond)")
    messages_per_s: float = _limit(60, "messages per connection per second, twice that in a burst")
    bad_messages: int = _limit(20, "errors before a client is closed (1 forgiven / 2 s)")
    chats_per_s: float = _limit(1, "chat messages per connection per second, 5 in a burst")
    password_tries_per_minute: float = _limit(3, "wrong passwords per address and room, after 5")
    waiting_rooms_per_address: int = _limit(10, "waiting rooms created from one address")
    games_per_identity: int = _limit(5, "running games one player sits in, counted at `start`")
    games_per_address: int = _limit(20, "running games started from one address")
    new_identities_per_hour: float = _limit(60, "new identities per address, after a burst of 20")
    identity_ttl_hours: float = _limit(24, "identities that never took a seat are forgotten after")
    min_bot_delay_ms: int = _limit(500, "the shortest `bot_delay_ms` a room may ask for")
    min_takeover_s: int = _limit(30, "the shortest `takeover_s` a room may ask for (or 0)")
    max_unread_kib: int = _limit(512, "unread output before a client is dropped")
    hello_timeout_s: float = _limit(10, "seconds a new connection has to say hello")
    close_timeout_s: float = _limit(2, "seconds a closing handshake may take before an abort")
    finished_listed_s: float = _limit(600, "seconds a finished room stays in the lobby's list")
    abandoned_after_s: float = _limit(
        1800, "seconds a running game with no player connected lasts, then ends as abandoned"
    )
    # Issue 21.
    max_spectators: int = _limit(100, "spectators one room may have (room_full beyond)")
    room_chats_per_s: float = _limit(3, "chat lines per room per second, 10 in a burst")
    send_buffer_kib: int = _limit(64, "the kernel's send buffer of one connection (SO_SNDBUF)")
    address_messages_per_s: float = _limit(
        100, "messages per address per second, all its connections together (reads pause)"
    )
    # Issue 28.
    round_read_s: float = _limit(
        30, "seconds to read a round's summary, added to the next decisions' turn clocks"
    )
    # Issue 33.
    rematch_answers_per_s: float = _limit(
        0.5, "rematch answers per player per second that change it, 5 in a burst"
    )

    @classmethod
    def for_dev(cls) -> Limits:
        """`--dev`: no per-address limits (every test client comes from 127.0.0.1) and
        no floors on bot delays and takeovers."""
        return cls(
            max_per_address=0,
            address_messages_per_s=0,
            waiting_rooms_per_address=0,
            games_per_address=0,
            new_identities_per_hour=0,
            min_bot_delay_ms=0,
            min_takeover_s=0,
        )

    def replace(self, **changes: float | None) -> Limits:
        """These limits with the given ones changed (None: keep the default)."""
        return dataclasses.replace(self, **{k: v for k, v in changes.items() if v is not None})


# Fixed bursts that go with the rates above.
MESSAGES_BURST_FACTOR = 2  # a burst of twice the per-second rate (PROTOCOL.md: ≥ 50/s)
ABUSE_FORGIVEN_PER_S = 0.5
CHAT_BURST = 5
ROOM_CHAT_BURST = 10
ADDRESS_BURST_FACTOR = 2  # an address's burst: twice its per-second budget
PASSWORD_TRIES = 5  # a 4-digit PIN (5,000 guesses on average) then takes more than a day
NEW_IDENTITIES_BURST = 20
REMATCH_BURST = 5  # rematch answers (accept/decline toggles) in a burst
