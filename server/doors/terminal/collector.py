"""A worker's garbage collector (issue 31): short pauses for its sessions, each measured.

CPython's full collection walks every tracked object not frozen: in a worker, the
objects of all its sessions (up to K apps, each a Textual DOM, 10–50 thousand
objects), 60–290 ms each every second or two while dialogs open and close, a stall
of every session. The garbage the sessions leave is cyclic by Textual's design (a
widget and its `Styles` refer to each other, the compositor's and signals' closures,
the timers' bound methods): a closed dialog leaves 4–16 thousand objects that only
the collector frees, none of them in cycles of ours (docs/decisions/terminal-sessions.md).

So the collector is kept to the young:
- every `SETTLE_EVERY` seconds (the worker's heartbeat) a full collection of what is
  not frozen, that is what survived since the last one (a dialog opened and closed
  meanwhile is freed here), then `gc.freeze()`: the survivors leave its reach. Every
  collection, automatic or not, then walks only what was made since the last settle.
- frozen objects that die later (a session's whole app when it ends, a game table
  left, a dialog kept open across a settle) are only freed by a reclaim: unfreeze,
  collect everything, freeze again. The worker reclaims after a session ends (with
  the memory hand-back, memory.py) and when what it froze since the last reclaim
  exceeds `RECLAIM_GROWTH` of what was frozen then: the garbage it keeps is bounded
  to that share, at the price of one full collection (the old pause) that often.

Each collection is timed by a `gc.callbacks` hook (`Pauses`); the worker's beats carry
the figures (worker.py) and the server logs a pause over `PAUSE_AIM` (pool.py).
"""

from __future__ import annotations

import gc
import time
from typing import Any

PAUSE_AIM = 0.020  # seconds: a collection that pauses the sessions longer is logged
SETTLE_EVERY = 1.0  # seconds between two settles (the worker calls it on its beat)
RECLAIM_GROWTH = 0.5  # frozen since the last reclaim, as a share of what was frozen then


class Pauses:
    """Every collection's pause, timed by a `gc.callbacks` hook: the figures since the
    last `report()` (counts, the longest, how many over `PAUSE_AIM`) and in all."""

    def __init__(self) -> None:
        self.collections = 0
        self.full = 0  # of generation 2 (a settle's or a reclaim's among them)
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
        full = info.get("generation") == 2
        slow = pause > PAUSE_AIM
        self.collections += 1
        self.full += full
        self.slow += slow
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


class Collector:
    """A worker's collector: `settle()` on every beat, `reclaim()` after a session ends.

    Forked from the zygote, a worker starts with the zygote's objects frozen
    (zygote.py); `base` is what was frozen at the last reclaim (or the fork), `grown`
    what settles have frozen since.
    """

    def __init__(self, growth: float = RECLAIM_GROWTH) -> None:
        self.growth = growth
        self.pauses = Pauses()
        self.base = gc.get_freeze_count()
        self.grown = 0
        self.reclaims = 0

    def install(self) -> None:
        self.pauses.install()

    def settle(self) -> None:
        """Collect what is not frozen and freeze what survived; reclaim when the frozen
        objects have grown by `growth` since the last reclaim."""
        gc.collect()  # only the young: what survived since the last settle
        self.grown += len(gc.get_objects(generation=2))
        gc.freeze()
        if self.grown > self.growth * self.base:
            self.reclaim()

    def reclaim(self) -> None:
        """Free the frozen objects that have died since they were frozen: one full
        collection of everything (the zygote's objects too), then all frozen again."""
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.base = gc.get_freeze_count()
        self.grown = 0
        self.reclaims += 1

    def report(self) -> dict[str, float]:
        """For a beat: the pauses since the last one, what is frozen, the reclaims."""
        return {**self.pauses.report(), "frozen": self.base + self.grown, "reclaims": self.reclaims}
