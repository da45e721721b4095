"""A room's chat (`chat`): each line to every member of the room, and its last lines kept
for those who come in later (issue 28): `joined` carries them, so a late spectator's log
starts with what was said (docs/protocol.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from modernart.server.limits import Buckets
from modernart.server.wire.codec import encode, ws_frame
from modernart.server.wire.messages import Chat
from modernart.server.wire.refusal import Refused

if TYPE_CHECKING:
    from modernart.server.wire.session import Conn


class ChatHost(Protocol):
    """What the chat needs of the hub (server/hub.py's `Hub`)."""

    room_chats: Buckets


def on_chat(hub: ChatHost, conn: Conn, msg: Chat, rid: int | None) -> None:
    text = msg.text
    room, identity = conn.room, conn.identity
    if room is None or identity is None:
        raise Refused("not_allowed", "chat needs a room")
    if not conn.chats.take():  # refused politely: not abuse (docs/decisions/pacing.md)
        raise Refused("rate_limited", "too many chat messages; slow down")
    # Each line goes to every member: the room's own rate bounds the fan-out.
    if not hub.room_chats[room.id].take():
        raise Refused("rate_limited", "this room's chat is busy; try again in a moment")
    line = {"from": identity.name, "seat": conn.seat, "text": text}
    frame = ws_frame(encode({"t": "chat", **line}))
    for member, _ in room.members():
        member.send_framed(frame)
    room.chat.append(line)  # a deque of room.RECENT_CHAT lines: the oldest goes
