"""Every use the server makes of websockets' undocumented internals, in one place.

websockets is pinned to the minor version these were written against (pyproject.toml);
tests/test_library_contracts.py fails when an upgrade takes away what this module relies
on, and tests/server/test_ws_reading.py compares the fast reader below with websockets'
own parser on every kind of stream. Nothing else imports a private websockets name.

What it relies on (websockets 17.4, `websockets.asyncio` and the Sans-I/O `Protocol`):
- `ServerConnection.data_received`, `process_event` and `send_data`: the asyncio
  connection's hooks (undocumented methods), overridden below.
- The Sans-I/O parser is a generator: `protocol.parser` runs `Protocol.parse`, which
  waits for a frame's first byte in `StreamReader.at_eof` (`gi_yieldfrom` chain);
  `protocol.reader.buffer` holds unparsed bytes and `protocol.current_size` is not
  None inside a fragmented message. Only when all three say "between two frames" may
  whole frames bypass the parser.
- `protocol.writes` (frames waiting to be written) and `protocol.fail`, replaced on
  the instance to act just before websockets fails a connection.
- `websockets.speedups.apply_mask` (the C unmasking websockets itself uses).
- `ServerProtocol.process_request` (`check_handshake`): websockets' checks of an
  upgrade request, run early by the page door (server/doors/web/gate.py).
Undocumented but not underscored, and used where they are (the contract test covers
them): a connection's `transport` (the asyncio transport the outbox writes whole
frames to, server/wire/session.py) and `protocol` (its Sans-I/O state).

Why: reading one client act through websockets' generator parser was a tenth of the
server's CPU under load (issue 21; docs/decisions/reading.md); the fast path takes the
common frame (whole, masked, final, binary, up to 64 KiB) off the socket directly and
hands it on in the same step (no queue, no task switch per message). The figure to
check after an upgrade: `scripts/bench_reading.py` (docs/decisions/29-adapters.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.frames import DATA_OPCODES, Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import Protocol, State
from websockets.streams import StreamReader

try:
    from websockets.speedups import apply_mask
except ImportError:  # websockets built without its C extension
    from websockets.utils import apply_mask

# websockets' frame parser waits for the next frame's first byte here (a generator).
NEXT_FRAME = StreamReader.at_eof.__code__
PARSE = Protocol.parse.__code__
# The first byte of a final, unfragmented binary frame without extension bits.
FINAL_BINARY = 0x82


def parser_at_a_frame_start(protocol: Any) -> bool:
    """Whether websockets' generator parser waits for a frame's first byte: its
    `ServerProtocol.parse` delegates to `Protocol.parse`, suspended in `at_eof`."""
    inner = getattr(protocol.parser, "gi_yieldfrom", None)
    waiting = getattr(inner, "gi_yieldfrom", None)
    return (
        inner is not None
        and inner.gi_code is PARSE
        and waiting is not None
        and waiting.gi_code is NEXT_FRAME
    )


class FastReadConnection(ServerConnection):
    """A connection that hands each whole message to `deliver` as its last frame is
    parsed, reads the common frame without websockets' parser, calls `before_write`
    before any write of websockets' own (a ping, a pong, the close frame) and
    `before_fail` just before websockets fails the connection. A text message is
    delivered as an empty `str` (the server refuses text without reading it)."""

    def __init__(self, protocol: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(protocol, *args, **kwargs)
        self.before_write: Callable[[], None] | None = None
        self._parts: list[bytes] | None = None  # a fragmented message's frames so far
        self._text = False
        fail = protocol.fail

        def failing(code: int, reason: str = "") -> None:
            self.before_fail(code)
            fail(code, reason)

        protocol.fail = failing

    def deliver(self, message: bytes | str) -> None:
        """One whole message off the wire (a subclass's to handle)."""
        raise NotImplementedError

    def before_fail(self, code: int) -> None:
        """websockets is about to fail the connection with `code` (a close code)."""

    def between_frames(self) -> bool:
        """Whether websockets' parser stands between two frames with nothing buffered
        and no fragmented message open: only then may whole frames bypass it."""
        protocol = self.protocol
        if (
            self.request is None
            or protocol.state is not State.OPEN
            or protocol.current_size is not None
            or protocol.reader.buffer
        ):
            return False
        return parser_at_a_frame_start(protocol)

    def data_received(self, data: bytes) -> None:
        """Whole, masked, final binary frames of up to 64 KiB (a client's every act) are
        unmasked and delivered here, without websockets' generator parser; from the
        first frame that is anything else (a control frame, text, a fragment, an
        incomplete frame, an error) the rest of `data` goes to websockets, which is then
        at a frame's start, as ever."""
        if not self.between_frames():
            super().data_received(data)
            return
        end, pos = len(data), 0
        while end - pos >= 6 and data[pos] == FINAL_BINARY:
            size = data[pos + 1] ^ 0x80  # the mask bit set: a client's frame must be masked
            if size < 126:
                head = pos + 2
            elif size == 126 and end - pos >= 4:
                size = data[pos + 2] << 8 | data[pos + 3]
                if size < 126:  # not the shortest length: websockets' to judge
                    break
                head = pos + 4
            else:  # unmasked (>= 128), a 64-bit length, or a 16-bit one not yet here
                break
            stop = head + 4 + size
            if stop > end:
                break
            payload = apply_mask(data[head + 4 : stop], data[head : head + 4])
            pos = stop
            self.deliver(payload)
            if self.protocol.state is not State.OPEN:
                break
        if pos < end:
            super().data_received(data[pos:] if pos else data)

    def process_event(self, event: Any) -> None:
        if self.request is None or not isinstance(event, Frame) or event.opcode not in DATA_OPCODES:
            super().process_event(event)  # the handshake, pings, pongs, the close
            return
        if event.opcode is Opcode.CONT:  # the protocol refuses one without a start
            assert self._parts is not None
            self._parts.append(event.data)
        else:
            self._text = event.opcode is Opcode.TEXT
            self._parts = [event.data]
        if not event.fin:
            return
        parts, self._parts = self._parts, None
        self.deliver("" if self._text else b"".join(parts))

    def send_data(self) -> None:
        if self.protocol.writes and self.before_write is not None:
            self.before_write()
        super().send_data()


def check_handshake(connection: ServerConnection, request: Request) -> None:
    """websockets' own checks of an upgrade request (`ServerProtocol.process_request`,
    undocumented), made before the page's door creates anything for it: raises
    `InvalidHandshake` where websockets would answer 400 or 426."""
    connection.protocol.process_request(request)
