"""What the server sends in one turn of the event loop, written at the turn's end.

Every frame for a client goes into its connection's queue (`Conn.send_framed`),
and one callback at the end of the loop's turn (`loop.call_soon` at the turn's
first frame) first commits the store's open transaction — the actions and update
numbers of every room that changed in the turn (`Store.batched`) — and then
writes each connection's queue in one `transport.write`, in the order the frames
were queued (issue 21: one write per member per update, and one commit per act,
were the server's two largest costs). So an act is still stored before anyone
hears of it, a connection's frames keep their order, and a connection gets one
write per flush. A busy server's turn can be long: frames that have waited HOLD_S
are flushed before the next message is handled (`due`), not at the turn's end.

A failed commit loses the turn's batched changes of the rooms in it
(`Store.commit_batch` names them with what the store still holds): their frames
of the turn are dropped unsent (they are tagged with their room), and each such
room goes back to the stored state and sends its members that state afresh
(`Room.rewind`). Frames of other rooms, and untagged ones (replies, chat,
lists), are written as usual.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

Lost = dict[str, tuple[int | None, int]]  # room id -> (actions stored, last stored seq)
# A busy loop's turn can last tens of milliseconds: frames held this long are written
# (and their changes committed) at the next message's start, not at the turn's end.
HOLD_S = 0.005


class Queued(Protocol):
    """A connection with frames waiting (server/wire/session.py's `Conn`)."""

    def write_queued(self, lost: Lost) -> None: ...


@dataclass
class OutboxStats:
    """Counts for the load test (logged at the server's exit)."""

    frames: int = 0
    writes: int = 0
    turns: int = 0
    commits: int = 0
    batched: int = 0  # rows written in the commits

    def to_json(self) -> dict[str, int]:
        return dict(vars(self))


class Outbox:
    """The connections with frames queued this turn, and the turn's end."""

    def __init__(
        self,
        commit: Callable[[], tuple[Lost, int]] | None = None,
        rewind: Callable[[Lost], None] | None = None,
    ) -> None:
        self._commit = commit  # the store's commit of the turn: (lost rooms, rows)
        self._rewind = rewind  # the rooms a failed commit lost go back to the stored state
        self._waiting: list[Queued] = []
        self._handle: asyncio.Handle | None = None
        self._batch = False  # the store began a batch this turn (`batch_begun`)
        self._since = 0.0  # loop time of the turn's first frame or batched write
        self._loop: asyncio.AbstractEventLoop | None = None
        self.stats = OutboxStats()

    def queued(self, conn: Queued) -> None:
        """`conn`'s queue was empty and now holds a frame."""
        self._waiting.append(conn)
        self.schedule()

    def schedule(self) -> None:
        """The turn's end will flush (a frame was queued, or the store began a batch)."""
        if self._handle is None:
            loop = self._loop = asyncio.get_running_loop()
            self._since = loop.time()
            self._handle = loop.call_soon(self.flush)

    def due(self) -> None:
        """Before a message is handled (no room is in the middle of a change then):
        frames held for HOLD_S already go now, so a long turn of a busy server delays
        no update by more than that (the batch is committed first, as at the turn's end)."""
        loop = self._loop
        if self._handle is not None and loop is not None and loop.time() - self._since >= HOLD_S:
            self.flush()

    def batch_begun(self) -> None:
        """The store began the turn's transaction (`Store.batch_opened`)."""
        self._batch = True
        self.schedule()

    def flush_for(self, conn: Queued) -> None:
        """`conn`'s frames now, before a write of websockets' own (a ping, a pong, the
        close frame): with nothing uncommitted in the turn, its queue alone."""
        if self._batch:
            self.flush()
        else:
            conn.write_queued({})

    def flush(self) -> None:
        """Commit, then write every queue: the turn's end (or a write of websockets'
        own, a ping or a close, that must not overtake the frames queued before it)."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        stats = self.stats
        stats.turns += 1
        self._batch = False
        lost: Lost = {}
        if self._commit is not None:
            lost, rows = self._commit()
            if rows:
                stats.commits += 1
                stats.batched += rows
        waiting, self._waiting = self._waiting, []
        for conn in waiting:
            conn.write_queued(lost)
        if lost and self._rewind is not None:
            self._rewind(lost)  # queues the stored state for the members: the next turn's
