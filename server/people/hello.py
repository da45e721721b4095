"""`hello`: who a new connection is (a returning token's identity, or a new one), its
`welcome`, and back to its seat or to the lobby. A connection says it once, first."""

from __future__ import annotations

import logging
import secrets
from typing import TYPE_CHECKING, Protocol

from modernart.server import __version__
from modernart.server.limits import Buckets, Limits
from modernart.server.rooms.room import PLAYING, WAITING, Room
from modernart.server.wire.messages import Hello
from modernart.server.wire.refusal import Refused, error, reply
from modernart.server.wire.session import Identity

if TYPE_CHECKING:
    from modernart.server.doors.registry import Doors
    from modernart.server.lobby.desk import RoomDesk
    from modernart.server.lobby.roomlist import Lobby
    from modernart.server.people.devices import DeviceDesk
    from modernart.server.people.identities import People
    from modernart.server.people.players import PlayerDesk
    from modernart.server.wire.session import Conn

log = logging.getLogger("modernart.server")

PROTOCOL_VERSION = 1


class HelloHost(Protocol):
    """What a `hello` needs of the hub (server/hub.py's `Hub`)."""

    rooms: dict[str, Room]
    limits: Limits
    people: People
    players: PlayerDesk
    devices: DeviceDesk
    desk: RoomDesk
    lobby: Lobby
    new_identities: Buckets  # per address (across a cluster: server/cluster/rates.py)
    # Told of every `welcome`: a guest's terminal session learns the identity its
    # client was given, to come back as it after a restart.
    doors: Doors

    def note(self, what: str) -> None: ...


def on_hello(hub: HelloHost, conn: Conn, msg: Hello, rid: int | None) -> None:
    version = msg.v
    if version != PROTOCOL_VERSION:
        conn.send(error("version", f"this server speaks version {PROTOCOL_VERSION}", rid))
        conn.close(1008, "unsupported protocol version")
        return
    name, token = msg.name, msg.token
    identity = None if token is None else hub.people.returning(token)
    players = hub.players
    if identity is not None:
        # A returning player keeps the stored name if the new one is taken
        # (`welcome` says which name the server holds).
        if (
            identity.name != name
            and players.acceptable(name)
            and not players.taken(name, identity.id)
        ):
            try:
                players.claim(identity.id, name)
                identity.name = name
            except Refused:  # taken meanwhile, in another process: the stored name stays
                pass
        name = identity.name
    if identity is None:  # new, or a token this server never issued (or expired)
        players.check_new(name, door=conn.ticket is not None)
        if players.taken(name, None):
            raise players.refuse_taken(name)
        if hub.limits.new_identities_per_hour and not hub.new_identities.take(conn.address):
            log.debug("refusing a new identity to %s: too many from there", conn.address)
            hub.note("new identities refused")
            raise Refused(
                "rate_limited",
                "too many new identities from your address; come back with your token"
                " or try again later",
            )
        token = secrets.token_urlsafe(32)
        identity = Identity("u" + secrets.token_hex(6), name, seated=False)
        players.add_identity(identity.id, name, token)
        hub.people.add(identity)
    assert token is not None
    hub.devices.arrived(conn, token)
    old = identity.conn
    if old is not None:
        hub.desk.release(old)
        old.identity = None
        hub.devices.replaced(old, conn)  # told which device took over, closed 4000
    conn.identity = identity
    conn.token = token
    identity.conn = conn
    welcome = {
        "t": "welcome",
        "v": PROTOCOL_VERSION,
        "you": identity.id,
        "token": token,
        "name": identity.name,
        "server": f"modernart/{__version__}",
    }
    if identity.watching is not None and identity.watching in hub.rooms:
        welcome["watching"] = identity.watching  # the room this identity watched last
    conn.send(reply(welcome, rid))
    hub.doors.welcomed(conn, token)
    room, seat = identity.room, identity.seat
    if (
        room is not None
        and seat is not None
        and room.status in (WAITING, PLAYING)
        and hub.rooms.get(room.id) is room
        and room.seat_of(identity) == seat
    ):
        if room.status == WAITING:
            room.seats[seat].name = name  # type: ignore[union-attr]
        hub.desk.enter(conn, room, seat, None)
    else:
        identity.room = identity.seat = None
        hub.lobby.send_rooms(conn, None)


def on_hello_again(conn: Conn, msg: Hello, rid: int | None) -> None:
    raise Refused("not_allowed", "already said hello")
