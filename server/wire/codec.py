"""Frames on the wire: one msgpack map per binary WebSocket frame (PROTOCOL.md)."""

from __future__ import annotations

from typing import Any

import msgpack

# PROTOCOL.md: frames over 64 KiB get bad_message. The transport enforces it
# too, on the assembled message while its fragments arrive (server/wire/app.py).
MAX_FRAME = 64 * 1024


class BadMessage(ValueError):
    """Anything malformed from a client: answered with `error bad_message`."""


# One packer for every frame: `msgpack.packb` builds a new `Packer` per call, which
# cost as much as packing a small map (issue 21). The loop's thread is the only user.
_PACK = msgpack.Packer(use_bin_type=True).pack


def encode(message: dict[str, Any]) -> bytes:
    """`msgpack.packb(message, use_bin_type=True)` (tests/server/test_fast_paths.py)."""
    return _PACK(message)


def map_header(size: int) -> bytes:
    """The msgpack header of a map with `size` entries (fixmap or map 16)."""
    if size <= 15:
        return bytes((0x80 | size,))
    if size <= 0xFFFF:
        return bytes((0xDE, size >> 8, size & 0xFF))
    raise ValueError("map too large")


def array_header(size: int) -> bytes:
    """The msgpack header of an array with `size` items (fixarray, array 16 or 32)."""
    if size <= 15:
        return bytes((0x90 | size,))
    if size <= 0xFFFF:
        return bytes((0xDC, size >> 8, size & 0xFF))
    return b"\xdd" + size.to_bytes(4, "big")


def encode_entries(message: dict[str, Any]) -> bytes:
    """A map's entries as msgpack without the map header: entries packed apart can be
    joined under one `map_header` of their total count (each update's shared part is
    packed once and reused for every member)."""
    return encode(message)[len(map_header(len(message))) :]


def ws_frame(payload: bytes) -> bytes:
    """`payload` as one final, unmasked binary WebSocket frame (RFC 6455 §5.2), the
    bytes a server writes: a frame shared by many members is framed once and the
    same bytes go to each socket (server/wire/session.py's `Conn.send_framed`)."""
    length = len(payload)
    if length < 126:
        return bytes((0x82, length)) + payload
    if length < 65536:
        return bytes((0x82, 126, length >> 8, length & 0xFF)) + payload
    return bytes((0x82, 127)) + length.to_bytes(8, "big") + payload
