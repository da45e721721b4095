"""A worker's garbage collections, each timed (issue 31): what its sessions wait for.

CPython's full collection walks every tracked object not frozen: in a worker, the
objects of all its sessions (up to K apps, each a Textual DOM, 10–50 thousand objects).
The garbage the sessions leave is cyclic by Textual's design (a widget and its `Styles`
refer to each other, the compositor's and signals' closures, the timers' bound
methods): a closed dialog leaves 4–16 thousand objects that only the collector frees,
none of them in cycles of ours (tests/tui/test_dialog_garbage.py). So the collector is
left as it is (docs/decisions/terminal-sessions.md: keeping it to the young, freezing
the rest, was measured and dropped), and measured: a `gc.callbacks` hook times each
collection; the worker's beats carry the figures (worker.py) and the server logs a
pause over `PAUSE_AIM` (pool.py).
"""

from __future__ import annotations

import gc
import time
from typing import Any

PAUSE_AIM = 0.020  # seconds: a collection that pauses the sessions longer is logged


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
