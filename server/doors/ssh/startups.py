"""Connections that have not signed in yet, admitted as sshd's `MaxStartups` does.

Between `start` and `full` unauthenticated connections, a new one is dropped
with a probability rising linearly from `rate` % to 100 % (random early drop);
at `full` every new one is. No address may hold more than `per_address` of
them, so a few addresses cannot take every slot. A connection that sends
nothing (not even its version line) for `silent_timeout` seconds is closed:
holding a slot costs a flooder a real handshake.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

DEFAULT_MAX_STARTUPS = (10, 30, 100)  # start:rate:full, as sshd's default
DEFAULT_PER_ADDRESS_STARTUPS = 4
DEFAULT_SILENT_TIMEOUT = 5.0  # seconds to send the SSH version line


def parse_max_startups(text: str) -> tuple[int, int, int]:
    """`start:rate:full` (or just `full`), as sshd_config's MaxStartups."""
    parts = [int(p) for p in text.split(":")]
    if len(parts) == 1:
        return parts[0], 100, parts[0]
    if len(parts) != 3 or not 0 <= parts[1] <= 100 or not 0 <= parts[0] <= parts[2]:
        raise ValueError("MaxStartups is start:rate:full, e.g. 10:30:100")
    return parts[0], parts[1], parts[2]


@dataclass
class StartupLimits:
    max_startups: tuple[int, int, int] = DEFAULT_MAX_STARTUPS
    per_address: int = DEFAULT_PER_ADDRESS_STARTUPS  # 0: no limit
    silent_timeout: float = DEFAULT_SILENT_TIMEOUT  # 0: only the login timeout


class Startups:
    """The unauthenticated connections, by address; `refusal()` says why a new one may not be."""

    def __init__(self, limits: StartupLimits, rng: random.Random | None = None) -> None:
        self.limits = limits
        self.rng = rng or random.Random()
        self.by_address: Counter[str] = Counter()
        self.total = 0

    def refusal(self, address: str) -> str | None:
        start, rate, full = self.limits.max_startups
        per_address = self.limits.per_address
        if per_address and self.by_address[address] >= per_address:
            return "too many from one address"
        if full and self.total >= full:
            return "full"
        if full and self.total >= start:
            chance = rate + (100 - rate) * (self.total - start) / max(1, full - start)
            if self.rng.random() * 100 < chance:
                return "early drop"
        return None

    def add(self, address: str) -> None:
        self.by_address[address] += 1
        self.total += 1

    def remove(self, address: str) -> None:
        self.by_address[address] -= 1
        self.total -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]
