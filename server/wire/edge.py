"""The edge: one client frame decoded once into its typed message (server/wire/messages.py).

msgspec's msgpack Decoder reads the bytes straight into the Struct (no dict in
between); only a frame it refuses is read again, with msgpack, for its `id` and
`t`, so the error still carries the request's `re` and names the field in the
words clients have always had ("`seats` must be an integer").
"""

from __future__ import annotations

import re
from typing import Any

import msgpack
import msgspec

from modernart.server.rooms.fields import is_int
from modernart.server.wire.codec import MAX_FRAME, BadMessage
from modernart.server.wire.messages import ClientMessage, Message

_DECODER = msgspec.msgpack.Decoder(ClientMessage)


class BadFrame(BadMessage):
    """A refused frame, with the request's `id` when it had a readable one."""

    def __init__(self, message: str, rid: int | None) -> None:
        super().__init__(message)
        self.rid = rid


def decode_message(frame: object) -> Message:
    """One client frame as its typed message; BadFrame otherwise."""
    if isinstance(frame, str):
        raise BadFrame("text frames are not accepted; send binary msgpack", None)
    if not isinstance(frame, bytes | bytearray | memoryview):
        raise BadFrame("unreadable frame", None)
    if len(frame) > MAX_FRAME:
        raise BadFrame(f"frame larger than {MAX_FRAME} bytes", None)
    try:
        return _DECODER.decode(frame)
    except msgspec.ValidationError as exc:
        said = str(exc)  # msgspec stops at the first wrong field: the frame may be cut too
    except msgspec.DecodeError:
        said = "not a msgpack value"
    try:  # the frame as msgpack reads it, for its `id` and `t`
        raw = msgpack.unpackb(frame, raw=False, strict_map_key=False)
    except Exception as exc:  # msgpack raises many types for bad input
        raise BadFrame(f"not a msgpack value: {type(exc).__name__}", None) from None
    raise _explained(raw, said)


_AT = re.compile(r"^(?P<what>.*?)(?: - at `\$\.(?P<field>\w+)`)?$", re.S)
_KINDS = {
    "str": "a string",
    "int": "an integer",
    "bool": "true or false",
    "object": "a map",
    "array": "a list",
}


def _explained(raw: Any, said: str) -> BadFrame:
    """msgspec's reason for refusing `raw` (a decoded msgpack value) in today's words."""
    if not isinstance(raw, dict):
        return BadFrame("a message must be a msgpack map", None)
    rid = raw.get("id")
    if "id" in raw and not is_int(rid):
        return BadFrame("`id` must be an integer", None)
    kind = raw.get("t")
    if not isinstance(kind, str):
        return BadFrame("a message needs a string `t`", rid)
    match = _AT.match(said)
    what, field = (match["what"], match["field"]) if match else (said, None)
    if field == "t":
        return BadFrame(f"unknown message type {kind!r}"[:200], rid)
    if field is None:
        missing = re.match(r"Object missing required field `(\w+)`", what)
        return BadFrame(f"`{missing[1]}` is required" if missing else what, rid)
    return BadFrame(field_error(field, what, _BOUNDS.get((kind, field))), rid)


def field_error(field: str, what: str, bounds: tuple[int, int, bool] | None) -> str:
    """msgspec's "Expected `int`, got `str`" → "`seats` must be an integer"; a range or
    length error → "`page` must be from 0 to 100000" (`bounds`: lo, hi, is text)."""
    expected = re.match(r"Expected `([\w |]+)`, got ", what)
    if expected:
        if field == "variant":  # `create`'s: a preset's name or the game's own map
            return "`variant` must be a preset name or a map"
        kinds = [_KINDS.get(k, k) for k in expected[1].split(" | ") if k != "null"]
        return f"`{field}` must be {' or '.join(kinds)}"
    if bounds is not None:
        lo, hi, is_text = bounds
        if is_text:
            return f"`{field}` must have {lo} to {hi} characters"
        return f"`{field}` must be from {lo} to {hi}"
    return f"`{field}`: {what}"


def _bounds() -> dict[tuple[str, str], tuple[int, int, bool]]:
    """(t, field) → (lo, hi, is text) of every bounded field, from the Structs."""
    found: dict[tuple[str, str], tuple[int, int, bool]] = {}
    union = msgspec.inspect.type_info(ClientMessage)
    assert isinstance(union, msgspec.inspect.UnionType)
    for struct in union.types:
        assert isinstance(struct, msgspec.inspect.StructType)
        for field in struct.fields:
            options = (
                field.type.types
                if isinstance(field.type, msgspec.inspect.UnionType)
                else (field.type,)
            )
            for option in options:
                if isinstance(option, msgspec.inspect.StrType) and option.max_length is not None:
                    found[struct.tag, field.name] = (
                        option.min_length or 0,
                        option.max_length,
                        True,
                    )
                elif isinstance(option, msgspec.inspect.IntType) and option.le is not None:
                    found[struct.tag, field.name] = (option.ge or 0, option.le, False)
    return found


_BOUNDS = _bounds()
