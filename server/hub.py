"""The hub: a router from each client message to its handler, and the registries the
handlers share (rooms, connections, identities, limits, the store and the bots).

`Hub.handle` is synchronous and never raises: each frame is decoded, checked
and acted on in one step, so the handlers of different clients cannot
interleave and a bad frame can only ever earn its sender an `error`.

The handlers live by concern, in the folders of server/: `hello` in people/hello.py,
the room list in lobby/roomlist.py, rooms from the lobby's side in lobby/desk.py, the
game in rooms/play.py, names and records in people/players.py, devices in
people/devices.py, chat and rematches in rooms/chat.py and rooms/rematch.py, reviews in
rooms/reviews.py. Identities in memory are people/identities.py's `People`, which the
doors ask.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from modernart.server.doors.registry import Doors
from modernart.server.limits import NEW_IDENTITIES_BURST, ROOM_CHAT_BURST, Buckets, Limits
from modernart.server.lobby.desk import RoomDesk
from modernart.server.lobby.roomlist import Lobby
from modernart.server.lobby.running import RunningGames
from modernart.server.people.devices import DeviceDesk
from modernart.server.people.handoff import HandoffCodes
from modernart.server.people.hello import on_hello, on_hello_again
from modernart.server.people.identities import People
from modernart.server.people.passwords import Passwords
from modernart.server.people.players import PlayerDesk
from modernart.server.rooms.botpool import BotPool
from modernart.server.rooms.chat import on_chat
from modernart.server.rooms.ends import RoomEnds
from modernart.server.rooms.play import on_act, on_history, on_sync
from modernart.server.rooms.ports import Clock
from modernart.server.rooms.rematch import on_rematch
from modernart.server.rooms.reviews import Reviewer
from modernart.server.rooms.room import PLAYING, Room
from modernart.server.store.errors import StoreError
from modernart.server.store.port import StorePort
from modernart.server.wire import messages as m
from modernart.server.wire.codec import BadMessage
from modernart.server.wire.edge import BadFrame, decode_message
from modernart.server.wire.logthrottle import LogThrottle
from modernart.server.wire.outbox import Lost, Outbox
from modernart.server.wire.pacing import LoopStalls
from modernart.server.wire.refusal import Refused, error
from modernart.server.wire.session import Conn, Identity

if TYPE_CHECKING:
    from modernart.server.cluster.relay import Cluster

log = logging.getLogger("modernart.server")

SWEEP_EVERY = 60.0
COULD_NOT_SAVE = "the server could not save this change, so nothing changed; try again later"

# A handler takes its own message type (server/wire/messages.py), hence Any here.
Handler = Callable[[Conn, Any, int | None], None]


class Hub:
    def __init__(
        self,
        store: StorePort,
        *,
        dev: bool = False,
        limits: Limits | None = None,
        bots: BotPool | None = None,
        review_worlds: int | None = None,
    ) -> None:
        self.store = store
        self.dev = dev
        # Every frame waits for the turn's end, and its commit (server/wire/outbox.py).
        self.outbox = Outbox(store.commit_batch, self.rewind_rooms)
        store.batch_opened = self.outbox.batch_begun
        self.bots = bots or BotPool()  # searching bots' worker processes, started on demand
        # Finished games' reviews, in the pool's review worker (server/rooms/reviews.py).
        self.reviews = Reviewer(store, self.bots)
        if review_worlds is not None:
            self.reviews.worlds = review_worlds
        self.quiet = LogThrottle(
            log
        )  # errors a client's message causes (server/wire/logthrottle.py)
        self.limits = limits or (Limits.for_dev() if dev else Limits())
        self.rooms: dict[str, Room] = {}
        self.clock: Clock | None = None  # the rooms' timers: None, the running loop
        self.conns: set[Conn] = set()
        self.running = RunningGames()  # running games per address and identity
        self.people = People(store, self.limits, self.rooms)
        # With --redis, this process in a cluster of them (server/cluster/); None: alone.
        self.cluster: Cluster | None = None
        self.lobby = Lobby(self.listed_rooms, lambda: self.conns)
        self.new_identities = Buckets(
            NEW_IDENTITIES_BURST, self.limits.new_identities_per_hour / 3600
        )
        self.passwords = Passwords(self.limits.password_tries_per_minute, self.note)
        # "Play this identity elsewhere" codes (server/people/handoff.py): wrong codes
        # are limited per address like wrong passwords. A cluster puts them in the store.
        self.handoffs = HandoffCodes(self.limits.password_tries_per_minute)
        self.doors = (
            Doors()
        )  # the SSH and browser doors' terminal sessions (server/doors/registry.py)
        self.room_chats = Buckets(ROOM_CHAT_BURST, self.limits.room_chats_per_s or float("inf"))
        self.noted: Counter[str] = Counter()  # abuses since the last sweep
        self.stalls = LoopStalls()  # the loop's own hold-ups (rates by arrival)
        self.stopping = False
        self._sweep: asyncio.TimerHandle | None = None
        self.players = PlayerDesk(store, lambda: self.conns)
        self.ends = RoomEnds(self)
        # An identity's devices (server/people/devices.py).
        self.devices = DeviceDesk(store, self.handoffs, self.doors)
        self.desk = RoomDesk(self)
        desk = self.desk
        self.handlers: dict[type[m.Message], Handler] = {
            m.Hello: on_hello_again,
            m.Rooms: self.lobby.on_rooms,
            m.Create: desk.on_create,
            m.Join: desk.on_join,
            m.Watch: desk.on_watch,
            m.Leave: desk.on_leave,
            m.Bye: desk.on_bye,
            m.AddBot: desk.on_add_bot,
            m.Start: desk.on_start,
            m.Chat: lambda conn, msg, rid: on_chat(self, conn, msg, rid),
            m.Act: on_act,
            m.Sync: on_sync,
            m.History: on_history,
            m.Rename: self.players.on_rename,
            m.Who: self.players.on_who,
            m.Leaderboard: self.players.on_leaderboard,
            m.Games: self.players.on_games,
            m.Record: self.players.on_record,
            m.Review: self.reviews.on_review,
            m.Rematch: lambda conn, msg, rid: on_rematch(self, conn, msg, rid),
            m.Handoff: self.devices.on_handoff,
            m.Claim: self.devices.on_claim,
            m.Devices: self.devices.on_devices,
            m.RevokeDevice: self.devices.on_revoke,
        }

    @property
    def identities(self) -> dict[str, Identity]:
        """The identities in memory (`People`'s; the doors ask `people` instead)."""
        return self.people.identities

    # ------------------------------------------------------------ lifecycle

    def load(self, only: set[str] | None = None) -> None:
        """Replay every unfinished room from the store (the record is the truth); in a
        cluster `only` those this process claimed."""
        self.players.start()
        for stored in self.store.unfinished_rooms():
            if only is not None and stored.id not in only:
                continue
            try:
                self.desk.restore(stored)
            except Exception:
                log.exception("room %s could not be restored; it is closed", stored.id)
                self.store.set_status(stored.id, "closed")
        self._sweep = asyncio.get_running_loop().call_later(SWEEP_EVERY, self.sweep)
        self.stalls.start()

    def rewind_rooms(self, lost: Lost) -> None:
        """Rooms whose last changes a failed group commit lost go back to the store's."""
        for room_id, (actions, seq) in lost.items():
            room = self.rooms.get(room_id)
            if room is None:
                continue
            try:
                room.rewind(actions, seq)
            except Exception:
                log.exception("room %s could not go back to its stored state", room_id)

    def shutdown(self) -> None:
        self.stopping = True
        self.stalls.stop()
        self.lobby.stop()
        self.people.stop()
        if self._sweep is not None:
            self._sweep.cancel()
        for room in self.rooms.values():
            room.stop_clocks()
        self.ends.stop()
        self.reviews.stop()
        self.bots.close()

    def sweep(self) -> None:
        """Once a minute: rooms and identities nobody uses go, abuses are logged."""
        try:
            self.desk.sweep()
            self._log_noted()
            self.new_identities.prune()
            self.passwords.tries.prune()
            self.room_chats.prune()
            self.people.sweep()
        except StoreError as exc:
            log.error("sweep: %s", exc)
        except Exception:
            log.exception("sweep failed")
        if self._sweep is not None:
            self._sweep.cancel()
        self._sweep = asyncio.get_running_loop().call_later(SWEEP_EVERY, self.sweep)

    def note(self, what: str) -> None:
        """Count an abuse; the sweeper logs the counts once a minute (one line, not
        one per abusive message or connection, which would flood the log)."""
        self.noted[what] += 1

    def _log_noted(self) -> None:
        if self.noted:
            counts = ", ".join(f"{n} {what}" for what, n in self.noted.items())
            log.warning("in the last minute: %s", counts)
            self.noted.clear()

    # ---------------------------------------------------------- connections

    def connected(self, conn: Conn) -> None:
        self.conns.add(conn)
        conn.stall_seen = self.stalls.total()

    def disconnected(self, conn: Conn) -> None:
        self.conns.discard(conn)
        if self.cluster is not None:
            self.cluster.released(conn)
        if conn.dropped:
            self.note("clients dropped for not reading their messages")
        try:
            self.desk.release(conn)
        except Exception:
            log.exception("releasing a connection failed")

    # ------------------------------------------- what rooms ask (RoomHost)

    def rooms_changed(self) -> None:
        self.lobby.changed()
        if self.cluster is not None:
            self.cluster.nodes.soon()

    def elsewhere(self, kind: str, key: str) -> int:
        """In a cluster, what the other processes count of `kind` (server/limits.py) for
        `key`, an address or an identity: added to this process's own for the limits."""
        return 0 if self.cluster is None else self.cluster.nodes.count(kind, key)

    def listed_rooms(self) -> list[Any]:
        """The lobby's rooms: this process's, and in a cluster every other's too."""
        if self.cluster is None:
            return list(self.rooms.values())
        return [*self.rooms.values(), *self.cluster.nodes.remote_rooms()]

    def new_room_id(self) -> str:
        while True:
            room_id = secrets.token_hex(4)
            if room_id not in self.rooms and not self.store.room_exists(room_id):
                return room_id

    def status_changed(self, room: Room, was: str) -> None:
        """A room turned `playing`, or stopped being so. The players of a game that
        starts are kept for good (issue 33: not those who only sat in a room)."""
        if room.status == PLAYING:
            self.running.started(room)
            for i in room.humans():
                self.people.mark_seated(room.seats[i].identity)  # type: ignore[union-attr,arg-type]
        elif was == PLAYING:
            self.running.ended(room)

    def game_over(self, room: Room) -> dict[str, Any] | None:
        """A game just finished: listed a while longer, results stored and rated; the
        `rated` event for its last update (None if the store refused)."""
        self.ends.finished(room)
        try:
            rated = self.players.game_over(room)
        except StoreError as exc:
            log.error("room %s: %s; the game is rated at the next start", room.id, exc)
            return None
        except Exception:  # the game's last update must go out whatever happens here
            log.exception("room %s: rating the game failed", room.id)
            return None
        return {"type": "rated", **rated}

    def attendance_changed(self, room: Room) -> None:
        self.ends.attendance_changed(room)

    # ------------------------------------------------------------- messages

    def arrive(self, conn: Conn) -> bool:
        """Whether a message arriving now is within the connection's rate, rated as it
        comes off the socket (server/wire/pacing.py): a stall of the server's own since
        the last refusal is credited first, so the messages that piled up while the
        loop was held up never count as the client's burst."""
        bucket = conn.messages
        if bucket.take():
            return True
        stalled = self.stalls.total()
        extra, conn.stall_seen = stalled - conn.stall_seen, stalled
        if extra <= 0:
            return False
        bucket.credit(extra)
        return bucket.take()

    def handle(self, conn: Conn, frame: object, within_rate: bool) -> None:
        """Handle one frame (`within_rate`: see `arrive`). Never raises; before `hello`
        any error closes the connection."""
        if conn.closed:
            return
        rid: int | None = None
        close_reason = "the first message must be a valid hello"
        try:
            msg = decode_message(frame)  # typed once, here (server/wire/edge.py)
            rid = msg.rid
            if not within_rate:  # refused with its `re`, as PROTOCOL.md asks of every error
                raise Refused("rate_limited", "too many messages; slow down", abuse=True)
            if conn.identity is None:
                if not isinstance(msg, m.Hello):
                    raise BadMessage("the first message must be hello")
                on_hello(self, conn, msg, rid)
                if self.cluster is not None:
                    self.cluster.welcomed(conn)
                return
            if self.cluster is not None and self.cluster.takes(conn, msg, frame):
                return
            self.handlers[type(msg)](conn, msg, rid)
        except BadMessage as exc:
            if isinstance(exc, BadFrame):
                rid = exc.rid
            self._abuse(conn, "bad_message", str(exc), rid)
        except Refused as exc:
            close_reason = str(exc)
            if exc.abuse:
                self._abuse(conn, exc.code, str(exc), rid)
            else:
                conn.send({**error(exc.code, str(exc), rid), **exc.extra})
        except StoreError as exc:
            self.quiet.emit(logging.ERROR, "store", "%s (for %s)", exc, conn.address)
            conn.send(error("internal", COULD_NOT_SAVE, rid))
            if conn.identity is None and not conn.closed:
                conn.close(1011, "the server could not save your identity; try again later")
        except Exception:
            self.quiet.exception("internal", "internal error on a message from %s", conn.address)
            conn.send(error("internal", "the server failed on this message", rid))
        if conn.identity is None and not conn.closed:
            # Still no identity after a first message: it was not a valid hello.
            conn.close(1008, close_reason)

    def _abuse(self, conn: Conn, code: str, message: str, rid: int | None) -> None:
        conn.send(error(code, message, rid))
        if not conn.abuse.take():
            log.debug("closing %s after repeated bad messages", conn.address)
            self.note("connections closed after repeated bad messages")
            conn.close(1008, "too many bad messages", stop_reading=True)
