"""`RemoteConn`: a client of another process, as the rooms of this one see it.

The room's process handles the client's messages exactly as a local client's (the same
`Hub.handle`, the same handlers and rooms); what it sends the client is queued like a
local connection's, committed with the turn (server/wire/outbox.py), and then carried
to the client's process in one message instead of one socket write. Entering and
leaving a room is told to the client's process (`room`'s setter), which from then on
carries the client's room messages here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, TypeVar

from modernart.server.limits import Limits
from modernart.server.wire.outbox import Lost, Outbox
from modernart.server.wire.session import Conn

if TYPE_CHECKING:
    from modernart.server.rooms.room import Room

T = TypeVar("T")


class Link:
    """What a stand-in needs of the cluster: a way to its client's process."""

    def tell(self, conn: RemoteConn, payload: dict[str, Any]) -> None: ...


class Told(Generic[T]):
    """An attribute of a `RemoteConn` whose every change is told to the client's process
    (`_moved`): its room and its seat, kept in `_room` and `_seat`."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = f"_{name}"

    def __get__(self, conn: RemoteConn | None, owner: type | None = None) -> T:
        if conn is None:  # the class's own attribute
            return self  # type: ignore[return-value]
        return getattr(conn, self.slot)

    def __set__(self, conn: RemoteConn, value: T) -> None:
        setattr(conn, self.slot, value)
        conn._moved()


class RemoteConn(Conn):
    def __init__(
        self, link: Link, key: str, edge: str, address: str, limits: Limits, outbox: Outbox
    ) -> None:
        self.link = link
        self.key = key  # the client's id across the cluster
        self.edge = edge  # the process holding its socket
        self.gone = False  # its socket closed: nothing more is carried
        self._room: Room | None = None
        self._seat: int | None = None
        self._told: tuple[str | None, int | None] = (None, None)
        super().__init__(None, address, limits, outbox)  # type: ignore[arg-type]

    room: Told[Room | None] = Told()  # type: ignore[assignment]
    seat: Told[int | None] = Told()  # type: ignore[assignment]

    def _moved(self) -> None:
        """Tell the client's process where it is now, if that changed."""
        where = (None if self._room is None else self._room.id, self._seat)
        if where != self._told:
            self._told = where
            self.link.tell(self, {"k": "r", "room": where[0], "seat": where[1]})

    @property
    def backlogged(self) -> bool:
        return False  # the client's own process bounds what its socket holds

    def send_framed(self, frame: bytes, room: Any = None) -> None:
        if not (self.closed or self.gone):
            self.enqueue(frame, room)

    def write_queued(self, lost: Lost) -> None:
        queue, self.queue = self.queue, []
        self.queued = 0
        frames = [f for f, r in queue if not lost or r is None or r.id not in lost]
        if frames and not self.gone:
            self.link.tell(self, {"k": "o", "f": frames})

    def close(self, code: int, reason: str, *, stop_reading: bool = False) -> None:
        if self.closed:
            return
        self.closed = True
        if not self.gone:
            self.link.tell(self, {"k": "x", "code": code, "why": reason})
