"""The read fast path of `GuardedConnection.data_received` (issue 21) against
websockets' own parser: the same client bytes, cut into the same chunks, must give
the same messages, the same bytes written back (pongs, close frames, errors) and the
same end state — for whole binary frames, and every kind of stream around them."""

from __future__ import annotations

import asyncio
import random
import struct
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from websockets.asyncio.connection import Connection
from websockets.asyncio.server import ServerConnection
from websockets.client import ClientProtocol
from websockets.datastructures import Headers
from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import State
from websockets.server import ServerProtocol
from websockets.uri import parse_uri
from websockets.utils import apply_mask

from modernart.server.wire.app import GuardedConnection
from modernart.server.wire.codec import MAX_FRAME


class Wire(asyncio.Transport):
    """A transport that keeps what the connection writes and does."""

    def __init__(self) -> None:
        super().__init__()
        self.written = bytearray()
        self.done: list[str] = []

    def write(self, data: Any) -> None:
        self.written += data

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def is_closing(self) -> bool:
        return bool(self.done)

    def close(self) -> None:
        self.done.append("close")

    def abort(self) -> None:
        self.done.append("abort")

    def write_eof(self) -> None:
        self.done.append("eof")

    def can_write_eof(self) -> bool:
        return True

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def set_write_buffer_limits(self, high: Any = None, low: Any = None) -> None:
        pass

    def get_write_buffer_size(self) -> int:
        return 0


class Slow(GuardedConnection):
    """The same connection with websockets' own parser for everything."""

    def data_received(self, data: bytes) -> None:
        ServerConnection.data_received(self, data)


def opened(kind: type[GuardedConnection]) -> tuple[GuardedConnection, Wire, list]:
    protocol = ServerProtocol(state=State.OPEN, max_size=MAX_FRAME)
    conn = kind(protocol, None, ping_interval=None, close_timeout=None)
    wire = Wire()
    Connection.connection_made(conn, wire)  # no server to run a handler for it
    conn.request = Request("/", Headers())  # the handshake is over
    got: list = []
    conn.start_handling(got.append)
    return conn, wire, got


def client() -> ClientProtocol:
    return ClientProtocol(parse_uri("ws://127.0.0.1/"), state=State.OPEN, max_size=None)


def raw(head1: int, payload: bytes, *, masked: bool = True, length16: bool = False) -> bytes:
    """A frame as bytes with any header a client may send (odd lengths, bad bits)."""
    mask = random.randbytes(4) if masked else b""
    bit = 0x80 if masked else 0
    n = len(payload)
    if n < 126 and not length16:
        head = bytes((head1, bit | n))
    elif n < 65536:
        head = bytes((head1, bit | 126)) + struct.pack("!H", n)
    else:
        head = bytes((head1, bit | 127)) + struct.pack("!Q", n)
    body = apply_mask(payload, mask) if masked else payload
    return head + mask + body


def piece(kind: str, size: int) -> bytes:
    """One frame (or a fragmented message) of `kind`, as a websockets client sends it."""
    c = client()
    data = random.randbytes(size)
    if kind == "binary":
        c.send_binary(data)
    elif kind == "text":
        c.send_text(data.hex().encode()[:size])
    elif kind == "fragmented":
        c.send_binary(data[: size // 2], fin=False)
        c.send_continuation(data[size // 2 :], fin=True)
    elif kind == "ping":
        c.send_ping(data[:100])
    elif kind == "pong":
        c.send_pong(data[:100])
    elif kind == "close":
        c.send_close(1000, "bye")
    elif kind == "unmasked":
        return raw(0x82, data, masked=False)
    elif kind == "rsv":
        return raw(0xC2, data)
    elif kind == "long_length":  # a short payload with a 16-bit length
        return raw(0x82, data[:100], length16=True)
    elif kind == "unfinished":  # a binary start without its continuation
        c.send_binary(data, fin=False)
    elif kind == "oversized":
        c.send_binary(bytes(MAX_FRAME + 1))
    return b"".join(c.data_to_send())


KINDS = ["binary"] * 6 + [
    "text",
    "fragmented",
    "ping",
    "pong",
    "close",
    "unmasked",
    "rsv",
    "long_length",
    "unfinished",
    "oversized",
]


def outcome(kind: type[GuardedConnection], stream: bytes, cuts: list[int]) -> tuple:
    conn, wire, got = opened(kind)
    at = 0
    for cut in [*sorted(cuts), len(stream)]:
        if cut > at:
            conn.data_received(stream[at:cut])
            at = cut
        if wire.done:  # the connection is being closed: nothing more arrives
            break
    protocol = conn.protocol
    return (
        got,
        bytes(wire.written),
        wire.done,
        protocol.state,
        protocol.close_rcvd,
        conn.too_big,
    )


@settings(max_examples=300, deadline=None)
@example(["unfinished", "binary"], [40] * 8, [True] * 8, [], 1)  # no binary inside a message
@example(["binary", "ping", "binary", "close", "binary"], [40] * 8, [True] * 8, [], 2)
@example(["long_length", "binary", "oversized", "binary"], [300] * 8, [True] * 8, [], 3)
@given(
    kinds=st.lists(st.sampled_from(KINDS), min_size=1, max_size=8),
    sizes=st.lists(st.sampled_from([0, 1, 5, 40, 125, 126, 127, 300, 65535]), min_size=8),
    between=st.lists(st.booleans(), min_size=8),
    cut_share=st.lists(st.floats(0, 1), max_size=6),
    seed=st.integers(0, 2**32),
)
async def test_the_fast_path_reads_as_websockets_does(kinds, sizes, between, cut_share, seed):
    """Chunks cut anywhere, and between pieces (where the fast path starts)."""
    random.seed(seed)
    pieces = [piece(k, s) for k, s in zip(kinds, sizes, strict=False)]
    stream = b"".join(pieces)
    cuts = [int(share * len(stream)) for share in cut_share]
    at = 0
    for p, cut in zip(pieces, between, strict=False):
        at += len(p)
        if cut:
            cuts.append(at)
    assert outcome(GuardedConnection, stream, cuts) == outcome(Slow, stream, cuts)


@pytest.mark.parametrize("chunk", [1, 2, 7, 1000])
async def test_many_acts_in_small_chunks_all_arrive_in_order(chunk):
    c = client()
    messages = [bytes([i]) * (i * 7 % 300) for i in range(60)]
    for m in messages:
        c.send_binary(m)
    stream = b"".join(c.data_to_send())
    cuts = list(range(chunk, len(stream), chunk))
    got, written, done, state, *_ = outcome(GuardedConnection, stream, cuts)
    assert got == messages and written == b"" and not done and state is State.OPEN


async def test_whole_frames_bypass_the_parser_and_others_do_not():
    conn, _, got = opened(GuardedConnection)
    parsed: list[Any] = []
    inner = GuardedConnection.process_event

    def spy(event: Any) -> None:
        parsed.append(event)
        inner(conn, event)

    conn.process_event = spy  # type: ignore[method-assign]
    c = client()
    c.send_binary(b"act")
    c.send_ping(b"p")
    c.send_binary(b"after")
    conn.data_received(b"".join(c.data_to_send()))
    assert got == [b"act", b"after"]
    # The ping and what followed it went through websockets; the first act did not.
    assert [type(e) for e in parsed] == [Frame, Frame]
    assert parsed[0].opcode is Opcode.PING and parsed[1].data == b"after"
