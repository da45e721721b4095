"""Token buckets for per-connection rate limits."""

from __future__ import annotations

import time


class TokenBucket:
    """`capacity` tokens refilled at `rate` per second; `take()` spends one if it can."""

    def __init__(self, capacity: float, rate: float) -> None:
        self.capacity = capacity
        self.rate = rate
        self.tokens = capacity
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


# PROTOCOL.md: the limit must allow at least 50 messages a second.
MESSAGES_BURST, MESSAGES_PER_S = 120, 60
# Errors a connection may provoke (bad_message, rate_limited) before it is closed.
ABUSE_BURST, ABUSE_PER_S = 20, 0.5
CHAT_BURST, CHAT_PER_S = 5, 1
