"""Log lines an outsider can cause, throttled: the first of a kind in full, then a count.

A client that repeats a refused request as fast as it can must not fill the disk
(issue 33: 2,131 tracebacks a second from one client). Each kind of line (a fixed
string chosen by the code, never by the client: the table of kinds stays small)
is logged the first time in full; the same kind again within `every` seconds is
only counted, and one line "N more like this" follows when that interval ends.
So each kind costs at most two lines per interval, however hard it is pushed.

The count is written by a timer on the running loop; without a loop (or if the
timer's loop is gone) the next line of that kind after the interval writes it.
`flush()` writes every pending count at once (tests, shutdown).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

EVERY = 60.0  # seconds: at most one full line and one count per kind in this time


@dataclass
class _Kind:
    started: float  # when the full line of this interval was logged
    level: int
    more: int = 0  # lines of this kind not logged since
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)


class LogThrottle:
    """`throttle.info("kind", "message %s", arg)`: logged in full once per interval per
    kind, the rest of the interval's lines of that kind counted in one summary line."""

    def __init__(
        self,
        logger: logging.Logger,
        every: float = EVERY,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.log = logger
        self.every = every
        self.clock = clock
        self._kinds: dict[str, _Kind] = {}
        self.suppressed = 0  # lines counted instead of logged, since the start

    def info(self, kind: str, message: str, *args: object) -> None:
        self.emit(logging.INFO, kind, message, *args)

    def warning(self, kind: str, message: str, *args: object) -> None:
        self.emit(logging.WARNING, kind, message, *args)

    def exception(self, kind: str, message: str, *args: object) -> None:
        """An error with its traceback (the first of the interval; the rest counted)."""
        self.emit(logging.ERROR, kind, message, *args, exc_info=True)

    def emit(
        self, level: int, kind: str, message: str, *args: object, exc_info: bool = False
    ) -> None:
        if not self.log.isEnabledFor(level):
            return
        now = self.clock()
        state = self._kinds.get(kind)
        if state is not None and now - state.started >= self.every:
            self._summarise(kind)  # its timer did not run (no loop, or a closed one)
            state = None
        if state is None:
            self._kinds[kind] = _Kind(now, level)
            self.log.log(level, message, *args, exc_info=exc_info)
            return
        state.more += 1
        self.suppressed += 1
        if state.timer is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return
            wait = max(0.0, state.started + self.every - now)
            state.timer = loop.call_later(wait, self._summarise, kind)

    def _summarise(self, kind: str) -> None:
        """The interval of `kind` is over: its count (if any) is logged, and the next
        line of that kind is logged in full again."""
        state = self._kinds.pop(kind, None)
        if state is None:
            return
        if state.timer is not None:
            state.timer.cancel()
        if state.more:
            self.log.log(
                state.level,
                "%d more like this in the last %.0f s (%s)",
                state.more,
                self.every,
                kind,
            )

    def flush(self) -> None:
        """Log every pending count now and start every kind afresh."""
        for kind in list(self._kinds):
            self._summarise(kind)
