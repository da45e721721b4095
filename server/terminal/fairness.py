"""Each session's share of its worker's event loop (issue 33 item 7).

Up to K sessions share one worker's event loop (server/terminal/worker.py). Every
key, mouse event or paste a session is given makes its app work and draw, at a cost
that grows with its screen; a few sessions holding keys down at a large size used
to keep the loop busy enough to make a neighbour's keys wait seconds.

So a worker hands out input at a rate it can serve (`WORKER_RATE` events a second
at a 120×40 screen), shared equally between the sessions that are typing now; each
session has a token bucket of its own (`BURST` events, refilled at its share). An
event costs `max(1, cells / BASE_CELLS)`: a 300×100 screen's key costs 6.25 of a
120×40 screen's. A session over its share is not refused anything: its events wait
in its driver, in order, and its PTY is not read meanwhile (so its terminal's own
flow control holds the rest back). Nothing typed is lost; a session that floods
is served after the others.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import Any

from textual import events

from .driver import TerminalDriver

WORKER_RATE = 60.0  # input events a second a worker serves at 120×40, all typing sessions
BURST = 30.0  # events a session may send at once (a second of a held key's auto-repeat)
BASE_CELLS = 120 * 40  # the screen an event costs 1 at; larger ones cost in proportion
ACTIVE_S = 1.0  # a session that had input this recently shares the worker's rate


class InputShares:
    """The sessions of one worker and their input shares."""

    def __init__(
        self,
        rate: float = WORKER_RATE,
        burst: float = BURST,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.shares: set[Share] = set()

    def join(self, cells: Callable[[], int]) -> Share:
        """A new session's share; `cells()`: its screen's size now (cols × rows)."""
        share = Share(self, cells)
        self.shares.add(share)
        return share

    def each(self, now: float) -> float:
        """The rate of one typing session now: the worker's, shared by those typing."""
        typing = sum(1 for s in self.shares if s.waiting or now - s.used < ACTIVE_S)
        return self.rate / max(1, typing)


class Share:
    """One session's token bucket; `cost()` of an event, `take()` spends it."""

    def __init__(self, shares: InputShares, cells: Callable[[], int]) -> None:
        self.shares = shares
        self.cells = cells
        self.tokens = shares.burst
        self.stamp = shares.clock()
        self.used = float("-inf")
        self.waiting = False  # it has events held back

    def cost(self) -> float:
        return max(1.0, self.cells() / BASE_CELLS)

    def _refill(self, now: float) -> None:
        gained = (now - self.stamp) * self.shares.each(now)
        self.tokens = min(self.shares.burst, self.tokens + gained)
        self.stamp = now

    def take(self) -> float:
        """Spend an event's cost if the bucket has any tokens: 0.0. Otherwise the seconds
        until it has (the event waits, nothing is spent)."""
        now = self.shares.clock()
        self._refill(now)
        if self.tokens <= 0:
            return max(0.001, -self.tokens / self.shares.each(now))
        self.tokens -= self.cost()
        self.used = now
        return 0.0

    def leave(self) -> None:
        self.shares.shares.discard(self)


class FairDriver(TerminalDriver):
    """A session's driver whose input events reach its app at its share's pace.

    Events past the share wait here, in order, and the session's PTY is not read
    until they have all gone: at most one read's events (4 KiB) wait at a time."""

    def __init__(self, app: Any, *, share: Share, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.share = share
        self._held: deque[Any] = deque()
        self._later: Any = None  # the timer that lets held events go
        self._unread = False  # its PTY is left unread while events wait

    def send_message(self, message: Any) -> None:
        if not isinstance(message, events.InputEvent):  # a resize, …: at once
            super().send_message(message)
            return
        self._held.append(message)
        if self._later is None:
            self._let_go()

    def _let_go(self) -> None:
        """Post what the share allows; wait for the rest with the PTY unread."""
        self._later = None
        while self._held:
            wait = self.share.take()
            if wait:
                self.share.waiting = True
                self._pause_reading()
                self._later = self._loop.call_later(wait, self._let_go)
                return
            super().send_message(self._held.popleft())
        self.share.waiting = False
        self._resume_reading()

    def _pause_reading(self) -> None:
        if self._reading and not self._unread:
            self._unread = True
            self._loop.remove_reader(self.terminal.fd)

    def _resume_reading(self) -> None:
        if self._unread:
            self._unread = False
            if self._reading:
                self._loop.add_reader(self.terminal.fd, self._read)

    def disable_input(self) -> None:
        super().disable_input()
        if self._later is not None:
            self._later.cancel()
            self._later = None
        self._held.clear()  # the session is ending: nobody reads its keys any more
        self.share.leave()
