"""The `review` request (issue 32; docs/protocol.md addition): the expert's review of a
finished game, computed once, off the loop, at the lowest priority, and stored.

Anybody who may have a game's record may have its review (server/rooms/records.py, the
rule every door shares), and only once the game is finished: a running game's
review would tell what the expert thinks of the hands in play. A stored review is
answered at once. Otherwise the room gets one job, which every asker of that room
joins (two players asking at once share one computation); jobs wait in a bounded
queue and run one at a time in the bots' pool's review worker (server/rooms/botpool.py:
a process of its own at the lowest CPU priority, so a bot's turn never waits
behind a review). A job is computed in parts (server/rooms/reviewwork.py); after each,
every asker still connected gets `reviewing {room, done, total}`, and at the end
`review {room, review}` (a connection that asks again while it waits: to its newest
request only). Each identity may have one review of its own asking queued or
running at a time.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from modernart.engine import Record
from modernart.engine.review import DEFAULT_WORLDS, ReviewError, review_head
from modernart.server.rooms.records import ROOM_ID, visible_record
from modernart.server.rooms.reviewwork import decision_steps, part_size, review_part
from modernart.server.store.sqlite import Store, StoreError
from modernart.server.wire.messages import Review
from modernart.server.wire.refusal import Refused, error, reply

if TYPE_CHECKING:
    from modernart.server.rooms.botpool import BotPool
    from modernart.server.wire.session import Conn

log = logging.getLogger("modernart.server")

REVIEW_QUEUE = 8  # reviews waiting or running, server-wide; one more is refused (busy)
SEED = 0  # the review's seed: the server's review is `modernart review FILE`'s
BUSY = "the reviewer is busy, try later"


@dataclass(eq=False)
class Job:
    """One room's review being computed, and whoever waits for it."""

    room: str
    record: Record
    owner: str  # the identity whose request started it (its one review at a time)
    steps: list[int]  # the steps of the decisions to review
    decisions: list[dict[str, Any]] = field(default_factory=list)
    waiting: list[tuple[Conn, int | None]] = field(default_factory=list)  # (conn, its `re`)

    @property
    def total(self) -> int:
        return len(self.steps)

    def progress(self, rid: int | None) -> dict[str, Any]:
        return reply(
            {"t": "reviewing", "room": self.room, "done": len(self.decisions), "total": self.total},
            rid,
        )


class Reviewer:
    def __init__(
        self, store: Store, bots: BotPool, worlds: int = DEFAULT_WORLDS, queue: int = REVIEW_QUEUE
    ) -> None:
        self.store = store
        self.bots = bots
        self.worlds = worlds
        self.queue_size = queue
        self.jobs: dict[str, Job] = {}  # by room: queued or running
        self._queued: deque[Job] = deque()
        self._running: Job | None = None
        self._owners: dict[str, str] = {}  # identity -> the room of its job
        self.computed = 0  # reviews computed to the end (the tests count them)
        self.work = review_part  # what the worker runs (tests hold it: a picklable function)

    def on_review(self, conn: Conn, msg: Review, rid: int | None) -> None:
        assert conn.identity is not None  # handlers run after hello
        room_id = msg.room
        viewer = conn.identity.id
        record = self._reviewable(viewer, room_id)
        stored = self.store.stored_review(room_id)
        if stored is not None:
            conn.send(reply({"t": "review", "room": room_id, "review": stored}, rid))
            return
        job = self.jobs.get(room_id)
        if job is None:
            mine = self._owners.get(viewer)
            if mine is not None:
                raise Refused(
                    "limit_reached",
                    f"your review of game {mine} is under way; one review at a time",
                )
            if len(self.jobs) >= self.queue_size:
                raise Refused("limit_reached", BUSY)
            job = Job(room_id, record, viewer, decision_steps(record))
            self.jobs[room_id] = job
            self._owners[viewer] = room_id
            self._queued.append(job)
        # One place per connection: asked again, the newest request gets the answers
        # (a client repeating its request cannot multiply the progress it is sent).
        job.waiting = [(c, r) for c, r in job.waiting if c is not conn] + [(conn, rid)]
        conn.send(job.progress(rid))
        self._next()

    def _reviewable(self, viewer: str, room_id: str) -> Record:
        """The record of a finished game `viewer` may see; `Refused` otherwise."""
        stored = self.store.room(room_id) if ROOM_ID.fullmatch(room_id) else None
        if stored is None or stored.header is None:
            raise Refused("no_such_room", f"no game {room_id!r}")
        if stored.status in ("waiting", "playing"):
            raise Refused("not_allowed", "the game is still running: it is reviewed once finished")
        if stored.status != "finished":
            raise Refused("not_allowed", "only a finished game is reviewed (this one was not)")
        return visible_record(self.store, viewer, room_id)  # a locked room: its players'

    def _next(self) -> None:
        """Start the next queued job when none is running."""
        if self._running is None and self._queued:
            self._running = self._queued.popleft()
            self._part(self._running)

    def _part(self, job: Job) -> None:
        if not job.steps:
            self._finish(job)
            return
        start = job.steps[len(job.decisions)]
        try:
            future = self.bots.submit_review(
                self.work, job.record, self.worlds, SEED, start, part_size(job.total)
            )
        except Exception:  # no worker could start: this job ends, the next may try
            log.exception("reviewing room %s: no worker", job.room)
            self._end(job, lambda rid: error("internal", "the reviewer could not start", rid))
            return
        future.add_done_callback(lambda f: self._answered(job, f))

    def _answered(self, job: Job, future: asyncio.Future[Any]) -> None:
        if self._running is not job:  # the server is stopping
            return
        try:
            part = future.result()
        except ReviewError as exc:
            message = f"no review: {exc}"
            self._end(job, lambda rid: error("not_allowed", message, rid))
            return
        except (Exception, asyncio.CancelledError):  # a crashed or stopped worker
            log.exception("reviewing room %s failed", job.room)
            message = "the review failed; try again later"
            self._end(job, lambda rid: error("internal", message, rid))
            return
        if not part:  # cannot be: the steps were counted from the record
            self._end(job, lambda rid: error("internal", "the review failed", rid))
            return
        job.decisions.extend(part)
        job.waiting = [(c, rid) for c, rid in job.waiting if not c.closed]
        if len(job.decisions) < job.total:
            for conn, rid in job.waiting:
                conn.send(job.progress(rid))
            self._part(job)
        else:
            self._finish(job)

    def _finish(self, job: Job) -> None:
        result = {**review_head(job.record, self.worlds), "decisions": job.decisions}
        self.computed += 1
        try:
            self.store.save_review(job.room, result)
        except StoreError as exc:  # served all the same; computed again when next asked
            log.error("%s", exc)
        self._end(job, lambda rid: reply({"t": "review", "room": job.room, "review": result}, rid))

    def _end(self, job: Job, answer: Any) -> None:
        """The job is over: each asker gets `answer(its re)`; the next job starts."""
        for conn, rid in job.waiting:
            if not conn.closed:
                conn.send(answer(rid))
        del self.jobs[job.room]
        if self._owners.get(job.owner) == job.room:
            del self._owners[job.owner]
        self._running = None
        self._next()

    def stop(self) -> None:
        """The server stops: jobs are dropped (a review is computed again when asked)."""
        self._running = None
        self._queued.clear()
        self.jobs.clear()
        self._owners.clear()
