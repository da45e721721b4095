"""Searching bots decide in worker processes, never on the event loop (issue 12).

A bot with a budget (`budget_s`, every game's `expert`, engine/search.py)
searches a few sampled worlds (`--bot-worlds`) within at most a second: run in
the server's loop, one such bot would stall every room.
The room hands a worker what the bot may know — its seat's view and the public
events from the game's start (the bot's `observe`) — and the worker builds a
fresh bot from them, decides and answers with the action. The pool is bounded
(`--bot-workers`, default one fewer than the cores, at least one) and so is its
queue: a search is a few tens of milliseconds (issue 20), so up to
`QUEUE_PER_WORKER` decisions per worker may wait their turn; beyond that the bot
decides as the game's default bot (`hard`) at once. A worker that crashes breaks
its executor; the pool starts a new one for the next decision and the rooms
waiting on the broken one decide as `hard`.

Reviews of finished games (issue 32, server/rooms/reviews.py) never take one of these
workers: they run in one worker process of their own, started on the first
review, at the lowest CPU priority (`REVIEW_NICE`), so a bot's search never
waits for a worker behind a review and the kernel gives the CPU to the loop and
the bots first (docs/decisions/32-server.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing import resource_tracker
from typing import Any

from modernart.engine.games import get_game

log = logging.getLogger("modernart.server")

DEFAULT_BUDGET_S = 1.0
# A worker's answer is awaited this long past the budget (spawning a worker and
# pickling cost a little), then the bot decides as `hard` and the answer is dropped.
GRACE_S = 2.0
# Under a clock (R12's hammer, a turn timeout) the answer must be back this long
# before it runs out, so the bot can still act; the search gets what is left after
# a worker's overhead (pickling, building worlds), but never less than the minimum.
ANSWER_MARGIN_S = 0.3
WORKER_OVERHEAD_S = 0.2
MIN_BUDGET_S = 0.05
# Decisions handed to the pool per worker at most (the one searching included): a
# search of the default few worlds takes tens of milliseconds, so a short queue
# costs a waiting bot little and spares it playing as `hard`.
QUEUE_PER_WORKER = 4
# The review worker's niceness increment (os.nice): 19, the lowest priority there is.
REVIEW_NICE = 19


def default_workers() -> int:
    """One fewer than the cores (the loop keeps one), at least one."""
    return max(1, (os.cpu_count() or 1) - 1)


def searches(bot: object) -> bool:
    """A bot with a time budget searches: it must decide in a worker."""
    return hasattr(bot, "budget_s")


def decide(
    game: str,
    level: str,
    view: dict[str, Any],
    events: list[dict[str, Any]],
    seed: int,
    budget_s: float,
    worlds: int | None = None,
) -> tuple[dict[str, Any] | None, int | None]:
    """In a worker: a fresh bot of `level` that has observed `events` decides on `view`
    within `budget_s` seconds and `worlds` sampled worlds (None: the game's own number,
    0: as many as the seconds allow).

    Returns the action and, in Modern Art's open auction (R12), the price cap the
    expert searched for this lot: the room then shouts up to it without asking again.
    """
    bot = get_game(game).make_bot(level, seed)
    bot.budget_s = budget_s  # type: ignore[attr-defined]
    if worlds is not None:
        bot.max_worlds = worlds or None  # type: ignore[attr-defined]
    observe = getattr(bot, "observe", None)
    if observe is not None:
        observe(events)
    action = bot.choose(view)
    open_cap = getattr(bot, "_open_cap", None)  # (lot, cap) once an open auction was searched
    return action, open_cap[1] if open_cap else None


def lower_priority() -> None:
    """The review worker's initializer: it runs only on CPU time the others leave (nice
    19, and on Linux the idle class, SCHED_IDLE: on a core only when no other task
    wants it; nice 19 alone still took a share of a busy core, docs/benchmarks.md)."""
    with contextlib.suppress(OSError):
        os.nice(REVIEW_NICE)
    with contextlib.suppress(OSError, AttributeError):  # Linux only
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def spawn_context() -> Any:
    """multiprocessing's spawn context, its resource tracker started first with the real
    standard error: inside a Textual app (a local game's in-process server) `sys.stderr`
    is Textual's capture, whose fileno is -1, and starting the tracker with it fails
    ("bad value(s) in fds_to_keep"), so no worker would start."""
    with contextlib.redirect_stderr(sys.__stderr__):
        resource_tracker.ensure_running()
    # spawn: a forked child would inherit the loop, sockets and threads.
    return multiprocessing.get_context("spawn")


def search_budget(budget_s: float, deadline_ms: int | None) -> tuple[float, float]:
    """(the search's budget, how long to wait for its answer) for a decision taken
    `deadline_ms` before a clock runs out (None: no clock)."""
    if deadline_ms is None:
        return budget_s, budget_s + GRACE_S
    limit = min(budget_s + GRACE_S, max(MIN_BUDGET_S, deadline_ms / 1000 - ANSWER_MARGIN_S))
    return min(budget_s, max(MIN_BUDGET_S, limit - WORKER_OVERHEAD_S)), limit


def lot_key(view: dict[str, Any]) -> tuple[Any, ...]:
    """Tells one Modern Art open auction (R12) from the next, as the expert does."""
    lot = view["lot"]
    return view["round"], tuple(lot["cards"]), lot["seller"], sum(view["counts"].values())


def shout_up_to(view: dict[str, Any], cap: int) -> dict[str, Any] | None:
    """R12 with a known cap: the high bidder waits; the lowest bid while it is within
    the cap, else pass (the expert's own rule once its cap is searched)."""
    legal = view["legal"]
    if view["high"] and view["high"]["seat"] == view["you"]:
        return None
    if "bid" in legal and legal["bid"][0] <= cap:
        return {"type": "bid", "amount": legal["bid"][0]}
    return {"type": "pass"} if "pass" in legal else None


@dataclass
class PoolStats:
    """Expert decisions, by how they were made (the load test reports the shares)."""

    full: int = 0  # searched in a worker with the whole budget
    quick: int = 0  # nothing to weigh (one candidate): answered on the loop at once
    reduced: int = 0  # searched with less, to answer before a clock runs out
    fallback: int = 0  # every worker busy and the queue full: decided as `hard` at once
    late: int = 0  # the worker's answer missed its deadline: decided as `hard`
    stale: int = 0  # the answer came after the game moved on: dropped
    crashed: int = 0  # lost to a worker's crash: decided as `hard`

    def count(self, full: bool) -> None:
        if full:
            self.full += 1
        else:
            self.reduced += 1

    def to_json(self) -> dict[str, int]:
        return dict(self.__dict__)


class BotPool:
    """A bounded pool of worker processes for searching bots."""

    def __init__(
        self,
        workers: int | None = None,
        budget_s: float = DEFAULT_BUDGET_S,
        worlds: int | None = None,
        queue_per_worker: int = QUEUE_PER_WORKER,
    ) -> None:
        self.workers = workers or default_workers()
        self.budget_s = budget_s
        self.worlds = worlds
        self.queue_per_worker = queue_per_worker
        self.busy = 0  # decisions handed to a worker and not answered yet
        self.stats = PoolStats()
        self._executor: ProcessPoolExecutor | None = None
        self._reviewer: ProcessPoolExecutor | None = None  # the review worker, once started
        # How the review worker starts: at the lowest priority. The tests of reviews on a
        # busy machine set None (normal priority): an idle-class worker there waits for a
        # core no other test wants, for minutes (docs/decisions/29-vtime.md).
        self.review_initializer: Callable[[], None] | None = lower_priority

    def warm(self, game: str) -> None:
        """Start a worker and import the game there before the first search needs it
        (spawning and importing take about a second). Not counted as busy: a search
        submitted meanwhile simply starts when the import is done."""
        if self._executor is None:
            self._start().submit(get_game, game)

    def free(self) -> bool:
        """Room for one more decision: a worker free, or a short wait for one."""
        return self.busy < self.workers * self.queue_per_worker

    def submit(self, fn: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """Run `fn(*args)` in a worker; the future fails with BrokenProcessPool if the
        worker dies. A broken executor is replaced before the next submission."""
        executor = self._executor or self._start()
        try:
            done = executor.submit(fn, *args)
        except BrokenProcessPool:  # broke before its futures told us
            self._renew(executor)
            return self.submit(fn, *args)
        self.busy += 1
        future = asyncio.wrap_future(done)
        future.add_done_callback(lambda f: self._answered(f, executor))
        return future

    def submit_review(self, fn: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """Run `fn(*args)` in the review worker (one process, lowest priority); the
        future fails with BrokenProcessPool if it dies, and the next review starts
        a new one."""
        executor = self._reviewer
        if executor is None:
            context = spawn_context()
            executor = ProcessPoolExecutor(
                1, mp_context=context, initializer=self.review_initializer
            )
            self._reviewer = executor
        try:
            done = executor.submit(fn, *args)
        except BrokenProcessPool:
            self._drop_reviewer(executor)
            return self.submit_review(fn, *args)
        future = asyncio.wrap_future(done)
        future.add_done_callback(lambda f: self._reviewed(f, executor))
        return future

    def _reviewed(self, future: asyncio.Future[Any], executor: ProcessPoolExecutor) -> None:
        if not future.cancelled() and isinstance(future.exception(), BrokenProcessPool):
            log.error("the review worker process died; the next review starts a new one")
            self._drop_reviewer(executor)

    def _drop_reviewer(self, executor: ProcessPoolExecutor) -> None:
        if self._reviewer is executor:
            self._reviewer = None
            executor.shutdown(wait=False, cancel_futures=True)

    def _start(self) -> ProcessPoolExecutor:
        self._executor = ProcessPoolExecutor(self.workers, mp_context=spawn_context())
        return self._executor

    def _answered(self, future: asyncio.Future[Any], executor: ProcessPoolExecutor) -> None:
        self.busy -= 1
        if not future.cancelled() and isinstance(future.exception(), BrokenProcessPool):
            self.stats.crashed += 1
            self._renew(executor)

    def _renew(self, executor: ProcessPoolExecutor) -> None:
        if self._executor is executor:
            log.error("a bot worker process died; starting new workers")
            self._executor = None
            executor.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the workers; searches and reviews under way are abandoned (their rooms
        are stopping; a review not stored is computed again when asked)."""
        for executor in (self._executor, self._reviewer):
            if executor is not None:
                executor.shutdown(wait=False, cancel_futures=True)
        self._executor = self._reviewer = None
