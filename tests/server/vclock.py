"""Virtual time for the rooms (issue 29): a clock the test moves, given to the server as
`Hub.clock` (server/rooms/ports.py's `Clock`). A hammer, a turn clock or a bot's pause
runs out when the test moves the clock past it, at once and whatever the machine's load:
no test waits on a real clock for them, and none races one."""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable
from typing import Any


class Planned:
    """A call the clock makes when its time comes (asyncio's `TimerHandle`'s `cancel`)."""

    def __init__(self, when: float, callback: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self.when = when
        self.callback = callback
        self.args = args
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """Time stands still until `advance` or `next` moves it; the calls that come due then
    run in order of their times (a call they plan runs too if it is due)."""

    def __init__(self) -> None:
        self.now = 0.0
        self._heap: list[tuple[float, int, Planned]] = []
        self._order = itertools.count()

    def time(self) -> float:
        return self.now

    def call_at(self, when: float, callback: Callable[..., Any], *args: Any) -> Planned:
        planned = Planned(when, callback, args)
        heapq.heappush(self._heap, (when, next(self._order), planned))
        return planned

    def call_later(self, delay: float, callback: Callable[..., Any], *args: Any) -> Planned:
        return self.call_at(self.now + delay, callback, *args)

    def planned(self) -> list[float]:
        """The times of the calls still to come, soonest first."""
        return sorted(when for when, _, p in self._heap if not p.cancelled)

    def next(self) -> float:
        """Move to the soonest planned call and make it; return how far time moved."""
        while self._heap and self._heap[0][2].cancelled:
            heapq.heappop(self._heap)
        assert self._heap, "nothing is planned on the clock"
        when, _, planned = heapq.heappop(self._heap)
        moved = max(0.0, when - self.now)
        self.now = max(self.now, when)
        planned.callback(*planned.args)
        return moved

    def advance(self, seconds: float) -> None:
        """Move `seconds` on, making every call that comes due on the way."""
        end = self.now + seconds
        while any(when <= end for when in self.planned()):
            self.next()
        self.now = end
