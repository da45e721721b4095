"""Refusals counted, and logged once a minute as a summary, never a line each.

A client reconnecting as fast as it can must not fill the disk with log lines
(issue 21: 8,250 lines a second): each door counts its refusals here by reason
and address, and one line a minute says how many, why, and from where most.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter

SUMMARY_EVERY = 60.0  # seconds
TOP = 3  # addresses named in a summary


class RefusalLog:
    """`count(reason, address)`; a summary line every minute when there was any."""

    def __init__(self, logger: logging.Logger, what: str, every: float = SUMMARY_EVERY) -> None:
        self.log = logger
        self.what = what
        self.every = every
        self.reasons: Counter[str] = Counter()
        self.addresses: Counter[str] = Counter()
        self.total = 0  # since the start, for tests and benchmarks
        self._timer: asyncio.TimerHandle | None = None

    def count(self, reason: str, address: str) -> None:
        self.reasons[reason] += 1
        self.addresses[address] += 1
        self.total += 1
        if self._timer is None:
            with_loop = asyncio.get_running_loop()
            self._timer = with_loop.call_later(self.every, self.flush)

    def flush(self) -> None:
        """Log what was refused since the last summary (one line), and start again."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self.reasons:
            return
        total = sum(self.reasons.values())
        why = ", ".join(f"{n} {reason}" for reason, n in self.reasons.most_common())
        top = ", ".join(f"{a} ×{n}" for a, n in self.addresses.most_common(TOP))
        self.log.info(
            "%s refused: %d (%s) from %d addresses, most from %s",
            self.what,
            total,
            why,
            len(self.addresses),
            top,
        )
        self.reasons.clear()
        self.addresses.clear()
