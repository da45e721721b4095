"""Each session's share of its worker's event loop (issue 33 item 7).

Up to K sessions share one worker's event loop (server/doors/terminal/worker.py). A key
makes its app work and draw: a few milliseconds to move a cursor, over half a second
of CPU to open the help (Markdown) at any size. A few sessions holding such keys
down used to keep the loop so busy that a neighbour's keys waited seconds.

So the loop's time is counted per app (`Ledger`: every callback the loop runs is
charged to the app whose context it runs in) and a worker lets its sessions' input
use at most `WORKER_CPU` of its loop, shared equally by the sessions typing now:
each has a token bucket of CPU seconds (`BURST`), refilled at its share; what its app
computed is taken from it. Input events go to the apps in turns, one event a turn of
the loop in the whole worker, round the sessions that have some waiting: a session
whose bucket is empty lets the others go first. Nothing is refused or lost: its
events wait in its driver, in order, and its PTY is not read meanwhile (its
terminal's flow control holds the rest back).
"""

from __future__ import annotations

import asyncio
import contextvars
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from textual import events

from modernart.server.doors.terminal.driver import TerminalDriver
from modernart.tui.textual_internals import active_app

WORKER_CPU = 0.3  # seconds of CPU a second that two or more typing sessions share
BURST = 0.2  # CPU seconds a session may use at once (a burst of keys, a costly screen)
ACTIVE_S = 1.0  # a session that had input this recently shares the worker's CPU
BUSY_POLL = 0.005  # seconds between two looks at an app still busy with its last event
CHEAP = 0.25  # a session that used less than this share of the busy one's CPU goes
HOLD_MAX = 1.0  # seconds the others wait at most for an app busy with an event
HALF_LIFE = 5.0  # seconds: how fast a session's use of the CPU is forgotten (priority)
NOBODY = contextvars.Context()  # the worker's own callbacks (turns, news, looks): no app's time


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
        self.queue: list[FairDriver] = []  # sessions with events waiting
        self.current: FairDriver | None = None  # the last to have an event posted
        self.until = 0.0  # when the others go even if its app is still busy
        self._turn: asyncio.Handle | None = None

    def join(
        self,
        app: object,
        drawing: Callable[[], float] = lambda: 0.0,
        rank: Callable[[], int] = lambda: 0,
    ) -> Share:
        """A new session's share, for its app; `drawing()`: the CPU seconds its screen's
        own thread has used (the screen relay: driver.py); `rank()`: its session's rank
        (priority.py), the lower first: the keys of a player who must act go first."""
        share = Share(self, id(app), drawing, rank)
        self.shares.add(share)
        return share

    def want(self, driver: FairDriver) -> None:
        """`driver` has an event waiting: it takes its place in the turns."""
        if driver not in self.queue:
            self.queue.append(driver)
        if self._turn is None:
            self._turn = asyncio.get_running_loop().call_soon(self._next, context=NOBODY)

    def drop(self, driver: FairDriver) -> None:
        if driver in self.queue:
            self.queue.remove(driver)
        if self.current is driver:
            self.current = None

    def _next(self) -> None:
        """One turn. While the app of the last event posted still runs (the loop ran some
        of it since the last look), only a session that used far less CPU lately may go
        (for HOLD_MAX at most): costly input is computed one session at a time, and
        charged before the next. Of the sessions whose share allows it, the one of the
        highest rank (a player who must act first, priority.py) that used the least CPU
        lately has its next event posted."""
        self._turn = None
        loop = asyncio.get_running_loop()
        current = self.current
        idle = current is None or current.share.idle()
        if current is not None and idle:
            current.share.settle()
        busy = not idle and self.clock() < self.until
        ready: list[FairDriver] = []
        waits = [BUSY_POLL] if busy else []
        for driver in list(self.queue):
            if not driver.held:
                self.queue.remove(driver)
            elif wait := driver.share.due():
                waits.append(wait)
            elif not busy or driver.share.recent < current.share.recent * CHEAP:  # type: ignore[union-attr]
                ready.append(driver)
        if ready:
            driver = min(ready, key=lambda d: (d.share.rank(), d.share.recent))
            driver.share.posted()
            if not driver.post_one():
                self.queue.remove(driver)
            if not busy:
                self.current, self.until = driver, self.clock() + HOLD_MAX
            waits.append(BUSY_POLL)
        elif not busy:
            self.current = None
        if waits:
            self._turn = loop.call_later(min(waits), self._next, context=NOBODY)

    def each(self, now: float) -> float:
        """The CPU a second of one typing session now: the worker's, shared by those
        typing; a session typing alone may use the whole loop."""
        typing = sum(1 for s in self.shares if s.waiting or now - s.typed < ACTIVE_S)
        return self.cpu / typing if typing > 1 else 1.0


class Share:
    """One session's token bucket of CPU seconds (`due()`), and the CPU it used lately."""

    def __init__(
        self,
        shares: InputShares,
        app: int,
        drawing: Callable[[], float],
        rank: Callable[[], int],
    ) -> None:
        self.shares = shares
        self.app = app
        self.drawing = drawing
        self.rank = rank  # its session's rank (priority.py): the lower, the sooner its keys
        self.tokens = shares.burst
        self.stamp = shares.clock()
        self.seen = shares.ledger.used.setdefault(app, 0.0)  # its app's CPU, taken from the bucket
        self.drawn = drawing()  # its screen thread's, taken from the bucket
        self.done: float | None = self.seen  # its app's CPU when its input's work was done
        self.recent = 0.0  # CPU seconds used, halved every HALF_LIFE seconds
        self.typed = float("-inf")
        self.waiting = False  # it has events held back
        self.last = shares.ledger.used[app]  # its app's CPU at the last look (`idle`)

    def idle(self) -> bool:
        """Whether the loop ran nothing of its app since the last look."""
        used = self.shares.ledger.used.get(self.app, 0.0)
        idle, self.last = used == self.last, used
        return idle

    def due(self) -> float:
        """0.0 if the session may have its next event now; else the seconds until it
        may. What its app and screen used since the last call is charged."""
        now = self.shares.clock()
        each = self.shares.each(now)
        used = max(self.seen, self.shares.ledger.used.get(self.app, 0.0))
        # Only what its input made its app compute is charged: not the app's work on
        # the game's news since (a round's end: its summary and table cost a few tenths
        # of a second, which kept the next key waiting seconds, issue 28). Unknown
        # (the app never seen idle since its last event): all of it.
        charged = used if self.done is None else min(used, max(self.done, self.seen))
        drawn = max(self.drawn, self.drawing())
        spent, elapsed = charged - self.seen + drawn - self.drawn, now - self.stamp
        self.done, self.drawn = None, drawn
        self.tokens = min(self.shares.burst, self.tokens + elapsed * each) - spent
        self.recent = self.recent * 0.5 ** (elapsed / HALF_LIFE) + spent
        self.stamp, self.seen = now, used
        self.waiting = self.tokens <= 0
        return max(0.005, -self.tokens / each) if self.waiting else 0.0

    def posted(self) -> None:
        """An event of its went to its app."""
        self.typed = self.shares.clock()
        self.done = None
        self.idle()  # what ran of its app before does not count as this event's work

    def settle(self) -> None:
        """Its app was seen idle after its last event: that event's work is done."""
        if self.done is None:
            self.done = self.shares.ledger.used.get(self.app, 0.0)

    def leave(self) -> None:
        self.shares.shares.discard(self)
        self.shares.ledger.used.pop(self.app, None)


class FairDriver(TerminalDriver):
    """A session's driver whose input events reach its app in turns (`InputShares`).

    Events wait here, in order, until their turn, and the session's PTY is not read
    while any wait: at most one read's events (4 KiB) wait at a time."""

    def __init__(self, app: Any, *, share: Share, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.share = share
        self.held: deque[Any] = deque()
        self._unread = False  # its PTY is left unread while events wait

    def send_message(self, message: Any) -> None:
        if not isinstance(message, (events.InputEvent, events.Paste)):  # a resize: at once
            super().send_message(message)
            return
        self.held.append(message)
        self._pause_reading()
        self.share.shares.want(self)

    def post_one(self) -> bool:
        """Post the next waiting event to the app: whether more wait."""
        super().send_message(self.held.popleft())
        if self.held:
            return True
        self._resume_reading()
        return False

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
        self.held.clear()  # the session is ending: nobody reads its keys any more
        self.share.shares.drop(self)
        self.share.leave()
