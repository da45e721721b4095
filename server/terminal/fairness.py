"""Each session's share of its worker's event loop (issue 33 item 7).

Up to K sessions share one worker's event loop (server/terminal/worker.py). A key
makes its app work and draw: a few milliseconds to move a cursor, over half a second
of CPU to open the help (Markdown) at any size. A few sessions holding such keys
down used to keep the loop so busy that a neighbour's keys waited seconds.

So the loop's time is counted per app (`Ledger`: every callback the loop runs is
charged to the app whose context it runs in) and a worker lets its sessions' input
use at most `WORKER_CPU` of its loop, shared equally by the sessions typing now:
each has a token bucket of CPU seconds (`BURST`), refilled at its share; what its app
computed is taken from it. A session whose bucket is empty is not refused anything:
its next events wait in its driver, in order, and its PTY is not read meanwhile (its
terminal's flow control holds the rest back). Nothing typed is lost; a session that
costs more than its share is served after the others, whose keys stay cheap to serve.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from textual import events
from textual._context import active_app

from .driver import TerminalDriver

WORKER_CPU = 0.5  # seconds of CPU a second the typing sessions of a worker share
BURST = 0.5  # CPU seconds a session may use at once (a burst of keys, one costly screen)
ACTIVE_S = 1.0  # a session that had input this recently shares the worker's CPU


class Ledger:
    """The CPU seconds the loop spent on each app (by `id(app)`), since it started."""

    def __init__(self, clock: Callable[[], float] = time.thread_time) -> None:
        self.used: dict[int, float] = {}  # the apps of the sessions that have a share
        self.clock = clock

    def install(self) -> None:
        """Charge every callback the process's event loops run to its context's app
        (Textual's `active_app`, set in each app's tasks; none: not counted)."""
        run = asyncio.events.Handle._run
        used, clock = self.used, self.clock

        def counted(handle: asyncio.Handle) -> None:
            app = handle._context.get(active_app)  # type: ignore[attr-defined]
            if app is None:
                run(handle)
                return
            start = clock()
            try:
                run(handle)
            finally:
                key = id(app)
                if key in used:
                    used[key] += clock() - start

        asyncio.events.Handle._run = counted  # type: ignore[method-assign]


class InputShares:
    """The sessions of one worker and their shares of its loop."""

    def __init__(
        self,
        ledger: Ledger,
        cpu: float = WORKER_CPU,
        burst: float = BURST,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.ledger = ledger
        self.cpu, self.burst, self.clock = cpu, burst, clock
        self.shares: set[Share] = set()

    def join(self, app: object) -> Share:
        """A new session's share, for its app."""
        share = Share(self, id(app))
        self.shares.add(share)
        return share

    def each(self, now: float) -> float:
        """The CPU a second of one typing session now: the worker's, shared by those typing."""
        typing = sum(1 for s in self.shares if s.waiting or now - s.typed < ACTIVE_S)
        return self.cpu / max(1, typing)


class Share:
    """One session's token bucket of CPU seconds; `take()` before each event."""

    def __init__(self, shares: InputShares, app: int) -> None:
        self.shares = shares
        self.app = app
        self.tokens = shares.burst
        self.stamp = shares.clock()
        self.seen = shares.ledger.used.setdefault(app, 0.0)  # its CPU taken from the bucket
        self.typed = float("-inf")
        self.waiting = False  # it has events held back

    def take(self) -> float:
        """0.0 if the session may have its next event now; else the seconds until it
        may (nothing is spent by asking)."""
        now = self.shares.clock()
        each = self.shares.each(now)
        used = self.shares.ledger.used.get(self.app, self.seen)
        gained = (now - self.stamp) * each
        self.tokens = min(self.shares.burst, self.tokens + gained) - (used - self.seen)
        self.stamp, self.seen = now, used
        if self.tokens <= 0:
            return max(0.005, -self.tokens / each)
        self.typed = now
        return 0.0

    def leave(self) -> None:
        self.shares.shares.discard(self)
        self.shares.ledger.used.pop(self.app, None)


class FairDriver(TerminalDriver):
    """A session's driver whose input events reach its app at its share's pace.

    One event a turn of the loop at most, so that what the app computes for it is
    charged before the next goes; events past the share wait here, in order, and
    the session's PTY is not read until they have all gone: at most one read's
    events (4 KiB) wait at a time."""

    def __init__(self, app: Any, *, share: Share, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.share = share
        self._held: deque[Any] = deque()
        self._later: asyncio.TimerHandle | None = None  # the next event's turn
        self._unread = False  # its PTY is left unread while events wait

    def send_message(self, message: Any) -> None:
        if not isinstance(message, events.InputEvent):  # a resize, …: at once
            super().send_message(message)
            return
        self._held.append(message)
        if self._later is None:
            self._let_go()

    def _let_go(self) -> None:
        """Post the next event if the share allows, and give the next its own turn: the
        rest wait, the PTY unread."""
        self._later = None
        if not self._held:
            self._resume_reading()
            return
        wait = self.share.take()
        self.share.waiting = bool(wait)
        if not wait:
            super().send_message(self._held.popleft())
        if self._held:
            self._pause_reading()
        self._later = self._loop.call_later(wait, self._let_go)

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
