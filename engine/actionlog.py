"""A game's applied actions, kept packed: what records and restores are made of.

Each game appends every action it applies (`Game.actions`) for its record
(RECORD.md) and for the server's store. Kept as dicts, an action cost about
230 bytes plus its strings, 40 KB and more a game, for as long as the game runs
in a server (issue 21); packed (msgpack, one after another in one `bytearray`,
with each action's end in an array) it costs its bytes, about 25. Reading gives
fresh dicts equal to the ones appended (msgpack keeps a map's order; a tuple
comes back a list, as from a record's JSON). Searches' copies of a game use a
plain list instead (the worlds' `actions = []`): appending there is cheaper.

Packing is lazy (issue 31): an appended action waits in a short list and is
packed, with the others waiting, when the log is read or when `PENDING` wait:
packing each action as it came cost live games and random play dearly. The log
keeps the dict `Game.apply` made (its own copy of the action), so what waits
is what was appended.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator
from itertools import accumulate, islice
from typing import Any, overload

import msgpack

_PACK = msgpack.Packer(use_bin_type=True).pack
PENDING = 32  # actions appended and not yet packed, at most (a few KB a game)


def _unpack(data: bytes | bytearray | memoryview) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


class ActionLog:
    """A list-like, append-only sequence of actions (dicts), stored packed."""

    __slots__ = ("_data", "_ends", "_pending")

    def __init__(self, actions: Iterable[dict[str, Any]] = ()) -> None:
        self._data = bytearray()
        self._ends = array("I")
        self._pending: list[dict[str, Any]] = []
        self._pending.extend(actions)
        self._pack()  # packed now: the caller's dicts are not kept

    def append(self, action: dict[str, Any]) -> None:
        pending = self._pending
        pending.append(action)
        if len(pending) >= PENDING:
            self._pack()

    def _pack(self) -> None:
        """Pack the actions waiting, all at once."""
        pending = self._pending
        if pending:
            packed = list(map(_PACK, pending))
            data = self._data
            self._ends.extend(islice(accumulate(map(len, packed), initial=len(data)), 1, None))
            data += b"".join(packed)
            pending.clear()

    def __len__(self) -> int:
        return len(self._ends) + len(self._pending)

    def _item(self, index: int) -> dict[str, Any]:
        start = self._ends[index - 1] if index else 0
        return _unpack(memoryview(self._data)[start : self._ends[index]])

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        self._pack()  # a read is a fresh dict, as unpacked
        if isinstance(index, slice):
            return [self._item(i) for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("action index out of range")
        return self._item(index)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        self._pack()
        unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
        unpacker.feed(bytes(self._data))
        return iter(unpacker)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ActionLog):
            self._pack()
            other._pack()
            return self._data == other._data and self._ends == other._ends
        if isinstance(other, list):
            return list(self) == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, as a list

    def __repr__(self) -> str:
        return f"ActionLog({list(self)!r})"
