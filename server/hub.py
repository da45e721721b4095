"""The hub: identities, the lobby, rooms, and every client message's handler.

`Hub.handle` is synchronous and never raises: each frame is decoded, checked
and acted on in one step, so the handlers of different clients cannot
interleave and a bad frame can only ever earn its sender an `error`.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from modernart.engine import Record, RuleError
from modernart.engine.games import DEFAULT_GAME, GAME_NAMES, GameInfo, get_game

from . import __version__
from .actions import CloseNotAllowed, parse_action
from .botpool import BotPool
from .chat import on_chat
from .codec import BadMessage, decode, encode, encode_entries, map_header, ws_frame
from .devices import DeviceDesk
from .fields import get_int, get_name, get_str, is_int
from .handoff import HandoffCodes
from .limits import NEW_IDENTITIES_BURST, PASSWORD_TRIES, ROOM_CHAT_BURST, Buckets, Limits
from .listing import RoomList
from .logthrottle import LogThrottle
from .options import DevOnly, RoomOptions, RoomSettings, parse_create
from .outbox import Lost, Outbox
from .pacing import LoopStalls
from .players import PlayerDesk
from .refusal import Refused
from .rematch import on_rematch
from .room import FINISHED, PLAYING, WAITING, Room, Seat
from .roomends import RoomEnds
from .roomports import ports_of
from .running import RunningGames
from .session import Conn, Identity
from .store import Store, StoreError

log = logging.getLogger("modernart.server")

PROTOCOL_VERSION = 1
LOBBY_PUSH_DELAY = 0.05  # a quiet lobby hears of a change this fast …
LOBBY_PUSH_EVERY = 1.0  # … but gets at most one `rooms` push a second
SWEEP_EVERY = 60.0
# Identities forgotten per step; between steps the loop serves everyone else for
# EXPIRY_YIELD times as long as the step took (at least 10 ms): expiry takes a
# fifth of the loop at most, however slow the disk or busy the machine.
EXPIRY_BATCH, EXPIRY_YIELD = 200, 4.0
IDLE_SWEEPS = 10  # a waiting room nobody is connected to goes after ~10 minutes
# Packed events in one `history` answer: a quarter of the 1 MiB a client's frames
# may hold (tui/connection.py), so that an answer never closes the client with 1009.
HISTORY_PAGE = 256 * 1024


COULD_NOT_SAVE = "the server could not save this change, so nothing changed; try again later"


def error(code: str, message: str, rid: int | None) -> dict[str, Any]:
    out: dict[str, Any] = {"t": "error", "code": code, "message": message}
    if rid is not None:
        out["re"] = rid
    return out


def _reply(message: dict[str, Any], rid: int | None) -> dict[str, Any]:
    if rid is not None:
        message["re"] = rid
    return message


def hash_password(password: str, salt: str) -> str:
    return hashlib.sha256((salt + password).encode()).hexdigest()


class Hub:
    def __init__(
        self,
        store: Store,
        *,
        dev: bool = False,
        limits: Limits | None = None,
        bots: BotPool | None = None,
    ) -> None:
        self.store = store
        self.dev = dev
        # Every frame waits for the turn's end, and its commit (server/outbox.py).
        self.outbox = Outbox(store.commit_batch, self.rewind_rooms)
        store.batch_opened = self.outbox.batch_begun
        self.bots = bots or BotPool()  # searching bots' worker processes, started on demand
        self.quiet = LogThrottle(log)  # errors a client's message causes (server/logthrottle.py)
        self.limits = limits or (Limits.for_dev() if dev else Limits())
        self.rooms: dict[str, Room] = {}
        self.running = RunningGames()  # running games per address and identity
        self.listing = RoomList(self.rooms.values)
        self.new_identities = Buckets(
            NEW_IDENTITIES_BURST, self.limits.new_identities_per_hour / 3600
        )
        # Wrong passwords, per address and per room id (item 7 of issue 7).
        self.password_tries = Buckets(
            PASSWORD_TRIES, self.limits.password_tries_per_minute / 60 or float("inf")
        )
        # "Play this identity elsewhere" codes (server/handoff.py): wrong codes
        # are limited per address like wrong passwords.
        self.handoffs = HandoffCodes(self.limits.password_tries_per_minute)
        # Told of every redeemed `claim` (conn, token): a terminal session's key moves
        # to the claimed identity (server/terminal/terminals.py).
        self.claim_listeners: list[Callable[[Conn, str], None]] = []
        # Told of every `welcome` (conn, token): a guest's terminal session learns the
        # identity its client was given, to come back as it after a restart.
        self.welcome_listeners: list[Callable[[Conn, str], None]] = []

        self.room_chats = Buckets(ROOM_CHAT_BURST, self.limits.room_chats_per_s or float("inf"))
        self.noted: Counter[str] = Counter()  # abuses since the last sweep
        self.identities: dict[str, Identity] = {}
        self.conns: set[Conn] = set()
        self.stalls = LoopStalls()  # the loop's own hold-ups (rates by arrival)
        self.stopping = False
        self._push: asyncio.TimerHandle | None = None
        self._last_push = float("-inf")
        self._sweep: asyncio.TimerHandle | None = None
        self._idle: dict[str, int] = {}
        self.players = PlayerDesk(store, lambda: self.conns)
        self.ends = RoomEnds(self)
        # An identity's devices (server/devices.py).
        self.devices = DeviceDesk(store, self.handoffs, self.claim_listeners)
        self._expiry: asyncio.TimerHandle | None = None  # the next batch of expiries
        self._expired = 0  # identities forgotten by the batches under way
        self.handlers: dict[str, Callable[[Conn, dict[str, Any], int | None], None]] = {
            "hello": self.on_hello_again,
            "rooms": self.on_rooms,
            "create": self.on_create,
            "join": self.on_join,
            "watch": self.on_watch,
            "leave": self.on_leave,
            "bye": self.on_bye,
            "add_bot": self.on_add_bot,
            "start": self.on_start,
            "chat": lambda conn, msg, rid: on_chat(self, conn, msg, rid),
            "act": self.on_act,
            "sync": self.on_sync,
            "history": self.on_history,
            "rename": self.players.on_rename,
            "who": self.players.on_who,
            "leaderboard": self.players.on_leaderboard,
            "games": self.players.on_games,
            "record": self.players.on_record,
            "rematch": lambda conn, msg, rid: on_rematch(self, conn, msg, rid),
            "handoff": self.devices.on_handoff,
            "claim": self.devices.on_claim,
            "devices": self.devices.on_devices,
            "revoke_device": self.devices.on_revoke,
        }

    # ------------------------------------------------------------ lifecycle

    def load(self) -> None:
        """Replay every unfinished room from the store (the record is the truth)."""
        self.players.start()
        for stored in self.store.unfinished_rooms():
            try:
                self._load_room(stored)
            except Exception:
                log.exception("room %s could not be restored; it is closed", stored.id)
                self.store.set_status(stored.id, "closed")
        self._sweep = asyncio.get_running_loop().call_later(SWEEP_EVERY, self.sweep)
        self.stalls.start()

    def _load_room(self, stored: Any) -> None:
        settings = RoomSettings(
            stored.settings["seats"],
            stored.name,
            stored.settings["variant"],
            RoomOptions.from_json(stored.settings["options"]),
            stored.settings.get("game", DEFAULT_GAME),  # rooms stored before other games
        )
        room = Room(ports_of(self), stored.id, settings, stored.settings.get("password"))
        room.host = stored.members.get("host")
        room.seq = stored.seq
        for i, entry in enumerate(stored.members["seats"]):
            if entry is None:
                continue
            if "bot" in entry:
                room.seat_bot(entry["bot"], at=i, name=entry["name"])
                continue
            identity = self._identity(entry["identity"], entry["name"])
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
            ).played()
            if game.finished:
                self.players.game_restored_over(room, game)
                return
            room.resume(game, stored.seq)
        self.rooms[room.id] = room
        log.info("restored room %s (%s, %d actions)", room.id, room.status, len(stored.actions))

    def _identity(self, identity_id: str, name: str) -> Identity:
        identity = self.identities.get(identity_id)
        if identity is None:
            identity = Identity(identity_id, self.store.identity_name(identity_id) or name)
            self.identities[identity_id] = identity
        return identity

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
        for handle in (self._push, self._sweep, self._expiry):
            if handle is not None:
                handle.cancel()
        for room in self.rooms.values():
            room.stop_clocks()
        self.ends.stop()
        self.bots.close()

    def sweep(self) -> None:
        """Drop waiting rooms nobody has been connected to for a while (running games
        nobody attends end by `RoomEnds`' timers)."""
        try:
            for room in list(self.rooms.values()):
                humans_here = any(room.seats[i].conn for i in room.humans())  # type: ignore[union-attr]
                if room.status not in (WAITING, PLAYING) or humans_here or room.spectators:
                    self._idle.pop(room.id, None)
                    continue
                idle = self._idle[room.id] = self._idle.get(room.id, 0) + 1
                if room.status == WAITING and idle >= IDLE_SWEEPS:
                    self._drop_waiting_room(room)
                    for i in room.humans():
                        room.unseat(i)
            self._forget_idle_identities()
            self._log_noted()
            self.new_identities.prune()
            self.password_tries.prune()
            self.room_chats.prune()
            if self._expiry is None:  # not still going from the last sweep
                self.expire_identities()
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

    def expire_identities(self) -> None:
        """Identities that never played a game (issue 33: sitting in a room is not
        enough; those seated in a room now are kept) are forgotten after `identity_ttl_hours`
        (their token then simply starts a new identity), EXPIRY_BATCH at a time with
        the loop free in between (EXPIRY_YIELD): a backlog of 200,000 never holds
        up play (issue 21)."""
        self._expiry = None
        ttl = self.limits.identity_ttl_hours
        if ttl <= 0 or self.stopping:
            return
        began = time.monotonic()
        keep = self._seated_ids() | {i.id for i in self.identities.values() if i.conn is not None}
        try:
            gone = self.store.expire_identities(time.time() - ttl * 3600, keep, EXPIRY_BATCH)
        except StoreError as exc:
            log.error("expiring identities: %s", exc)
            gone = 0
        self._expired += gone
        if gone == EXPIRY_BATCH:
            pause = max(0.01, EXPIRY_YIELD * (time.monotonic() - began))
            self._expiry = asyncio.get_running_loop().call_later(pause, self.expire_identities)
        elif self._expired:
            log.info("forgot %d identities that never played", self._expired)
            self._expired = 0

    def _seated_ids(self) -> set[str]:
        """Identities seated in a room the hub holds."""
        return {
            seat.identity.id
            for room in self.rooms.values()
            for seat in room.seats
            if seat is not None and seat.identity is not None
        }

    def _forget_idle_identities(self) -> None:
        """Drop identities neither connected nor seated from memory; the store keeps
        them, and a returning token loads them again (`_identity`)."""
        seated = self._seated_ids()
        for identity_id, identity in list(self.identities.items()):
            if identity.conn is None and identity_id not in seated:
                del self.identities[identity_id]

    # ---------------------------------------------------------- connections

    def connected(self, conn: Conn) -> None:
        self.conns.add(conn)
        conn.stall_seen = self.stalls.total()

    def disconnected(self, conn: Conn) -> None:
        self.conns.discard(conn)
        if conn.dropped:
            self.note("clients dropped for not reading their messages")
        try:
            self._release(conn)
        except Exception:
            log.exception("releasing a connection failed")

    def _release(self, conn: Conn) -> None:
        """A connection is gone (or replaced): its seat stays, shown disconnected."""
        room, seat, identity = conn.room, conn.seat, conn.identity
        conn.room = conn.seat = None
        if identity is not None and identity.conn is conn:
            identity.conn = None
        if room is None:
            return
        if seat is None:
            room.spectators.discard(conn)
            if room.status == WAITING and not self.stopping:
                room.broadcast_room()
            elif not self.stopping:
                room.spectators_changed()
        else:
            room.detach(seat, left=conn.bye, told=not self.stopping)
            if room.status == FINISHED and identity is not None:
                identity.room = identity.seat = None
        self._maybe_unload(room)
        self.rooms_changed()

    def _maybe_unload(self, room: Room) -> None:
        """A finished room leaves memory once nobody is looking at it and its time on
        the list (`finished_listed_s`) is over."""
        if room.status == FINISHED and room.unlisted and not room.members():
            self.rooms.pop(room.id, None)

    # ------------------------------------------------------- rooms' ends

    def game_over(self, room: Room) -> dict[str, Any] | None:
        """A game just finished: listed a while longer, results stored and rated; the
        `rated` event for its last update (None if the store refused)."""
        self.ends.finished(room)
        try:
            changes = self.players.game_over(room)
        except StoreError as exc:
            log.error("room %s: %s; the game is rated at the next start", room.id, exc)
            return None
        except Exception:  # the game's last update must go out whatever happens here
            log.exception("room %s: rating the game failed", room.id)
            return None
        return {"type": "rated", "ratings": changes}

    def attendance_changed(self, room: Room) -> None:
        self.ends.attendance_changed(room)

    # ------------------------------------------------------------- messages

    def arrive(self, conn: Conn) -> bool:
        """Whether a message arriving now is within the connection's rate, rated as it
        comes off the socket (server/pacing.py): a stall of the server's own since
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
            msg = decode(frame)
            if "id" in msg:
                if not is_int(msg["id"]):
                    raise BadMessage("`id` must be an integer")
                rid = msg["id"]
            if not within_rate:  # refused with its `re`, as PROTOCOL.md asks of every error
                raise Refused("rate_limited", "too many messages; slow down", abuse=True)
            if conn.identity is None:
                if msg["t"] != "hello":
                    raise BadMessage("the first message must be hello")
                self.on_hello(conn, msg, rid)
                return
            handler = self.handlers.get(msg["t"])
            if handler is None:
                raise BadMessage(f"unknown message type {msg['t']!r}")
            handler(conn, msg, rid)
        except BadMessage as exc:
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

    # ----------------------------------------------------------------- hello

    def on_hello(self, conn: Conn, msg: dict[str, Any], rid: int | None) -> None:
        version = msg.get("v")
        if not is_int(version):
            raise BadMessage("`v` must be an integer")
        if version != PROTOCOL_VERSION:
            conn.send(error("version", f"this server speaks version {PROTOCOL_VERSION}", rid))
            conn.close(1008, "unsupported protocol version")
            return
        name = get_name(msg)
        token = get_str(msg, "token", 1, 200, default=None)
        identity = None
        if token is not None:
            found = self.store.find_identity(token)
            if found is not None:
                identity_id, stored_name, seated = found
                identity = self._identity(identity_id, stored_name)
                identity.seated = seated
                # A returning player keeps the stored name if the new one is taken
                # (`welcome` says which name the server holds).
                if (
                    identity.name != name
                    and self.players.acceptable(name)
                    and not self.players.taken(name, identity.id)
                ):
                    self.players.claim(identity.id, name)
                    identity.name = name
                name = identity.name
        if identity is None:  # new, or a token this server never issued (or expired)
            self.players.check_new(name, door=conn.ticket is not None)
            if self.players.taken(name, None):
                raise self.players.refuse_taken(name)
            if self.limits.new_identities_per_hour and not self.new_identities[conn.address].take():
                log.debug("refusing a new identity to %s: too many from there", conn.address)
                self.note("new identities refused")
                raise Refused(
                    "rate_limited",
                    "too many new identities from your address; come back with your token"
                    " or try again later",
                )
            token = secrets.token_urlsafe(32)
            identity = Identity("u" + secrets.token_hex(6), name, seated=False)
            self.players.add_identity(identity.id, name, token)
            self.identities[identity.id] = identity
        self.devices.arrived(conn, token)
        old = identity.conn
        if old is not None:
            self._release(old)
            old.identity = None
            self.devices.replaced(old, conn)  # told which device took over, closed 4000
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
        if identity.watching is not None and identity.watching in self.rooms:
            welcome["watching"] = identity.watching  # the room this identity watched last
        conn.send(_reply(welcome, rid))
        for listener in self.welcome_listeners:
            listener(conn, token)
        room, seat = identity.room, identity.seat
        if (
            room is not None
            and seat is not None
            and room.status in (WAITING, PLAYING)
            and self.rooms.get(room.id) is room
            and room.seat_of(identity) == seat
        ):
            if room.status == WAITING:
                room.seats[seat].name = name  # type: ignore[union-attr]
            self._enter(conn, room, seat, None)
        else:
            identity.room = identity.seat = None
            self.send_rooms(conn, None)

    def on_hello_again(self, conn: Conn, msg: dict[str, Any], rid: int | None) -> None:
        raise Refused("not_allowed", "already said hello")

    # ----------------------------------------------------------------- lobby

    def send_rooms(
        self,
        conn: Conn,
        rid: int | None,
        status: str | None = None,
        page: int = 0,
        game: str | None = None,
    ) -> None:
        """A page of the room list (docs/protocol.md), packed once per change for
        everyone; a client that leaves its output unread gets none."""
        if not conn.backlogged:
            conn.send_now(ws_frame(self.listing.message(status, page, rid, game)))
            conn.rooms_pushed = None

    def rooms_changed(self) -> None:
        self.listing.changed()
        if self._push is None and not self.stopping:
            loop = asyncio.get_running_loop()
            wait = max(LOBBY_PUSH_DELAY, self._last_push + LOBBY_PUSH_EVERY - loop.time())
            self._push = loop.call_later(wait, self._push_rooms)

    def _push_rooms(self) -> None:
        self._push = None
        self._last_push = asyncio.get_running_loop().time()
        try:
            lobby = [c for c in self.conns if c.in_lobby and not c.backlogged]
            if lobby:
                frame = ws_frame(self.listing.message(None, 0, None))
                for conn in lobby:
                    # A change the first page does not show (a room further down, a
                    # finished game's clean-up) makes the same page: not sent again.
                    if conn.rooms_pushed != frame:
                        conn.send_now(frame)
                        conn.rooms_pushed = frame
        except Exception:
            log.exception("pushing the rooms list failed")

    def on_rooms(self, conn: Conn, msg: dict[str, Any], rid: int | None) -> None:
        status = get_str(msg, "status", 1, 16, default=None)
        if status not in (None, WAITING, PLAYING, FINISHED):
            raise BadMessage("`status` must be waiting, playing or finished")
        game = get_str(msg, "game", 1, 32, default=None)
        if game is not None and game not in GAME_NAMES:
            raise BadMessage(f"`game` must be one of {list(GAME_NAMES)}")
        page = get_int(msg, "page", 0, 100_000, default=0)
        self.send_rooms(conn, rid, status, page, game)

    def new_room_id(self) -> str:
        while True:
            room_id = secrets.token_hex(4)
            if room_id not in self.rooms and not self.store.room_exists(room_id):
                return room_id

    def on_create(self, conn: Conn, msg: dict[str, Any], rid: int | None) -> None:
        identity = conn.identity
        assert identity is not None
        try:
            settings = parse_create(msg, identity.name, dev=self.dev, limits=self.limits)
        except DevOnly as exc:
            raise Refused("not_allowed", str(exc)) from None
        password = get_str(msg, "password", 0, 64, default=None, printable=False)
        if conn.room is not None:
            raise Refused("not_allowed", "leave your room first")
        self._check_room_limits(conn)
        locked = None
        if password:
            salt = secrets.token_hex(8)
            locked = {"salt": salt, "hash": hash_password(password, salt)}
        room = Room(ports_of(self), self.new_room_id(), settings, locked)
        room.host = None
        room.address = conn.address
        seat = room.seat_human(identity)
        self.store.add_room(room.id, room.name, room.settings_json(), room.members_json())
        self.rooms[room.id] = room
        self._enter(conn, room, seat, rid)

    def _check_room_limits(self, conn: Conn) -> None:
        """Waiting rooms per address (`Limits`): `limit_reached`. (An identity is in one
        room at most: it must leave a waiting room, which frees its seat, to create
        another, and a new connection with its token goes back to its seat.)"""
        limits = self.limits
        waiting = [r for r in self.rooms.values() if r.status == WAITING]
        from_here = sum(1 for r in waiting if r.address == conn.address)
        if limits.waiting_rooms_per_address and from_here >= limits.waiting_rooms_per_address:
            raise Refused(
                "limit_reached",
                f"{from_here} rooms created from your address are waiting already;"
                " join one or try again later",
            )

    def _check_game_limits(self, conn: Conn, identity: Identity) -> None:
        """Running games per identity and per address (`Limits`): `limit_reached`."""
        limits = self.limits
        mine = self.running.of_identity(identity.id)
        if limits.games_per_identity and mine >= limits.games_per_identity:
            raise Refused(
                "limit_reached", f"you already play in {mine} running games; finish one first"
            )
        from_here = self.running.from_address(conn.address)
        if limits.games_per_address and from_here >= limits.games_per_address:
            raise Refused(
                "limit_reached",
                f"{from_here} games started from your address are running; try again later",
            )

    def status_changed(self, room: Room, was: str) -> None:
        """RoomHost: a room turned `playing`, or stopped being so. The players of a game
        that starts are kept for good (issue 33: not those who only sat in a room)."""
        if room.status == PLAYING:
            self.running.started(room)
            for i in room.humans():
                self._mark_seated(room.seats[i].identity)  # type: ignore[union-attr,arg-type]
        elif was == PLAYING:
            self.running.ended(room)

    def _mark_seated(self, identity: Identity) -> None:
        if not identity.seated:
            try:
                self.store.mark_seated(identity.id)
            except StoreError as exc:  # kept while seated all the same (`expire_identities`)
                log.error("%s", exc)
                return
            identity.seated = True

    def _find_room(self, msg: dict[str, Any]) -> Room:
        room_id = get_str(msg, "room", 1, 64)
        room = self.rooms.get(room_id)
        if room is None:
            raise Refused("no_such_room", f"no room {room_id!r}")
        return room

    def _check_password(self, conn: Conn, room: Room, msg: dict[str, Any]) -> None:
        """A locked room's password. Wrong tries count as abuse and are limited per
        address and per room, so that guessing a short PIN takes days."""
        password = get_str(msg, "password", 0, 64, default=None, printable=False)
        if room.password is None:
            return
        tries = (self.password_tries[conn.address], self.password_tries[room.id])
        if not all(bucket.ready() for bucket in tries):
            raise Refused(
                "rate_limited", "too many wrong passwords; wait a minute and try again", abuse=True
            )
        expected = room.password["hash"]
        given = hash_password(password or "", room.password["salt"])
        if password is None or not hmac.compare_digest(expected, given):
            for bucket in tries:
                bucket.take()
            log.debug("wrong password for room %s from %s", room.id, conn.address)
            self.note("wrong passwords")
            why = "this room needs its password" if not password else "wrong password"
            raise Refused("wrong_password", why, abuse=True)

    def on_join(self, conn: Conn, msg: dict[str, Any], rid: int | None) -> None:
        identity = conn.identity
        assert identity is not None
        room = self._find_room(msg)
        if conn.room is not None and conn.room is not room:
            raise Refused("not_allowed", "leave your room first")
        if conn.room is room and conn.seat is not None:
            conn.send(_reply({"t": "joined", "room": room.id, "seat": conn.seat}, rid))
            return
        seat = room.seat_of(identity)
        if seat is None:
            self._check_password(conn, room, msg)
            if room.status == FINISHED:
                raise Refused("not_allowed", "this game is over")
            if room.status != WAITING or room.free_seat() is None:
                raise Refused("room_full", "every seat is taken")
            seat = room.seat_human(identity)
            try:
                self.store.save_members(room.id, room.members_json())
            except StoreError:
                room.seats[seat] = None
                raise
        self._enter(conn, room, seat, rid)

    def on_watch(self, conn: Conn, msg: dict[str, Any], rid: int | None) -> None:
        room = self._find_room(msg)
        if conn.room is not None:
            raise Refused("not_allowed", "leave your room first")
        self._check_password(conn, room, msg)
        cap = self.limits.max_spectators
        if cap and len(room.spectators) >= cap:
            raise Refused("room_full", f"this room has {cap} spectators already")
        self._enter(conn, room, None, rid)

    def _enter(self, conn: Conn, room: Room, seat: int | None, rid: int | None) -> None:
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
        conn.send(_reply(joined, rid))
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
        self.rooms_changed()

    def on_leave(self, conn: Conn, msg: dict[str, Any], rid: int | None) -> None:
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
        conn.send(_reply({"t": "left", "room": room.id}, rid))
        self.send_rooms(conn, None)
        self.rooms_changed()

    def on_bye(self, conn: Conn, msg: dict[str, Any], rid: int | None) -> None:
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
                self.store.save_members(room.id, room.members_json())
            else:
                self._drop_waiting_room(room)
        except StoreError:
            room.seats, room.host = saved
            room.attach(seat, conn)
            raise

    def _drop_waiting_room(self, room: Room) -> None:
        """An empty waiting room disappears; its spectators go back to the lobby."""
        self.store.delete_room(room.id)
        self.rooms.pop(room.id, None)
        self._idle.pop(room.id, None)
        for conn in list(room.spectators):
            conn.room = conn.seat = None
            conn.send({"t": "left", "room": room.id})
        room.spectators.clear()
        self.rooms_changed()

    def _hosted_waiting_room(self, conn: Conn) -> Room:
        room = conn.room
        if room is None or conn.seat is None or room.host != conn.seat:
            raise Refused("not_allowed", "only the room's host may do that")
        if room.status != WAITING:
            raise Refused("not_allowed", "the game has already started")
        return room

    def on_add_bot(self, conn: Conn, msg: dict[str, Any], rid: int | None) -> None:
        info = self._game_of(conn)
        level = get_str(msg, "level", 1, 32, default=info.default_bot)
        if level not in info.bots:
            raise BadMessage(f"`level` must be one of {list(info.bots)}")
        room = self._hosted_waiting_room(conn)
        if room.free_seat() is None:
            raise Refused("room_full", "every seat is taken")
        seat = room.seat_bot(level)
        try:
            self.store.save_members(room.id, room.members_json())
        except StoreError:
            room.seats[seat] = None
            raise
        room.broadcast_room()
        self.rooms_changed()

    def on_start(self, conn: Conn, msg: dict[str, Any], rid: int | None) -> None:
        room = self._hosted_waiting_room(conn)
        if room.free_seat() is not None:
            raise Refused("not_allowed", "every seat must be taken before the start")
        assert conn.identity is not None
        self._check_game_limits(conn, conn.identity)
        room.address = conn.address
        room.start()
        self.rooms_changed()

    # ------------------------------------------------------------------ play

    def _playing_seat(self, conn: Conn) -> tuple[Room, int]:
        room, seat = conn.room, conn.seat
        if room is None or seat is None:
            raise Refused("not_allowed", "only a seated player may act")
        if room.status != PLAYING:
            raise Refused("not_allowed", "no game is running in this room")
        return room, seat

    @staticmethod
    def _game_of(conn: Conn) -> GameInfo:
        """The game of the client's room (Modern Art's in the lobby), whose vocabulary
        its messages are read with."""
        return conn.room.info if conn.room is not None else get_game(DEFAULT_GAME)

    def on_act(self, conn: Conn, msg: dict[str, Any], rid: int | None) -> None:
        try:
            action = parse_action(msg, self._game_of(conn))
        except CloseNotAllowed as exc:
            raise Refused("not_allowed", str(exc)) from None
        room, seat = self._playing_seat(conn)
        try:
            room.act(seat, action)
        except RuleError as exc:
            conn.send(error(exc.code, str(exc), rid))

    def on_sync(self, conn: Conn, msg: dict[str, Any], rid: int | None) -> None:
        room = conn.room
        if room is None:
            raise Refused("not_allowed", "you are not in a room")
        if room.game is None:
            conn.send(_reply(room.room_message(conn.seat), rid))
        else:
            room.send_view(conn, conn.seat, rid)

    def on_history(self, conn: Conn, msg: dict[str, Any], rid: int | None) -> None:
        """The room's public events after update `since` (all when absent); `seq` is the
        latest update's number, so a client knows which updates the answer covers.
        An answer holds at most HISTORY_PAGE bytes of events, whole updates: when more
        follow, `more` is true and `upto` is the last update it covers, and the client
        asks again with `since: upto` (docs/protocol.md addition, issue 21)."""
        since = get_int(msg, "since", 0, 2**53, default=-1)
        room = conn.room
        if room is None:
            raise Refused("not_allowed", "you are not in a room")
        events, upto = room.history.packed_since(since, HISTORY_PAGE)
        head = {"t": "history", "room": room.id, "seq": room.seq}
        tail: dict[str, Any] = {
            "upto": room.seq if upto is None else upto,
            "more": upto is not None,
        }
        if rid is not None:
            tail["re"] = rid
        conn.send_raw(
            map_header(len(head) + 1 + len(tail))
            + encode_entries(head)
            + encode("events")
            + events
            + encode_entries(tail)
        )
