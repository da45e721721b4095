"""What server/wire/wsinternals.py relies on in websockets' internals, checked against the
installed websockets: an upgrade that breaks one of them fails here (with the test
naming it) rather than slowing or breaking the server silently.
tests/server/test_ws_reading.py compares the fast reader with websockets' parser."""

from __future__ import annotations

import asyncio
import inspect
from typing import Any

import pytest
from websockets import speedups
from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection, serve
from websockets.client import ClientProtocol
from websockets.datastructures import Headers
from websockets.exceptions import InvalidHandshake
from websockets.frames import CloseCode
from websockets.http11 import Request
from websockets.protocol import State
from websockets.server import ServerProtocol
from websockets.uri import parse_uri

from modernart.server.wire import wsinternals
from modernart.server.wire.wsinternals import (
    FastReadConnection,
    apply_mask,
    parser_at_a_frame_start,
)


def frames(*sends: tuple[str, bytes]) -> bytes:
    """What a websockets client writes for `sends` (method name, payload)."""
    client = ClientProtocol(parse_uri("ws://127.0.0.1/"), state=State.OPEN, max_size=None)
    for method, payload in sends:
        getattr(client, method)(payload)
    return b"".join(client.data_to_send())


def test_the_parser_waits_for_a_frame_in_the_generators_the_reader_checks():
    protocol = ServerProtocol(state=State.OPEN, max_size=2**16)
    assert parser_at_a_frame_start(protocol)
    assert protocol.reader.buffer == b"" and protocol.current_size is None
    one = frames(("send_binary", b"act"))
    protocol.receive_data(one[:1])  # a frame begun: no longer between frames
    assert not parser_at_a_frame_start(protocol) or protocol.reader.buffer
    protocol.receive_data(one[1:])
    assert [e.data for e in protocol.events_received()] == [b"act"]
    assert parser_at_a_frame_start(protocol) and not protocol.reader.buffer


def test_a_fragmented_message_shows_in_current_size():
    client = ClientProtocol(parse_uri("ws://127.0.0.1/"), state=State.OPEN)
    client.send_binary(b"half", fin=False)
    start = b"".join(client.data_to_send())
    client.send_continuation(b"rest", fin=True)
    protocol = ServerProtocol(state=State.OPEN, max_size=2**16)
    protocol.receive_data(start)
    assert protocol.current_size is not None and not protocol.reader.buffer
    protocol.receive_data(b"".join(client.data_to_send()))
    assert protocol.current_size is None


def test_writes_hold_websockets_own_frames_until_sent():
    protocol = ServerProtocol(state=State.OPEN)
    assert protocol.writes == []
    protocol.send_ping(b"p")
    assert protocol.writes
    assert protocol.data_to_send() and protocol.writes == []


def test_fail_is_called_on_the_instance_for_a_message_too_big():
    protocol = ServerProtocol(state=State.OPEN, max_size=10)
    codes: list[int] = []
    fail = protocol.fail

    def failing(code: int, reason: str = "") -> None:
        codes.append(code)
        fail(code, reason)

    protocol.fail = failing  # type: ignore[method-assign]
    protocol.receive_data(frames(("send_binary", bytes(11))))
    assert codes == [CloseCode.MESSAGE_TOO_BIG]


def test_the_connection_hooks_keep_their_signatures():
    for name, params in {
        "data_received": ["self", "data"],
        "process_event": ["self", "event"],
        "send_data": ["self"],
        "connection_made": ["self", "transport"],
    }.items():
        assert list(inspect.signature(getattr(ServerConnection, name)).parameters) == params


def test_process_request_checks_an_upgrade():
    protocol = ServerProtocol()
    good = Headers(
        {
            "Host": "x",
            "Upgrade": "websocket",
            "Connection": "Upgrade",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
            "Sec-WebSocket-Version": "13",
        }
    )
    assert protocol.process_request(Request("/", good))[0] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
    bad = Headers({"Host": "x", "Upgrade": "websocket", "Connection": "Upgrade"})
    with pytest.raises(InvalidHandshake):
        protocol.process_request(Request("/", bad))


def test_apply_mask_unmasks():
    masked = bytes(b ^ m for b, m in zip(b"hello", b"\x01\x02\x03\x04\x01", strict=True))
    assert apply_mask(masked, b"\x01\x02\x03\x04") == b"hello"
    # The C unmasking websockets builds on this platform (the fast path's speed).
    assert wsinternals.apply_mask is speedups.apply_mask


class Probe(FastReadConnection):
    """A connection that keeps what it is handed and when."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.got: list[bytes | str] = []
        self.arrived = asyncio.Event()
        self.failed: list[int] = []
        self.events: list[Any] = []

    def deliver(self, message: bytes | str) -> None:
        self.got.append(message)
        self.arrived.set()

    def before_fail(self, code: int) -> None:
        self.failed.append(code)

    def process_event(self, event: Any) -> None:
        self.events.append(event)
        super().process_event(event)


async def test_over_a_socket_the_fast_path_is_taken_and_the_hooks_run():
    probes: list[Probe] = []
    connected, done = asyncio.Event(), asyncio.Event()

    async def handler(conn: ServerConnection) -> None:
        assert isinstance(conn, Probe)
        probes.append(conn)
        connected.set()
        await done.wait()

    serving = serve(
        handler, "127.0.0.1", 0, create_connection=Probe, max_size=2**16, compression=None
    )
    async with serving as server:  # without compression, as the server (server/wire/app.py)
        port = server.sockets[0].getsockname()[1]
        try:
            await exchange(port, connected, probes)
        finally:
            done.set()


async def exchange(port: int, connected: asyncio.Event, probes: list[Probe]) -> None:
    """A message read by the fast path, then one websockets fails (1009)."""
    async with connect(f"ws://127.0.0.1:{port}/", max_size=None) as client:
        await client.send(b"act")
        await connected.wait()
        probe = probes[0]
        await probe.arrived.wait()
        # Read without websockets' parser, which then stands between two frames.
        assert probe.got == [b"act"] and probe.between_frames()
        assert not [e for e in probe.events if getattr(e, "data", None) == b"act"]
        written: list[bool] = []
        probe.before_write = lambda: written.append(True)
        await client.send(bytes(70000))  # over max_size: websockets fails it (1009)
        await probe.wait_closed()
        assert probe.failed == [CloseCode.MESSAGE_TOO_BIG] and written
        assert probe.got == [b"act"]
