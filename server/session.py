"""One client connection and the identity it speaks for."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from websockets.asyncio.server import ServerConnection, broadcast
from websockets.protocol import State

from .codec import encode
from .limits import (
    ABUSE_BURST,
    ABUSE_PER_S,
    CHAT_BURST,
    CHAT_PER_S,
    MESSAGES_BURST,
    MESSAGES_PER_S,
    TokenBucket,
)

if TYPE_CHECKING:
    from .room import Room

log = logging.getLogger("modernart.server")

# A client that lets this much unread output pile up is dropped: one slow or
# stalled reader must never hold up its room.
MAX_BACKLOG = 4 * 1024 * 1024


@dataclass(eq=False)
class Identity:
    """A player known by a secret token; `room`/`seat` are where they sit, if anywhere."""

    id: str
    name: str
    conn: Conn | None = None
    room: Room | None = None
    seat: int | None = None


class Conn:
    """A WebSocket client. Sending never awaits: frames go straight to the transport
    (websockets' `broadcast`), so a room fans out an update in one synchronous step."""

    def __init__(self, ws: ServerConnection, address: str) -> None:
        self.ws = ws
        self.address = address
        self.identity: Identity | None = None
        self.room: Room | None = None
        self.seat: int | None = None  # None: spectating or in the lobby
        self.messages = TokenBucket(MESSAGES_BURST, MESSAGES_PER_S)
        self.abuse = TokenBucket(ABUSE_BURST, ABUSE_PER_S)
        self.chats = TokenBucket(CHAT_BURST, CHAT_PER_S)
        self.closed = False
        self.closing: asyncio.Task | None = None

    @property
    def in_lobby(self) -> bool:
        return self.identity is not None and self.room is None and not self.closed

    def send(self, message: dict[str, Any]) -> None:
        self.send_raw(encode(message))

    def send_raw(self, data: bytes) -> None:
        ws = self.ws
        if self.closed or ws.protocol.state is not State.OPEN:
            return
        transport = ws.transport
        if transport.get_write_buffer_size() > MAX_BACKLOG:
            log.warning("dropping %s: it does not read its messages", self.address)
            self.closed = True
            transport.abort()
            return
        broadcast([ws], data)

    def close(self, code: int, reason: str) -> None:
        """Close after the frames already sent (the close frame follows them)."""
        if self.closed:
            return
        self.closed = True
        self.closing = asyncio.get_running_loop().create_task(self.ws.close(code, reason))
