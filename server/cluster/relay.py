"""`Cluster`: this process in a cluster of `modernart-server` processes (`--redis`).

A room lives on one process. A client connected to another process (its *edge*)
plays it all the same: the edge carries the client's room messages, as the frames
they came in, to the room's process (`takes`), which handles them for a stand-in of
the client (`RemoteConn`) and carries back the frames the client gets. Lobby
messages (rooms, who, ratings, records, devices) stay on the edge: the store is
shared and every process lists every process's rooms (nodes.py) and people (who.py).

Messages between processes (msgpack over bus.py), `c` the client's key:
  m  edge → room   a client frame `f`, with the client's address and identity
  g  edge → room   the client's socket closed
  o  room → edge   frames `f` for the client, in order
  r  room → edge   the client is now in `room` (None: it left), at `seat` (None: watching)
  x  room → edge   close the client's socket (`code`, `why`)

A process that dies (kill -9) stops beating: the others claim its rooms, one process
each, restore them from the store (every acted move is there before anyone hears of
it), and send their clients who were in one back to it, seated as before. A room no
beat ever named (made just before such a kill) is found by a scan of the store
(orphans.py) and adopted the same way.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
from collections import Counter
from typing import TYPE_CHECKING, Any, Protocol

import msgpack

from modernart.server.cluster.bus import LOBBY, Bus
from modernart.server.cluster.nodes import Counts, Node, Nodes
from modernart.server.cluster.orphans import OrphanScan
from modernart.server.cluster.rates import SharedRates
from modernart.server.cluster.remote import Link, RemoteConn
from modernart.server.cluster.who import Who, people_of
from modernart.server.limits import (
    CONNECTIONS,
    GAMES_BY_ADDRESS,
    GAMES_BY_IDENTITY,
    NEW_IDENTITIES,
    WAITING_ROOMS,
    WRONG_CODES,
    WRONG_PASSWORDS,
)
from modernart.server.people.handoff import StoredHandoffCodes
from modernart.server.rooms.base import FINISHED, PLAYING, WAITING
from modernart.server.store.errors import StoreError
from modernart.server.wire import messages as m

if TYPE_CHECKING:
    from modernart.server.limits import Buckets, Limits
    from modernart.server.lobby.desk import RoomDesk
    from modernart.server.lobby.roomlist import Lobby
    from modernart.server.lobby.running import RunningGames
    from modernart.server.people.devices import DeviceDesk
    from modernart.server.people.handoff import HandoffCodes
    from modernart.server.people.identities import People
    from modernart.server.people.passwords import Passwords
    from modernart.server.people.players import PlayerDesk
    from modernart.server.rooms.room import Room
    from modernart.server.store.port import StorePort
    from modernart.server.wire.outbox import Outbox
    from modernart.server.wire.session import Conn

log = logging.getLogger("modernart.server")

# What a client in another process's room still asks of its own process.
LOCAL = (
    m.Hello,
    m.Rooms,
    m.Who,
    m.Leaderboard,
    m.Games,
    m.Record,
    m.Review,
    m.Handoff,
    m.Claim,
    m.Devices,
    m.RevokeDevice,
)


class ClusterHost(Protocol):
    """What the cluster needs of the hub (server/hub.py's `Hub`)."""

    rooms: dict[str, Room]
    conns: set[Conn]
    running: RunningGames
    store: StorePort
    people: People
    players: PlayerDesk
    limits: Limits
    outbox: Outbox
    desk: RoomDesk
    devices: DeviceDesk
    handoffs: HandoffCodes
    passwords: Passwords
    new_identities: Buckets
    lobby: Lobby
    stopping: bool

    def handle(self, conn: Conn, frame: object, within_rate: bool) -> None: ...

    def disconnected(self, conn: Conn) -> None: ...

    def rooms_changed(self) -> None: ...


class ClusterError(Exception):
    """Redis cannot be reached (or redis-py is missing): the server cannot start."""


class Cluster(Link):
    def __init__(self, url: str, hub: ClusterHost, node: str | None = None) -> None:
        self.node = node or secrets.token_hex(4)
        self.hub = hub
        self.bus = Bus(url, self.node)
        # Hand-off codes in the shared store, good on any process (people/handoff.py).
        codes = StoredHandoffCodes(hub.store, hub.limits.password_tries_per_minute)
        hub.handoffs = hub.devices.handoffs = codes
        self.rates = SharedRates(  # spent here, debited there (rates.py)
            {
                WRONG_PASSWORDS: hub.passwords.tries,
                WRONG_CODES: codes.tries,
                NEW_IDENTITIES: hub.new_identities if hub.limits.new_identities_per_hour else None,
            }
        )
        self.nodes = Nodes(
            self.bus,
            lambda: hub.rooms.values(),
            hub.lobby.changed,
            self.counts,
            lambda: people_of(hub.conns),
            self.rates.spent,
        )
        self.nodes.on_spent = self.rates.debit
        hub.players.everyone = Who(lambda: hub.conns, hub.rooms, self.nodes).everyone
        self.nodes.on_dead = self._dead
        self.nodes.on_rooms = self._heard_rooms
        self.nodes.on_lost = self._lost
        self.scan = OrphanScan(hub, self.nodes, self.adopt)  # rooms nobody holds
        self._keys = itertools.count()
        self.local: dict[str, Conn] = {}  # edge: clients here that spoke to another process
        self.remotes: dict[str, RemoteConn] = {}  # room: stand-ins of other processes' clients
        self.orphans: dict[str, list[tuple[Conn, bool]]] = {}  # room → clients, seated?
        self.homeless: dict[str, Conn] = {}  # identity → a client here, back to its seat?
        self._tasks: set[asyncio.Task] = set()

    async def start(self) -> list[str]:
        """Connect, and claim the stored unfinished rooms no living process holds:
        their ids, for the hub to restore."""
        try:
            await self.bus.start(self._received)
        except Exception as exc:  # redis-py's errors are its own, not OSError
            raise ClusterError(f"cannot reach Redis at {self.bus.url}: {exc}") from None
        unfinished = [stored.id for stored in self.hub.store.unfinished_rooms()]
        return await self.nodes.claim(unfinished)

    def beat(self) -> None:
        """Start beating, and scanning for rooms nobody holds (once the restored rooms
        are in the hub)."""
        self.nodes.start()
        self.scan.start()

    async def stop(self) -> None:
        self.scan.stop()
        self.nodes.stop()
        for task in self._tasks:
            task.cancel()
        await self.bus.stop()

    def counts(self) -> Counts:
        """This process's counts for the limits that hold across processes (each beat)."""
        hub = self.hub
        connections = Counter(c.address for c in hub.conns)
        waiting = Counter(r.address for r in hub.rooms.values() if r.status == WAITING)
        return {
            CONNECTIONS: dict(connections),
            WAITING_ROOMS: {a: n for a, n in waiting.items() if a is not None},
            GAMES_BY_ADDRESS: hub.running.by_address(),
            GAMES_BY_IDENTITY: hub.running.by_identity(),
        }

    # ------------------------------------------------------------- edge side

    def takes(self, conn: Conn, msg: m.Message, frame: Any) -> bool:
        """Whether `msg` is for a room of another process: then it is carried there."""
        if isinstance(conn, RemoteConn):
            return False
        node = conn.remote
        if node is None:
            if not isinstance(msg, m.Join | m.Watch) or conn.room is not None:
                return False
            if msg.room in self.hub.rooms:
                return False
            node = self.nodes.owner_of(msg.room)
            if node is None:
                return False
        elif isinstance(msg, LOCAL):
            return False
        self.forward(conn, node, bytes(frame))
        return True

    def forward(self, conn: Conn, node: str, frame: bytes) -> None:
        key = conn.cluster_key
        if key is None:
            key = conn.cluster_key = f"{self.node}.{next(self._keys)}"
            self.local[key] = conn
        conn.links.add(node)
        identity = conn.identity
        assert identity is not None
        payload = {"k": "m", "c": key, "e": self.node, "f": frame, "a": conn.address}
        payload.update(i=identity.id, n=identity.name)
        self.bus.send(node, payload)

    def welcomed(self, conn: Conn) -> None:
        """A client said hello here: back to its seat if it is in another process's
        room (now, or when that process is heard next)."""
        identity = conn.identity
        if identity is None or conn.room is not None:
            return
        self.homeless[identity.id] = conn
        found = self.nodes.seat_of(identity.id)
        if found is not None:
            self._back(conn, found[0], found[1], seated=True)

    def released(self, conn: Conn) -> None:
        """A client here is gone: the processes it spoke to let go of it."""
        identity = conn.identity
        if identity is not None and self.homeless.get(identity.id) is conn:
            del self.homeless[identity.id]
        key = conn.cluster_key
        if key is None:
            return
        self.local.pop(key, None)
        for node in conn.links:
            self.bus.send(node, {"k": "g", "c": key})

    def _back(self, conn: Conn, node: str, room_id: str, *, seated: bool) -> None:
        """`conn` into `room_id` again (its seat, or watching), wherever it is now. A
        returning client stays `homeless` until the room's process says it entered."""
        if conn.closed or conn.room is not None or conn.remote is not None:
            return
        frame = msgpack.packb({"t": "join" if seated else "watch", "room": room_id})
        if node == self.node:
            self.hub.handle(conn, frame, True)
            if conn.identity is not None and conn.room is not None:
                self.homeless.pop(conn.identity.id, None)
        else:
            self.forward(conn, node, frame)

    def _rehome(self, node: str, seats: dict[str, str]) -> None:
        """Returning clients here whose seat (identity → room) is on `node`: back to it."""
        for identity_id, room_id in seats.items():
            conn = self.homeless.get(identity_id)
            if conn is not None:
                self._back(conn, node, room_id, seated=True)

    # ------------------------------------------------------------- room side

    def tell(self, conn: RemoteConn, payload: dict[str, Any]) -> None:
        payload["c"] = conn.key
        if payload["k"] == "r":
            payload["p"] = self.node
        self.bus.send(conn.edge, payload)

    def _arrived(self, payload: dict[str, Any]) -> None:
        key = payload["c"]
        conn = self.remotes.get(key)
        if conn is None:
            hub = self.hub
            conn = RemoteConn(self, key, payload["e"], payload["a"], hub.limits, hub.outbox)
            identity = hub.people.get(payload["i"], payload["n"])
            conn.identity = identity
            old = identity.conn
            if old is not None and not old.closed:  # as a newer hello replaces it here
                hub.desk.release(old)
                hub.devices.replaced(old, conn)
            identity.conn = conn
            self.remotes[key] = conn
        self.hub.handle(conn, payload["f"], True)

    def _left(self, key: str) -> None:
        conn = self.remotes.pop(key, None)
        if conn is not None:
            conn.gone = True
            self.hub.disconnected(conn)
            conn.closed = True

    # ------------------------------------------------------------- messages

    def _received(self, channel: str, payload: dict[str, Any]) -> None:
        if channel == LOBBY:
            self.nodes.heard(payload)
            return
        kind = payload["k"]
        if kind == "m":
            self._arrived(payload)
        elif kind == "g":
            self._left(payload["c"])
        else:
            conn = self.local.get(payload["c"])
            if conn is None or conn.closed:
                return
            if kind == "o":
                for frame in payload["f"]:
                    conn.send_framed(frame)
            elif kind == "r":
                room = payload["room"]
                conn.remote = None if room is None else payload["p"]
                conn.remote_room, conn.remote_seat = room, payload["seat"]
                if room is not None and conn.identity is not None:
                    self.homeless.pop(conn.identity.id, None)
            elif kind == "x":
                conn.close(payload["code"], payload["why"])

    # ------------------------------------------------------------- a process dies

    def _dead(self, node: str, last: Node) -> None:
        for key, conn in list(self.remotes.items()):
            if conn.edge == node:  # its clients' sockets died with it
                self._left(key)
        for conn in list(self.local.values()):
            if conn.remote == node and conn.remote_room is not None:
                room_id, seated = conn.remote_room, conn.remote_seat is not None
                conn.remote = conn.remote_room = conn.remote_seat = None
                self.orphans.setdefault(room_id, []).append((conn, seated))
            conn.links.discard(node)
        unfinished = [r.id for r in last.rooms if r.status != FINISHED]
        if unfinished:
            self._run(self._take(node, unfinished))

    async def _take(self, dead: str, room_ids: list[str]) -> None:
        won = await self.nodes.claim(room_ids, dead=dead)
        self.adopt(won, f"process {dead}")

    def adopt(self, room_ids: list[str], whence: str) -> list[str]:
        """Rooms this process just claimed, restored from the store and their clients
        here seated again (those elsewhere return when its next beat names them): those
        now held here. A room the store cannot replay is closed, as at a start
        (`Hub.load`): else every scan (orphans.py) would claim and fail on it again."""
        hub = self.hub
        adopted = []
        for room_id in room_ids:
            stored = hub.store.room(room_id)
            if room_id in hub.rooms or stored is None:
                continue
            if stored.status not in (WAITING, PLAYING):
                continue
            try:
                hub.desk.restore(stored)
            except Exception:
                log.exception("cluster: room %s could not be taken over; it is closed", room_id)
                try:
                    hub.store.set_status(room_id, "closed")
                except StoreError as exc:
                    log.error("cluster: room %s: %s", room_id, exc)
                continue
            log.info("cluster: took over room %s from %s", room_id, whence)
            self._resettle(self.node, room_id)
            room = hub.rooms.get(room_id)
            if room is not None:  # else its game had ended: rated now (`restore`)
                adopted.append(room_id)
                seated = [room.seats[i].identity.id for i in room.humans()]  # type: ignore[union-attr]
                self._rehome(self.node, dict.fromkeys(seated, room_id))
        if room_ids:
            hub.rooms_changed()
        return adopted

    def _lost(self, room_ids: list[str]) -> None:
        """Rooms another process took while this one was taken for dead: given up, and
        their clients' sockets closed (1012): they come back, seated, through the room's
        new process (a second copy here would diverge)."""
        hub = self.hub
        for room_id in room_ids:
            room = hub.rooms.pop(room_id, None)
            if room is None:
                continue
            room.stop_clocks()
            hub.running.ended(room)
            for conn, _ in room.members():
                conn.close(1012, "this room moved to another server process; connect again")
        hub.rooms_changed()

    def _heard_rooms(self, node: str, heard: Node) -> None:
        for room in heard.rooms:
            if room.id in self.orphans:
                self._resettle(node, room.id)
        self._rehome(node, heard.seats)

    def _resettle(self, node: str, room_id: str) -> None:
        for conn, seated in self.orphans.pop(room_id, []):
            self._back(conn, node, room_id, seated=seated)

    def _run(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
