"""A game's applied actions, kept packed: what records and restores are made of.

Each game appends every action it applies (`Game.actions`) for its record
(RECORD.md) and for the server's store. Kept as dicts, an action cost about
230 bytes plus its strings, 40 KB and more a game, for as long as the game runs
in a server (issue 21); packed (msgpack) it costs its bytes, about 25. Reading gives
fresh dicts equal to the ones appended (msgpack keeps a map's order; a tuple
comes back a list, as from a record's JSON). Searches' copies of a game use a
plain list instead (the worlds' `actions = []`): appending there is cheaper.

Packing is lazy (issue 31): an appended action waits in a short list; the
actions waiting are packed together, as one msgpack array (a chunk), when the
log is read or when `PENDING` wait. Packing each action on its own as it came
cost live games and random play a fifth of their time. The log keeps the dict
`Game.apply` made (its own copy of the action), so what waits is what was
appended. The chunks lie one after another in one `bytearray`; two arrays hold
where each ends and how many actions the log holds up to its end.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from itertools import chain
from typing import Any, overload

import msgpack

_PACK = msgpack.Packer(use_bin_type=True).pack
PENDING = 32  # actions appended and not yet packed, at most (a few KB a game)


def _unpack(data: bytes | bytearray | memoryview) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


class ActionLog:
    """A list-like, append-only sequence of actions (dicts), stored packed."""

    __slots__ = ("_counts", "_data", "_ends", "_pending")

    def __init__(self, actions: Iterable[dict[str, Any]] = ()) -> None:
        self._data = bytearray()
        self._ends = array("I")  # each chunk's end in _data
        self._counts = array("I")  # how many actions the chunks hold up to each one's end
        self._pending: list[dict[str, Any]] = list(actions)
        self._pack()  # packed now: the caller's dicts are not kept

    def append(self, action: dict[str, Any]) -> None:
        pending = self._pending
        pending.append(action)
        if len(pending) >= PENDING:
            self._pack()

    def _pack(self) -> None:
        """Pack the actions waiting as one chunk."""
        pending = self._pending
        if pending:
            counts = self._counts
            counts.append((counts[-1] if counts else 0) + len(pending))
            self._data += _PACK(pending)
            self._ends.append(len(self._data))
            pending.clear()

    def __len__(self) -> int:
        counts = self._counts
        return (counts[-1] if counts else 0) + len(self._pending)

    def _item(self, index: int) -> dict[str, Any]:
        chunk = bisect_right(self._counts, index)
        start, first = (self._ends[chunk - 1], self._counts[chunk - 1]) if chunk else (0, 0)
        return _unpack(memoryview(self._data)[start : self._ends[chunk]])[index - first]

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        self._pack()  # a read is a fresh dict, as unpacked
        if isinstance(index, slice):
            return list(self)[index]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("action index out of range")
        return self._item(index)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        self._pack()
        unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
        unpacker.feed(bytes(self._data))
        return chain.from_iterable(unpacker)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ActionLog):  # as packed: True and 1 differ, as in a record
            return list(map(_PACK, self)) == list(map(_PACK, other))
        if isinstance(other, list):
            return list(self) == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, as a list

    def __repr__(self) -> str:
        return f"ActionLog({list(self)!r})"
