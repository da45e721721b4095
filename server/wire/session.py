"""One client connection and the identity it speaks for."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.protocol import State

from modernart.server.limits import (
    ABUSE_FORGIVEN_PER_S,
    CHAT_BURST,
    MESSAGES_BURST_FACTOR,
    Limits,
    TokenBucket,
)
from modernart.server.rooms.room import Room
from modernart.server.wire.codec import encode, ws_frame
from modernart.server.wire.outbox import Lost, Outbox

log = logging.getLogger("modernart.server")


@dataclass(eq=False)
class Identity:
    """A player known by a secret token; `room`/`seat` are where they sit, if anywhere."""

    id: str
    name: str
    conn: Conn | None = None
    room: Room | None = None
    seat: int | None = None
    seated: bool = True  # ever took a seat (identities that never did expire)
    watching: str | None = None  # the room it last watched (a terminal session returns there)
    rematch_answers: TokenBucket | None = None  # made at its first answer (server/rooms/rematch.py)


class Conn:
    """A WebSocket client. Sending never awaits: frames are queued and written at the
    end of the loop's turn, all of a turn's frames in one write (server/wire/outbox.py), so
    a room fans out an update in one synchronous step. A frame many members get (a
    spectators' update, a chat line, a room list) is framed once (`ws_frame`) and the
    same bytes are queued for each socket (`send_framed`)."""

    def __init__(
        self, ws: ServerConnection, address: str, limits: Limits, outbox: Outbox | None = None
    ) -> None:
        self.ws = ws
        self.address = address
        self.outbox = outbox or Outbox()
        # This turn's frames, each with the room whose update it is (None: any other).
        self.queue: list[tuple[bytes, Any]] = []
        self.queued = 0  # their bytes
        # A client that lets `max_backlog` bytes of output pile up unread is dropped:
        # a slow or stalled reader must never hold up its room nor grow the server's
        # memory. It gets a room list only while none of its output waits in the
        # server's own buffer (issue 21): a list is answered once the previous one
        # left for the kernel, whose share is bounded too (`send_buffer_kib`), so a
        # client that asks without reading holds one list at most (it can ask again).
        self.max_backlog = limits.max_unread_kib * 1024 or float("inf")
        self.lobby_backlog = 0
        # The last `rooms` push it was sent (None: a list it asked for came since): a
        # push the same as the last one changes nothing it shows and is not sent again.
        self.rooms_pushed: bytes | None = None
        self.identity: Identity | None = None
        self.token: str | None = None  # the identity's secret, as this client said hello with it
        self.device: str | None = None  # the id of the device holding it (server/people/devices.py)
        self.room: Room | None = None
        self.seat: int | None = None  # None: spectating or in the lobby
        rate = limits.messages_per_s or float("inf")
        self.messages = TokenBucket(rate * MESSAGES_BURST_FACTOR, rate)
        self.abuse = TokenBucket(limits.bad_messages or float("inf"), ABUSE_FORGIVEN_PER_S)
        self.chats = TokenBucket(CHAT_BURST, limits.chats_per_s or float("inf"))
        self.stall_seen = 0.0  # the loop's stalls already credited (Hub.arrive)
        self.closed = False
        self.dropped = False  # for not reading its messages
        self.bye = False  # the client said `bye`: it quits on purpose
        self.ticket: str | None = None  # its Authorization header (a terminal session's)
        self.closing: asyncio.Task | None = None
        # In a cluster (server/cluster/): the process holding the room this client is in,
        # when it is another's, the room and the seat; its key there; the processes it
        # spoke to.
        self.remote: str | None = None
        self.remote_room: str | None = None
        self.remote_seat: int | None = None
        self.cluster_key: str | None = None
        self.links: set[str] = set()

    @property
    def in_lobby(self) -> bool:
        return (
            self.identity is not None
            and self.room is None
            and self.remote is None
            and not self.closed
        )

    @property
    def backlogged(self) -> bool:
        """Whether this client has left too much of its output unread for a room list."""
        transport = self.ws.transport
        return transport is None or transport.get_write_buffer_size() > self.lobby_backlog

    def send(self, message: dict[str, Any]) -> None:
        self.send_raw(encode(message))

    def send_raw(self, data: bytes, room: Any = None) -> None:
        """One packed message (a msgpack map); `room`: see `send_framed`."""
        self.send_framed(ws_frame(data), room)

    def send_framed(self, frame: bytes, room: Any = None) -> None:
        """A whole WebSocket frame (`ws_frame`), queued for the turn's end; `room`: the
        room whose update it is (a failed commit drops it unsent, server/wire/outbox.py). A
        closed or closing socket gets nothing, quietly: no write is tried, so asyncio
        logs no warning either. The server never fragments a message, and its queue is
        written before any write of websockets' own (`FastReadConnection.send_data`):
        its frames never fall inside, or behind, a ping or the close frame."""
        ws = self.ws
        if self.closed or ws.protocol.state is not State.OPEN:
            return
        transport = ws.transport
        if transport.is_closing():
            return
        if transport.get_write_buffer_size() + self.queued > self.max_backlog:
            log.debug("dropping %s: it does not read its messages", self.address)
            self.closed = self.dropped = True
            self.queue, self.queued = [], 0
            transport.abort()
            return
        self.enqueue(frame, room)

    def enqueue(self, frame: bytes, room: Any) -> None:
        """Queue a frame for the turn's end (the outbox learns of a queue's first)."""
        if not self.queue:
            self.outbox.queued(self)
        self.queue.append((frame, room))
        self.queued += len(frame)

    def send_now(self, frame: bytes) -> None:
        """A frame written at once, after the frames queued before it (and the turn's
        commit, if it holds changes): a room list, which is answered only while the
        previous one left for the kernel (`backlogged`), so that the server's own
        buffer holds one list at most, as before the outbox."""
        self.send_framed(frame)
        if self.queue:
            self.outbox.flush_for(self)

    def write_queued(self, lost: Lost) -> None:
        """The turn's frames in one write, but those of rooms whose changes the store
        lost (`lost`: their ids). Frames queued before a close still go (the close
        frame follows them)."""
        queue, self.queue = self.queue, []
        self.queued = 0
        if lost:
            queue = [q for q in queue if q[1] is None or q[1].id not in lost]
        transport = self.ws.transport
        if not queue or transport.is_closing():
            return
        stats = self.outbox.stats
        stats.frames += len(queue)
        stats.writes += 1
        transport.write(queue[0][0] if len(queue) == 1 else b"".join([q[0] for q in queue]))

    def close(self, code: int, reason: str, *, stop_reading: bool = False) -> None:
        """Close after the frames already sent (the close frame follows them).

        `stop_reading`: an abusive client's frames are not even read any more; its
        closing handshake then cannot complete and the transport is aborted after
        the server's short `close_timeout`."""
        if self.closed:
            return
        self.closed = True
        if stop_reading and self.ws.transport is not None:
            self.ws.transport.pause_reading()
        self.closing = asyncio.get_running_loop().create_task(self.ws.close(code, reason))
