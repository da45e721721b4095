"""A game's applied actions, kept packed: what records and restores are made of.

Each game appends every action it applies (`Game.actions`) for its record
(RECORD.md) and for the server's store. Kept as dicts, an action cost about
230 bytes plus its strings, 40 KB and more a game, for as long as the game runs
in a server (issue 21); packed (msgpack, one after another in one `bytearray`,
with each action's end in an array) it costs its bytes, about 25. Reading gives
fresh dicts equal to the ones appended (msgpack keeps a map's order; a tuple
comes back a list, as from a record's JSON). Searches' copies of a game use a
plain list instead (the worlds' `actions = []`): appending there is cheaper.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator
from typing import Any, overload

import msgpack

_PACK = msgpack.Packer(use_bin_type=True).pack


def _unpack(data: bytes | bytearray | memoryview) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


class ActionLog:
    """A list-like, append-only sequence of actions (dicts), stored packed."""

    __slots__ = ("_data", "_ends")

    def __init__(self, actions: Iterable[dict[str, Any]] = ()) -> None:
        self._data = bytearray()
        self._ends = array("I")
        for action in actions:
            self.append(action)

    def append(self, action: dict[str, Any]) -> None:
        self._data += _PACK(action)
        self._ends.append(len(self._data))

    def __len__(self) -> int:
        return len(self._ends)

    def _item(self, index: int) -> dict[str, Any]:
        start = self._ends[index - 1] if index else 0
        return _unpack(memoryview(self._data)[start : self._ends[index]])

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            return [self._item(i) for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("action index out of range")
        return self._item(index)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
        unpacker.feed(bytes(self._data))
        return iter(unpacker)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ActionLog):
            return self._data == other._data and self._ends == other._ends
        if isinstance(other, list):
            return list(self) == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, as a list

    def __repr__(self) -> str:
        return f"ActionLog({list(self)!r})"
