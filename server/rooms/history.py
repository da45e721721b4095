"""A room's public event history, for the `history` request (docs/protocol.md addition).

Only events every member of the room was sent go in, so the history holds
nothing a member could not have seen live: no hand, no money before the end,
no sealed bid before the reveal, no deck. The hammer's `going` ticks are left
out (they say nothing once the lot is sold).

The history is kept packed (issue 21): each update's events as msgpack items
one after the other in one `bytearray`, with the update's number, event count
and end offset in arrays beside it. A kept event costs its packed bytes (about
40) instead of a dict and its values (about 250), and a `history` answer is a
slice of those bytes under one array header, never a packing of dicts.

Presence (`connected`, `disconnected`, `left`) is coalesced: between two other
updates each seat keeps only its latest presence event, so a client that
reconnects in a loop adds at most one event per seat to the history between
two moves of the game, however often it does.
"""

from __future__ import annotations

from array import array
from typing import Any

import msgpack

from modernart.engine import Record, record_of
from modernart.engine.games import GameState
from modernart.server.wire.codec import array_header, encode

SKIPPED = frozenset({"going"})
PRESENCE = frozenset({"connected", "disconnected", "left"})


class History:
    """The packed events of the room's updates, in the order they were broadcast."""

    def __init__(self) -> None:
        self._data = bytearray()
        self._seqs = array("q")  # each kept update's number
        self._counts = array("q")  # how many events it holds
        self._ends = array("q")  # where its packed events end in _data
        # Kept updates at the end that hold one presence event: (seat, index).
        self._presence: list[tuple[Any, int]] = []
        self._restored: Record | None = None  # a restored game whose events are not built yet

    def __len__(self) -> int:
        """Events kept (a restored game's count once they are built)."""
        self._build()
        return sum(self._counts)

    @property
    def nbytes(self) -> int:
        return len(self._data)

    def add(self, seq: int, events: list[dict[str, Any]]) -> None:
        self._build()
        kept = [e for e in events if e.get("type") not in SKIPPED]
        if not kept:
            return
        if len(kept) == 1 and kept[0].get("type") in PRESENCE:
            seat = kept[0].get("seat")
            for i, (other, index) in enumerate(self._presence):
                if other == seat:
                    self._drop(index)
                    del self._presence[i]
                    self._presence = [(s, j - 1 if j > index else j) for s, j in self._presence]
                    break
            self._append(seq, kept)
            self._presence.append((seat, len(self._seqs) - 1))
            return
        self._presence.clear()
        self._append(seq, kept)

    def _append(self, seq: int, events: list[dict[str, Any]]) -> None:
        self._data += b"".join(encode(e) for e in events)
        self._seqs.append(seq)
        self._counts.append(len(events))
        self._ends.append(len(self._data))

    def _drop(self, index: int) -> None:
        """Forget one kept update (one of the last few: presence being coalesced)."""
        start = self._ends[index - 1] if index else 0
        size = self._ends[index] - start
        del self._data[start : self._ends[index]]
        del self._seqs[index], self._counts[index], self._ends[index]
        for i in range(index, len(self._ends)):
            self._ends[i] -= size

    def drop_after(self, seq: int) -> None:
        """Forget the updates numbered after `seq` (a failed commit lost them)."""
        self._build()
        first = self._first_after(seq)
        if first == len(self._seqs):
            return
        del self._data[self._ends[first - 1] if first else 0 :]
        del self._seqs[first:], self._counts[first:], self._ends[first:]
        self._presence = [(s, i) for s, i in self._presence if i < first]

    def _first_after(self, seq: int) -> int:
        """The index of the first kept update numbered after `seq` (numbers grow)."""
        seqs = self._seqs
        lo, hi = 0, len(seqs)
        while lo < hi:
            mid = (lo + hi) // 2
            if seqs[mid] > seq:
                hi = mid
            else:
                lo = mid + 1
        return lo

    def since(self, seq: int) -> list[dict[str, Any]]:
        """The events of the updates numbered after `seq`, oldest first."""
        count, data, _ = self.page(seq, None)
        unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
        unpacker.feed(data)
        return [next(unpacker) for _ in range(count)]

    def page(self, seq: int, budget: int | None) -> tuple[int, bytes, int | None]:
        """(event count, packed events, last update covered) of the updates after
        `seq`, as many whole updates as fit in `budget` bytes (at least one); the
        last item is None when every one fits (the page is the rest)."""
        self._build()
        first = self._first_after(seq)
        last = len(self._seqs)
        if first == last:
            return 0, b"", None
        start = self._ends[first - 1] if first else 0
        end = self._ends[-1]
        upto = None
        if budget is not None and end - start > budget:
            last = first + 1
            while last < len(self._ends) and self._ends[last] - start <= budget:
                last += 1
            end = self._ends[last - 1]
            upto = self._seqs[last - 1]
        count = sum(self._counts[first:last])
        return count, bytes(self._data[start:end]), upto

    def packed_since(self, seq: int, budget: int | None) -> tuple[bytes, int | None]:
        """The `events` array of a `history` answer, packed, and its last update
        when more follows (see `page`)."""
        count, data, upto = self.page(seq, budget)
        return array_header(count) + data, upto

    @classmethod
    def replayed(cls, game: GameState) -> History:
        """After a server restart: the game's events, rebuilt from its actions when first
        needed (a restart restores every room; few are asked for their history). The
        numbers of the original updates are not stored, so they are all numbered 0:
        a full history (no `since`) holds them, a reconnecting client's does not."""
        history = cls()
        history._restored = record_of(game)
        return history

    def _build(self) -> None:
        """A restored game's events, as one update numbered 0 (a page never splits
        it). Every other method builds first, so nothing is kept before them."""
        record, self._restored = self._restored, None
        if record is None:
            return
        game = record.new_game()
        rebuilt: list[dict[str, Any]] = []
        for action in record.actions:
            rebuilt.extend(e for e in game.apply(action) if e.get("type") not in SKIPPED)
        if rebuilt:
            self._append(0, rebuilt)
