"""Rates by arrival (issue 21): the server's own stalls are never a client's burst,
and an address over its budget is read more slowly instead of being answered.

`LoopStalls` tells how long the event loop was held up (a tick every
`TICK` s that came late, or one that is late right now): a message read just
after a stall came in during it, so a connection's rate bucket is credited the
stall's length before it may refuse a message.

`Inbox` stands between one connection's socket and the hub: each message is
rated (`Hub.arrive`) as it comes off the socket, and handled at once while its
address has budget left; beyond that the connection's reading pauses (the
kernel's buffers and TCP flow control hold the rest at the client) and the
messages already read wait, in order, until the budget is back. A flood from
one address then costs the server the address budget's worth of messages a
second, whatever it sends, and nobody is closed for the server's pacing.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from modernart.server.limits import TokenBucket

TICK = 0.1  # seconds between the stall monitor's ticks
GRACE = 0.05  # lateness of a tick that is not yet a stall


class LoopStalls:
    """Seconds the loop was held up in all, so far (a monotonic count)."""

    def __init__(self) -> None:
        self._stalled = 0.0
        self._last = time.monotonic()
        self._handle: asyncio.TimerHandle | None = None

    def start(self) -> None:
        self._last = time.monotonic()
        self._handle = asyncio.get_running_loop().call_later(TICK, self._tick)

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _tick(self) -> None:
        now = time.monotonic()
        late = now - self._last - TICK
        if late > GRACE:
            self._stalled += late
        self._last = now
        self._handle = asyncio.get_running_loop().call_later(TICK, self._tick)

    def total(self) -> float:
        """Stalled seconds so far, the one going on now included (a tick that is due
        but has not run: the loop is catching up on what piled up meanwhile)."""
        late = time.monotonic() - self._last - TICK
        return self._stalled + (late if late > GRACE else 0.0)


class Inbox:
    """One connection's messages on their way to the hub, paced by its address's
    budget (None: no budget). `handle(message, within_rate)` is the hub's handler;
    `arrive()` rates a message as it arrives (see `Hub.arrive`)."""

    def __init__(
        self,
        transport: Any,
        budget: TokenBucket | None,
        arrive: Callable[[], bool],
        handle: Callable[[bytes | str, bool], None],
        on_pause: Callable[[], None],
    ) -> None:
        self.transport = transport
        self.budget = budget
        self.arrive = arrive
        self.handle = handle
        self.on_pause = on_pause
        self.waiting: deque[tuple[bytes | str, bool]] = deque()
        self._resume: asyncio.TimerHandle | None = None
        self.closed = False

    def put(self, message: bytes | str) -> None:
        within = self.arrive()
        if not self.waiting and (self.budget is None or self.budget.take()):
            self.handle(message, within)
            return
        self.waiting.append((message, within))
        if self._resume is None:
            self.transport.pause_reading()
            self.on_pause()
            self._schedule()

    def _schedule(self) -> None:
        assert self.budget is not None
        wait = max(0.01, 1 / self.budget.rate)
        self._resume = asyncio.get_running_loop().call_later(wait, self._drain)

    def _drain(self) -> None:
        self._resume = None
        if self.closed:
            self.waiting.clear()
            return
        assert self.budget is not None
        while self.waiting and self.budget.take():
            message, within = self.waiting.popleft()
            self.handle(message, within)
            if self.closed:
                self.waiting.clear()
                return
        if self.waiting:
            self._schedule()
        elif not self.transport.is_closing():
            self.transport.resume_reading()

    def close(self) -> None:
        """The connection is gone or closing: nothing waiting is handled any more."""
        self.closed = True
        self.waiting.clear()
        if self._resume is not None:
            self._resume.cancel()
            self._resume = None
