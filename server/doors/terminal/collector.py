"""A worker's garbage collections, each timed (issue 31): what its sessions wait for.

CPython's full collection walks every tracked object not frozen: in a worker, the
objects of all its sessions (up to K apps, each a Textual DOM, 10–50 thousand objects),
and frees the cyclic garbage among them. Where nothing ends, the sessions make none
(tui/textual_internals.py takes Textual's cycles apart: tests/tui/test_cyclic_garbage.py);
what ends is cyclic by Textual's design (a widget and its `Styles` refer to each other,
closures, the timers' bound methods): a closed dialog leaves 400–7,500 objects that only
the collector frees, none of them in cycles of ours (tests/tui/test_dialog_garbage.py).
A full collection costs what it costs (docs/decisions/terminal-sessions.md: keeping it to
the young, freezing the rest, was measured and dropped), and each is measured: a `gc.callbacks`
hook times each collection; the worker's beats carry the figures (worker.py) and the
server logs a pause over `PAUSE_AIM` (pool.py).

What can be chosen is *when* a full collection runs. CPython starts one in the middle
of whatever allocates (a session drawing the game's news, a key's answer): someone
always waited for it. `IdleCollections` keeps CPython's young collections and runs
the full ones itself, when they are due as CPython would have them (ten collections
of the middle generation since the last full one) and the worker's apps are quiet:
they computed less than `QUIET_CPU` in the last `LOOK_S`, no key or news waits, and
the look itself came on time (a loop busy with something else, or a process waiting
for a core on a loaded machine, is late: whatever it has not read yet would wait).
At human pace that is most of the time; a worker never quiet collects after
`LATEST_S` all the same (its memory stays bounded).
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable
from typing import Any

from modernart.server.doors.terminal.fairness import NOBODY

PAUSE_AIM = 0.020  # seconds: a collection that pauses the sessions longer is logged
LOOK_S = 0.1  # seconds between two looks at the apps' work
QUIET_CPU = 0.005  # seconds of the apps' CPU in a look's time that still count as quiet
LATE_S = 0.01  # seconds a look may come after its time and still find the loop quiet
LATEST_S = 10.0  # seconds a due full collection waits for quiet at most
DUE = 10  # middle-generation collections since the last full one: CPython's threshold
NEVER = 1 << 30  # CPython's own full collections: as good as never
quietly = False  # a quiet full collection runs now (for scripts/gcpauses.py's hook)


class Pauses:
    """Every collection's pause, timed by a `gc.callbacks` hook: the figures since the
    last `report()` (counts, the longest, how many over `PAUSE_AIM`) and in all."""

    def __init__(self) -> None:
        self.collections = 0
        self.full = 0  # of generation 2
        self.slow = 0  # over PAUSE_AIM
        self.longest = 0.0  # seconds
        self.total = [0, 0, 0]  # (collections, full, slow) since installed
        self._start = 0.0

    def install(self) -> None:
        if self._hook not in gc.callbacks:
            gc.callbacks.append(self._hook)

    def uninstall(self) -> None:
        if self._hook in gc.callbacks:
            gc.callbacks.remove(self._hook)

    def _hook(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
            return
        pause = time.perf_counter() - self._start
        self.collections += 1
        self.full += info.get("generation") == 2
        self.slow += pause > PAUSE_AIM
        self.longest = max(self.longest, pause)

    def report(self) -> dict[str, float]:
        """The figures since the last report (then zeroed), for a beat."""
        figures = {
            "n": self.collections,
            "full": self.full,
            "slow": self.slow,
            "max_ms": round(self.longest * 1000, 1),
        }
        for i, count in enumerate((self.collections, self.full, self.slow)):
            self.total[i] += count
        self.collections = self.full = self.slow = 0
        self.longest = 0.0
        return figures


class IdleCollections:
    """Full collections run when the worker's apps are quiet (the module's docstring).

    `used()`: the CPU seconds the apps used so far (fairness.Ledger); `waiting()`:
    whether keys or news wait for their turn."""

    def __init__(
        self,
        used: Callable[[], float],
        waiting: Callable[[], bool],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.used, self.waiting, self.clock = used, waiting, clock
        self.last = 0.0  # the apps' CPU at the last look
        self.due_since: float | None = None
        self.full = 0  # full collections run here
        self.then: list[Callable[[], None]] = []  # to run after the next one (`soon`)
        self.due_at = 0.0  # when the next look should come
        self._found = gc.get_threshold()  # CPython's thresholds, back at `uninstall`
        self._look: asyncio.TimerHandle | None = None

    def soon(self, then: Callable[[], None]) -> None:
        """A full collection at the next quiet moment, due or not; `then()` after it."""
        if then not in self.then:
            self.then.append(then)

    def install(self) -> None:
        self._found = gc.get_threshold()
        young, middle, _ = self._found
        gc.set_threshold(young, middle, NEVER)
        self.last = self.used()
        self._schedule()

    def uninstall(self) -> None:
        gc.set_threshold(*self._found)
        if self._look is not None:
            self._look.cancel()
            self._look = None

    def _schedule(self) -> None:
        self.due_at = self.clock() + LOOK_S
        loop = asyncio.get_running_loop()
        self._look = loop.call_later(LOOK_S, self.look, context=NOBODY)

    def look(self) -> None:
        used, now = self.used(), self.clock()
        on_time = now - self.due_at <= LATE_S
        quiet = on_time and used - self.last < QUIET_CPU and not self.waiting()
        self.last = used
        if gc.get_count()[2] < DUE and not self.then:
            self.due_since = None
        elif self.due_since is None:
            self.due_since = now
        if self.due_since is not None and (quiet or now - self.due_since >= LATEST_S):
            global quietly
            quietly = quiet
            try:
                gc.collect()
            finally:
                quietly = False
            self.full += 1
            self.due_since = None
            then, self.then = self.then, []
            for step in then:
                step()
            self.last = self.used()
        self._schedule()
