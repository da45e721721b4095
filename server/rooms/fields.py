"""Strict readers for `create`'s options, whose ranges are the game's (the messages
themselves are typed: server/wire/messages.py); wrong types or ranges raise BadMessage.

Booleans and floats are not integers (PROTOCOL.md).
"""

from __future__ import annotations

from typing import Any

from modernart.server.wire.codec import BadMessage

_MISSING = object()


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def get_int(msg: dict[str, Any], key: str, lo: int, hi: int, *, default: Any = _MISSING) -> Any:
    value = msg.get(key, _MISSING)
    if value is _MISSING or (value is None and default is not _MISSING):
        if default is _MISSING:
            raise BadMessage(f"`{key}` is required")
        return default
    if not is_int(value):
        raise BadMessage(f"`{key}` must be an integer")
    if not lo <= value <= hi:
        raise BadMessage(f"`{key}` must be from {lo} to {hi}")
    return value
