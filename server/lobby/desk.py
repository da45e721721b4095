"""Rooms from the lobby's side: `create`, `join`, `watch`, `leave`, `bye`, `add_bot`
and `start`; a connection entering and leaving its room; waiting rooms nobody
visits dropped; rooms restored from the store at a start.

A room's game itself is server/rooms/room.py's; what a client does in it, server/rooms/play.py's.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Protocol

from modernart.engine import Record
from modernart.engine.games import DEFAULT_GAME
from modernart.server.limits import GAMES_BY_ADDRESS, GAMES_BY_IDENTITY, WAITING_ROOMS, Limits
from modernart.server.lobby.running import RunningGames
from modernart.server.people.passwords import Passwords, lock
from modernart.server.rooms.options import DevOnly, RoomOptions, RoomSettings, parse_create
from modernart.server.rooms.play import game_of
from modernart.server.rooms.ports import RoomHost, ports_of
from modernart.server.rooms.room import FINISHED, PLAYING, WAITING, Room, Seat
from modernart.server.store.sqlite import StoreError
from modernart.server.wire.codec import BadMessage
from modernart.server.wire.messages import AddBot, Bye, Create, Join, Leave, Start, Watch
from modernart.server.wire.refusal import Refused, reply

if TYPE_CHECKING:
    from modernart.server.lobby.roomlist import Lobby
    from modernart.server.people.identities import People
    from modernart.server.people.players import PlayerDesk
    from modernart.server.wire.session import Conn

log = logging.getLogger("modernart.server")

IDLE_SWEEPS = 10  # a waiting room nobody is connected to goes after ~10 minutes


class DeskHost(RoomHost, Protocol):
    """What the desk needs of the hub (server/hub.py's `Hub`): its registries, and
    the hub itself as the host of the rooms it makes."""

    rooms: dict[str, Room]
    limits: Limits
    running: RunningGames
    people: People
    players: PlayerDesk
    lobby: Lobby
    passwords: Passwords
    stopping: bool

    def new_room_id(self) -> str: ...

    def elsewhere(self, kind: str, key: str) -> int: ...


class RoomDesk:
    def __init__(self, hub: DeskHost) -> None:
        self.hub = hub
        self._idle: dict[str, int] = {}  # sweeps each room has been without visitors

    # ------------------------------------------------------------- restore

    def restore(self, stored: Any) -> None:
        """A stored unfinished room back in memory (the record is the truth)."""
        hub = self.hub
        settings = RoomSettings(
            stored.settings["seats"],
            stored.name,
            stored.settings["variant"],
            RoomOptions.from_json(stored.settings["options"]),
            stored.settings.get("game", DEFAULT_GAME),  # rooms stored before other games
        )
        room = Room(ports_of(hub), stored.id, settings, stored.settings.get("password"))
        room.host = stored.members.get("host")
        room.seq = stored.seq
        for i, entry in enumerate(stored.members["seats"]):
            if entry is None:
                continue
            if "bot" in entry:
                room.seat_bot(entry["bot"], at=i, name=entry["name"])
                continue
            identity = hub.people.get(entry["identity"], entry["name"])
            room.seats[i] = Seat(entry["name"], identity=identity)
            identity.room, identity.seat = room, i
        if stored.status == PLAYING:
            header = stored.header
            game = Record(
                header["players"],
                header["variant"],
                header["deck"],
                header["first_auctioneer"],
                stored.actions,
                game=header.get("game", DEFAULT_GAME),
            ).resumed()
            if game.finished:
                hub.players.game_restored_over(room, game)
                return
            room.resume(game, stored.seq)
        hub.rooms[room.id] = room
        log.info("restored room %s (%s, %d actions)", room.id, room.status, len(stored.actions))

    # ------------------------------------------------------------ requests

    def on_create(self, conn: Conn, msg: Create, rid: int | None) -> None:
        hub = self.hub
        identity = conn.identity
        assert identity is not None
        try:
            taken = {room.name for room in hub.rooms.values()}  # for a default name
            settings = parse_create(msg, identity.name, taken, dev=hub.dev, limits=hub.limits)
        except DevOnly as exc:
            raise Refused("not_allowed", str(exc)) from None
        password = msg.password
        if conn.room is not None:
            raise Refused("not_allowed", "leave your room first")
        self._check_room_limits(conn)
        room = Room(ports_of(hub), hub.new_room_id(), settings, lock(password))
        room.host = None
        room.address = conn.address
        seat = room.seat_human(identity)
        hub.store.add_room(room.id, room.name, room.settings_json(), room.members_json())
        hub.rooms[room.id] = room
        self.enter(conn, room, seat, rid)

    def _check_room_limits(self, conn: Conn) -> None:
        """Waiting rooms per address (`Limits`): `limit_reached`. (An identity is in one
        room at most: it must leave a waiting room, which frees its seat, to create
        another, and a new connection with its token goes back to its seat.)"""
        limits = self.hub.limits
        waiting = [r for r in self.hub.rooms.values() if r.status == WAITING]
        from_here = sum(1 for r in waiting if r.address == conn.address)
        from_here += self.hub.elsewhere(WAITING_ROOMS, conn.address)
        if limits.waiting_rooms_per_address and from_here >= limits.waiting_rooms_per_address:
            raise Refused(
                "limit_reached",
                f"{from_here} rooms created from your address are waiting already;"
                " join one or try again later",
            )

    def _check_game_limits(self, conn: Conn) -> None:
        """Running games per identity and per address (`Limits`): `limit_reached`."""
        limits, running = self.hub.limits, self.hub.running
        assert conn.identity is not None
        mine = running.of_identity(conn.identity.id)
        mine += self.hub.elsewhere(GAMES_BY_IDENTITY, conn.identity.id)
        if limits.games_per_identity and mine >= limits.games_per_identity:
            raise Refused(
                "limit_reached", f"you already play in {mine} running games; finish one first"
            )
        from_here = running.from_address(conn.address)
        from_here += self.hub.elsewhere(GAMES_BY_ADDRESS, conn.address)
        if limits.games_per_address and from_here >= limits.games_per_address:
            raise Refused(
                "limit_reached",
                f"{from_here} games started from your address are running; try again later",
            )

    def _find_room(self, msg: Join | Watch) -> Room:
        room_id = msg.room
        room = self.hub.rooms.get(room_id)
        if room is None:
            raise Refused("no_such_room", f"no room {room_id!r}")
        return room

    def on_join(self, conn: Conn, msg: Join, rid: int | None) -> None:
        identity = conn.identity
        assert identity is not None
        room = self._find_room(msg)
        if conn.room is not None and conn.room is not room:
            raise Refused("not_allowed", "leave your room first")
        if conn.room is room and conn.seat is not None:
            conn.send(reply({"t": "joined", "room": room.id, "seat": conn.seat}, rid))
            return
        seat = room.seat_of(identity)
        if seat is None:
            self.hub.passwords.check(conn, room, msg)
            if room.status == FINISHED:
                raise Refused("not_allowed", "this game is over")
            if room.status != WAITING or room.free_seat() is None:
                raise Refused("room_full", "every seat is taken")
            seat = room.seat_human(identity)
            self._store_new_seat(room, seat)
        self.enter(conn, room, seat, rid)

    def _store_new_seat(self, room: Room, seat: int) -> None:
        """The room's seats stored with `seat` just taken; freed if the store refuses."""
        try:
            self.hub.store.save_members(room.id, room.members_json())
        except StoreError:
            room.seats[seat] = None
            raise

    def on_watch(self, conn: Conn, msg: Watch, rid: int | None) -> None:
        room = self._find_room(msg)
        if conn.room is not None:
            raise Refused("not_allowed", "leave your room first")
        self.hub.passwords.check(conn, room, msg)
        cap = self.hub.limits.max_spectators
        if cap and len(room.spectators) >= cap:
            raise Refused("room_full", f"this room has {cap} spectators already")
        self.enter(conn, room, None, rid)

    def enter(self, conn: Conn, room: Room, seat: int | None, rid: int | None) -> None:
        """Put a connection into a room (a seat, or spectating) and bring it up to date.
        A connection is in one room in one role: a spectator taking a seat stops
        being a spectator."""
        identity = conn.identity
        assert identity is not None
        conn.room, conn.seat = room, seat
        identity.watching = room.id if seat is None else None
        if seat is None:
            room.spectators.add(conn)
            room.spectators_changed()
        else:
            room.spectators.discard(conn)
            room.attach(seat, conn)
            identity.room, identity.seat = room, seat
        joined: dict[str, Any] = {"t": "joined", "room": room.id, "seat": seat}
        if room.chat:  # what was said before (issue 28): the log starts with it
            joined["chat"] = list(room.chat)
        conn.send(reply(joined, rid))
        conn.send(room.room_message(seat))
        if room.game is None:
            for other, other_seat in room.members():
                if other is not conn:
                    other.send(room.room_message(other_seat))
        else:
            room.send_view(conn, seat)
            if seat is not None and room.status == PLAYING:
                room.notify([{"type": "connected", "seat": seat}])
        self._idle.pop(room.id, None)
        self.hub.rooms_changed()

    def on_leave(self, conn: Conn, msg: Leave, rid: int | None) -> None:
        room, seat, identity = conn.room, conn.seat, conn.identity
        if room is None or identity is None:
            raise Refused("not_allowed", "you are not in a room")
        identity.watching = None
        if seat is not None and room.status == WAITING:
            self._free_waiting_seat(conn, room, seat)
        conn.room = conn.seat = None
        if seat is None:
            room.spectators.discard(conn)
            if room.status == WAITING:
                room.broadcast_room()
            else:
                room.spectators_changed()
        else:
            identity.room = identity.seat = None
            if room.status == WAITING:
                if room.humans():
                    room.broadcast_room()
            else:
                room.detach(seat, left=True, told=True)
        self._maybe_unload(room)
        conn.send(reply({"t": "left", "room": room.id}, rid))
        self.hub.lobby.send_rooms(conn, None)
        self.hub.rooms_changed()

    def on_bye(self, conn: Conn, msg: Bye, rid: int | None) -> None:
        """The client quits on purpose (Ctrl+Q): when its connection closes, the others
        read that the player left, not that the connection was lost. The seat stays the
        identity's: the next `hello` with the token resumes it."""
        conn.bye = True

    def _free_waiting_seat(self, conn: Conn, room: Room, seat: int) -> None:
        """A player leaves a waiting room: stored first (the new seats, or the empty
        room's removal); a refused write (StoreError) leaves the room as it was."""
        saved = list(room.seats), room.host
        room.detach(seat)
        room.unseat(seat)
        try:
            if room.humans():
                self.hub.store.save_members(room.id, room.members_json())
            else:
                self._drop_waiting_room(room)
        except StoreError:
            room.seats, room.host = saved
            room.attach(seat, conn)
            raise

    def _drop_waiting_room(self, room: Room) -> None:
        """An empty waiting room disappears; its spectators go back to the lobby."""
        self.hub.store.delete_room(room.id)
        self.hub.rooms.pop(room.id, None)
        self._idle.pop(room.id, None)
        for conn in list(room.spectators):
            conn.room = conn.seat = None
            conn.send({"t": "left", "room": room.id})
        room.spectators.clear()
        self.hub.rooms_changed()

    def _hosted_waiting_room(self, conn: Conn) -> Room:
        room = conn.room
        if room is None or conn.seat is None or room.host != conn.seat:
            raise Refused("not_allowed", "only the room's host may do that")
        if room.status != WAITING:
            raise Refused("not_allowed", "the game has already started")
        return room

    def on_add_bot(self, conn: Conn, msg: AddBot, rid: int | None) -> None:
        info = game_of(conn)
        level = msg.level or info.default_bot
        if level not in info.bots:
            raise BadMessage(f"`level` must be one of {list(info.bots)}")
        room = self._hosted_waiting_room(conn)
        if room.free_seat() is None:
            raise Refused("room_full", "every seat is taken")
        self._store_new_seat(room, room.seat_bot(level))
        room.broadcast_room()
        self.hub.rooms_changed()

    def on_start(self, conn: Conn, msg: Start, rid: int | None) -> None:
        room = self._hosted_waiting_room(conn)
        if room.free_seat() is not None:
            raise Refused("not_allowed", "every seat must be taken before the start")
        self._check_game_limits(conn)
        room.address = conn.address
        room.start()
        self.hub.rooms_changed()

    # --------------------------------------------------------- connections

    def release(self, conn: Conn) -> None:
        """A connection is gone (or replaced): its seat stays, shown disconnected."""
        stopping = self.hub.stopping
        room, seat, identity = conn.room, conn.seat, conn.identity
        conn.room = conn.seat = None
        if identity is not None and identity.conn is conn:
            identity.conn = None
        if room is None:
            return
        if seat is None:
            room.spectators.discard(conn)
            if room.status == WAITING and not stopping:
                room.broadcast_room()
            elif not stopping:
                room.spectators_changed()
        else:
            room.detach(seat, left=conn.bye, told=not stopping)
            if room.status == FINISHED and identity is not None:
                identity.room = identity.seat = None
        self._maybe_unload(room)
        self.hub.rooms_changed()

    def _maybe_unload(self, room: Room) -> None:
        """A finished room leaves memory once nobody is looking at it and its time on
        the list (`finished_listed_s`) is over."""
        if room.status == FINISHED and room.unlisted and not room.members():
            self.hub.rooms.pop(room.id, None)

    def sweep(self) -> None:
        """Drop waiting rooms nobody has been connected to for a while (running games
        nobody attends end by `RoomEnds`' timers)."""
        for room in list(self.hub.rooms.values()):
            humans_here = any(room.seats[i].conn for i in room.humans())  # type: ignore[union-attr]
            if room.status not in (WAITING, PLAYING) or humans_here or room.spectators:
                self._idle.pop(room.id, None)
                continue
            idle = self._idle[room.id] = self._idle.get(room.id, 0) + 1
            if room.status == WAITING and idle >= IDLE_SWEEPS:
                self._drop_waiting_room(room)
                for i in room.humans():
                    room.unseat(i)
