"""Every client→server message as a msgspec Struct (PROTOCOL.md, docs/protocol.md).

A frame is decoded once, at the edge (server/wire/edge.py), into one of these: a tagged
union on `t`. What is purely structural (types, ranges, lengths, printable text) is
checked here; what needs the server's state (no such room, not your turn) or the
room's game (seats, options, the action's fields) stays with the handlers.
Unknown fields are ignored, as before; `null` stands for a missing optional field.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

import msgspec
from msgspec import Meta

from modernart.server.people.names import MAX_LENGTH as NAME_MAX
from modernart.server.people.names import ROOM_NAME_MAX


def text(lo: int, hi: int) -> Any:
    """A string of `lo` to `hi` characters (printable unless the field is exempted)."""
    return Annotated[str, Meta(min_length=lo, max_length=hi)]


def number(lo: int, hi: int) -> Any:
    return Annotated[int, Meta(ge=lo, le=hi)]


RoomId = text(1, 64)
Game = text(1, 32)
Password = text(0, 64)


class Message(msgspec.Struct, tag_field="t", frozen=True, kw_only=True):
    """A client message: its `id` comes back as `re` on the answer."""

    id: int | msgspec.UnsetType = msgspec.UNSET  # `null` is no integer (PROTOCOL.md)

    @property
    def rid(self) -> int | None:
        """The `re` of the answer: the message's `id`, if it had one."""
        return None if self.id is msgspec.UNSET else self.id  # type: ignore[return-value]


class Texts(Message, frozen=True, kw_only=True):
    """A message with string fields: checked once decoded (msgspec has no such Meta)."""

    # Strings that may hold any character (a password); all others must be printable.
    raw_fields: ClassVar[tuple[str, ...]] = ()
    # Strings that may not be blank (names).
    named_fields: ClassVar[tuple[str, ...]] = ()

    def __post_init__(self) -> None:
        for field in self.__struct_fields__:
            value = getattr(self, field)
            if value.__class__ is str and field not in self.raw_fields:
                if not value.isprintable():
                    raise ValueError(f"`{field}` must be printable characters only")
                if field in self.named_fields and not value.strip():
                    raise ValueError(f"`{field}` may not be blank")


class Hello(Texts, tag="hello"):
    v: int
    name: text(1, NAME_MAX)
    token: text(1, 200) | None = None
    named_fields = ("name",)


class Rooms(Texts, tag="rooms"):
    status: text(1, 16) | None = None
    game: Game | None = None
    page: number(0, 100_000) | None = None


class Create(Texts, tag="create"):
    seats: int  # the range is the game's (server/rooms/options.py)
    game: Game | None = None
    name: text(1, ROOM_NAME_MAX) | None = None
    variant: str | dict[str, Any] | None = None  # the game parses it
    password: Password | None = None
    options: dict[str, Any] | None = None  # the game's ranges (server/rooms/options.py)
    raw_fields = ("password", "variant")


class Join(Texts, tag="join"):
    room: RoomId
    password: Password | None = None
    raw_fields = ("password",)


class Watch(Texts, tag="watch"):
    room: RoomId
    password: Password | None = None
    raw_fields = ("password",)


class Leave(Message, tag="leave"):
    pass


class Bye(Message, tag="bye"):
    pass


class AddBot(Texts, tag="add_bot"):
    level: text(1, 32) | None = None


class Start(Message, tag="start"):
    pass


class Chat(Texts, tag="chat"):
    text: text(1, 300)


class Act(Message, tag="act"):
    action: msgspec.Raw  # decoded into the room's game's action types (server/rooms/actions.py)


class Sync(Message, tag="sync"):
    pass


class History(Message, tag="history"):
    since: number(0, 2**53) | None = None


class Rename(Texts, tag="rename"):
    name: text(1, NAME_MAX)
    named_fields = ("name",)


class Who(Texts, tag="who"):
    game: Game | None = None


class Leaderboard(Texts, tag="leaderboard"):
    game: Game | None = None


class Games(Texts, tag="games"):
    player: text(1, NAME_MAX) | None = None


class Record(Texts, tag="record"):
    room: RoomId


class Review(Texts, tag="review"):
    room: RoomId


class Rematch(Texts, tag="rematch"):
    room: RoomId
    accept: bool


class Handoff(Message, tag="handoff"):
    pass


class Claim(Texts, tag="claim"):
    code: text(1, 20)


class Devices(Message, tag="devices"):
    pass


class RevokeDevice(Texts, tag="revoke_device"):
    device: text(1, 40)


ClientMessage = (
    Hello
    | Rooms
    | Create
    | Join
    | Watch
    | Leave
    | Bye
    | AddBot
    | Start
    | Chat
    | Act
    | Sync
    | History
    | Rename
    | Who
    | Leaderboard
    | Games
    | Record
    | Review
    | Rematch
    | Handoff
    | Claim
    | Devices
    | RevokeDevice
)
