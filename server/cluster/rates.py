"""Rates that hold across a cluster's processes, told by the beats (nodes.py).

The slow rates that guard secrets and the store are one budget per key for the whole
cluster: wrong room passwords per address and per room (people/passwords.py), wrong
hand-off codes per address (people/handoff.py) and new identities per address
(people/hello.py). Each process keeps its own buckets and checks them as one process
alone does (synchronously, no round trip); its beat carries what its buckets of each
kind spent per key since its last beat (`t`, only the keys that spent: most beats
carry nothing), and every other process takes as much from its own bucket for that key
(`Buckets.debit`, even into a debt). So every process's bucket counts every process's
spending once, and a client spreading its tries over the processes meets the same
limit as on one, a beat late: before the others hear of it, it can spend on each
process what that process's bucket holds, and then owes it everywhere.

Messages per address and per connection stay per process: they refill many times a
second, faster than a beat could tell; the connections an address holds are counted
across processes (relay.py's `counts`) and each connection has its own message rate.
"""

from __future__ import annotations

import logging
from typing import Any

from modernart.server.limits import Buckets

log = logging.getLogger("modernart.server")

# What a beat's `t` carries: kind (server/limits.py: WRONG_PASSWORDS …) → key → tokens.
Spent = dict[str, dict[str, int]]


class SharedRates:
    def __init__(self, kinds: dict[str, Buckets | None]) -> None:
        """`kinds`: the hub's buckets of each kind shared (None: that limit is off)."""
        self.kinds = {kind: buckets for kind, buckets in kinds.items() if buckets is not None}
        for buckets in self.kinds.values():
            buckets.share()

    def spent(self) -> Spent:
        """What this process's buckets spent since the last call, for its next beat."""
        told: Spent = {}
        for kind, buckets in self.kinds.items():
            spent = buckets.spent()
            if spent:
                told[kind] = {str(key): tokens for key, tokens in spent.items()}
        return told

    def debit(self, spent: Any) -> None:
        """Another process's beat told what it spent: as much taken here. A kind this
        process does not share (a limit that is off here, a newer version's) is skipped."""
        if not isinstance(spent, dict):
            return
        for kind, keys in spent.items():
            buckets = self.kinds.get(kind)
            if buckets is None or not isinstance(keys, dict):
                continue
            for key, tokens in keys.items():
                if isinstance(key, str) and isinstance(tokens, int | float) and tokens > 0:
                    buckets.debit(key, tokens)
