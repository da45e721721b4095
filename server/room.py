"""A room: its seats and spectators, and once started the game, its clocks and bots.

Everything here is synchronous. A client's `act`, a bot's move, the hammer and
a turn timeout each validate, apply, store and fan out in one step with no
await in between, so actions are applied one at a time in arrival order and
every member sees the same sequence of updates.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
from collections import deque
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Protocol

from modernart.engine import RuleError, record_of
from modernart.engine.games import GameInfo, GameState

from .botpool import BotPool, decide, lot_key, search_budget, searches, shout_up_to
from .codec import encode, ws_frame
from .history import History
from .limits import Limits
from .options import RoomOptions, RoomSettings
from .store import Store, StoreError
from .updates import UpdateFrames

RECENT_CHAT = 20  # chat lines a room keeps for those who come later (server/chat.py)
log = logging.getLogger("modernart.server")
# The bots' pauses and search seeds: a generator of the server's own, so that what
# seeds or checks the global one (Hypothesis in tests/server/test_fuzz.py) is left alone.
_RNG = random.Random()

WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"


class RoomHost(Protocol):
    """What a room needs of the hub that holds it (the hub implements it): the store,
    whether the server runs with --dev, and a way to say the lobby list changed."""

    store: Store
    dev: bool
    bots: BotPool  # worker processes for searching bots (server/botpool.py)
    limits: Limits

    def rooms_changed(self) -> None: ...

    def game_over(self, room: Room) -> dict[str, Any] | None:
        """The game just finished (results, ratings); an event for its last update."""

    def attendance_changed(self, room: Room) -> None:
        """A seated human connected or went (a running game nobody attends ends)."""

    def status_changed(self, room: Room, was: str) -> None:
        """The room's status changed from `was` (running games are counted)."""


class Member(Protocol):
    """A connection in a room, as the room sees it (server/session.py's `Conn`)."""

    def send(self, message: dict[str, Any]) -> None: ...

    def send_raw(self, data: bytes, room: Any = None) -> None: ...

    def send_framed(self, frame: bytes, room: Any = None) -> None: ...


class Player(Protocol):
    """An identity sitting in a room (server/session.py's `Identity`)."""

    id: str
    name: str
    room: Any
    seat: int | None


def guarded(method: Callable[..., None]) -> Callable[..., None]:
    """Timer callbacks must never raise into the event loop: log and carry on."""

    @functools.wraps(method)
    def wrapper(self: Room, *args: Any) -> None:
        try:
            method(self, *args)
        except StoreError as exc:  # one line: the retry is already scheduled, backing off
            log.error("room %s: %s", self.id, exc)
        except Exception:
            log.exception("room %s: %s failed", self.id, method.__name__)

    return wrapper


# Bots' names: short enough for an 80-column table; the letter says the level.
BOT_NAMES = ("Otto", "Vera", "Hugo", "Mila", "Ines")
# The mark after a bot's name is its level's first letter, but for expert (easy has E).
LEVEL_MARKS = {"expert": "X"}
# After an action the store refused, clocks and bots wait this long before trying
# again, doubling per failure in a row up to the maximum.
STORE_RETRY_S, STORE_RETRY_MAX_S = 1.0, 60.0


@dataclass(eq=False)
class Seat:
    name: str
    identity: Player | None = None  # a human's seat
    level: str | None = None  # a bot's seat
    conn: Member | None = None  # the human's live connection, if any
    autopilot: Any = None  # a bot playing for an absent human
    bot: Any = None  # the bot of a bot seat
    pending: asyncio.TimerHandle | None = None  # a scheduled bot move
    takeover: asyncio.TimerHandle | None = None
    thinking: asyncio.Future[Any] | None = None  # a searching bot's decision in a worker
    think_limit: asyncio.TimerHandle | None = None  # when to stop waiting for it
    # (lot, cap) searched for R12; cap None: this lot is played as `hard` (pool was full)
    open_cap: tuple[tuple[Any, ...], int | None] | None = None
    left: bool = False  # the human left on purpose (`leave`, `bye`), not a lost connection
    # A human's actions: own, or a stand-in's (autopilot, turn clock) — a game the
    # stand-in played most of is a loss for that human (server/ratingrules.py)
    own_turns: int = 0
    standin_turns: int = 0

    @property
    def connected(self) -> bool:
        return self.level is not None or self.conn is not None

    def brain(self) -> Any:
        return self.bot if self.level is not None else self.autopilot

    def to_json(self) -> dict[str, Any]:
        if self.level is not None:
            return {"bot": self.level, "name": self.name}
        assert self.identity is not None
        return {"identity": self.identity.id, "name": self.name}


class Room:
    def __init__(self, hub: RoomHost, room_id: str, settings: RoomSettings, password: Any) -> None:
        self.hub = hub
        self.id = room_id
        self.info: GameInfo = settings.info  # the room's game: everything game-specific
        self.name = settings.name
        self.size = settings.seats
        self.variant = settings.variant
        self.options: RoomOptions = settings.options
        self.password = password  # None or {"salt", "hash"}; never sent anywhere
        self._status = WAITING
        self.seats: list[Seat | None] = [None] * self.size
        self.host: int | None = 0
        self.spectators: set[Any] = set()  # `Member`s
        self.game: GameState | None = None
        self.seq = 0
        self.history = History()  # public events, for the `history` request
        self.chat: deque[dict[str, Any]] = deque(maxlen=RECENT_CHAT)  # server/chat.py
        self._hammer: list[asyncio.TimerHandle] = []
        self._hammer_deadline: float | None = None
        self._turn_clock: asyncio.TimerHandle | None = None
        self._turn_deadline: float | None = None
        self._clock_seats: frozenset[int] = frozenset()  # the seats the turn clock times
        self._read_until = 0.0  # loop time: no turn clock starts before (a round's summary)
        self._store_failures = 0  # actions refused by the store in a row
        self._retry: asyncio.TimerHandle | None = None
        self.paused = False  # no seated human connected (without --dev): nothing moves
        self._changed_at = 0.0  # loop time of the last action (bots' reaction times)
        self._plain_bot: Any = None  # the game's default bot: a searching bot's stand-in
        self.address: str | None = None  # the creator's address (per-address limits)
        self.unlisted = False  # finished and its time on the lobby's list is over
        self.rematch: dict[int, bool] = {}  # seat -> accepted (server/rematch.py)
        self.rematch_room: str | None = None  # the rematch's room once it started
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """The loop the room runs in (looked up once: it is asked for on every act)."""
        loop = self._loop
        if loop is None:
            loop = self._loop = asyncio.get_running_loop()
        return loop

    # ------------------------------------------------------------- summaries

    def settings_json(self) -> dict[str, Any]:
        return {
            "game": self.info.name,
            "seats": self.size,
            "variant": self.variant,
            "options": self.options.to_json(),
            "password": self.password,
        }

    def members_json(self) -> dict[str, Any]:
        return {
            "host": self.host,
            "seats": [s.to_json() if s else None for s in self.seats],
        }

    def summary(self) -> dict[str, Any]:
        """A room as the lobby lists it: never the password, only `locked`."""
        return {
            "id": self.id,
            "name": self.name,
            "game": self.info.name,
            "seats": self.size,
            "seated": [s.name if s else None for s in self.seats],
            "bots": [bool(s and s.level) for s in self.seats],
            "connected": [bool(s and s.connected) for s in self.seats],
            "status": self.status,
            "paused": self.paused,  # playing, but waiting for a human to come back
            "variant": self.variant,
            "spectators": len(self.spectators),
            "locked": self.password is not None,
            "host": self.host,
            "options": self.options.public(),
        }

    def members(self) -> list[tuple[Any, int | None]]:
        out: list[tuple[Any, int | None]] = [
            (s.conn, i) for i, s in enumerate(self.seats) if s and s.conn
        ]
        out.extend((c, None) for c in self.spectators)
        return out

    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s and s.identity is not None]

    @property
    def status(self) -> str:
        return self._status

    @status.setter
    def status(self, value: str) -> None:
        """Every change is reported to the hub (server/running.py counts running games)."""
        was, self._status = self._status, value
        if was != value:
            self.hub.status_changed(self, was)

    def seat_of(self, identity: Player) -> int | None:
        for i, s in enumerate(self.seats):
            if s and s.identity is identity:
                return i
        return None

    def free_seat(self) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s is None), None)

    # ------------------------------------------------------ waiting room

    def room_message(self, you: int | None) -> dict[str, Any]:
        return {"t": "room", "room": self.summary(), "you": you}

    def broadcast_room(self) -> None:
        """The room's new summary to its members (joins, leaves, bots, host)."""
        for conn, seat in self.members():
            conn.send(self.room_message(seat))

    def seat_human(self, identity: Player) -> int:
        seat = self.free_seat()
        assert seat is not None
        self.seats[seat] = Seat(identity.name, identity=identity)
        if self.host is None:
            self.host = seat
        return seat

    def seat_bot(self, level: str, at: int | None = None, name: str | None = None) -> int:
        seat = self.free_seat() if at is None else at
        assert seat is not None
        name = name or f"{BOT_NAMES[seat]} ({LEVEL_MARKS.get(level, level[0].upper())})"
        bot = self.info.make_bot(level)
        self.seats[seat] = Seat(name, level=level, bot=bot)
        if searches(bot):
            self.hub.bots.warm(self.info.name)
        return seat

    def unseat(self, seat: int) -> None:
        """A human leaves a waiting room: the host role passes to the next human."""
        self.seats[seat] = None
        if self.host == seat:
            humans = self.humans()
            self.host = humans[0] if humans else None
        if not self.humans():
            # No humans left: the bots go too and the room disappears.
            self.seats = [None] * self.size

    # ----------------------------------------------------------- the game

    def start(self) -> None:
        """Deal and start; stored first, so a refused write (StoreError) leaves the
        room waiting in memory as on disk."""
        players = [s.name for s in self.seats if s]
        game = self.info.create(
            players,
            self.variant,
            deck=self.options.deck,
            seed=random.SystemRandom().getrandbits(64),
            first=self.options.first_auctioneer,
        )
        header = record_of(game).to_dict()
        header.pop("actions")
        self.hub.store.start_room(self.id, self.members_json(), header, self.seq + 1)
        self.game = game
        self.status = PLAYING
        self.hub.attendance_changed(self)
        for i, s in enumerate(self.seats):
            if s and s.identity is not None and s.conn is None:
                self._seat_absent(i)
        self._after_change([])

    def resume(self, game: GameState, seq: int) -> None:
        """Carry on a stored game after a restart: nobody is connected yet."""
        self.game = game
        self.seq = seq
        self.history = History.replayed(game)
        self.status = FINISHED if game.finished else PLAYING
        self.hub.attendance_changed(self)
        if self._unattended():
            self.paused = True
            return
        for i, s in enumerate(self.seats):
            if s and s.identity is not None:
                self._seat_absent(i)
        self._update_clocks([])
        self._schedule_bots()

    def act(
        self, seat: int, action: dict[str, Any], *, timed_out: bool = False, stand_in: bool = False
    ) -> None:
        """Apply a seat's action (raises RuleError, changing nothing), store it, fan out.

        `timed_out`: the server chose it when the seat's turn clock ran out; `stand_in`:
        the bot standing in for an absent player chose it. The update says so first
        (`timeout {seat}`, `stand_in {seat}`, docs/protocol.md additions)."""
        assert self.game is not None
        events = self.game.apply({"seat": seat, **action})
        s = self.seats[seat]
        if s is not None and s.identity is not None:
            if timed_out or s.autopilot is not None:
                s.standin_turns += 1
            else:
                s.own_turns += 1
        if timed_out:
            events = [{"type": "timeout", "seat": seat}, *events]
        elif stand_in:
            events = [{"type": "stand_in", "seat": seat}, *events]
        self._commit(events)

    def _commit(self, events: list[dict[str, Any]]) -> None:
        game = self.game
        assert game is not None
        # Stored before anyone hears of it: a crash after this loses nothing (the
        # turn's frames are written after its commit, server/outbox.py). A game's last
        # action is committed at once: its end and results are stored after it.
        store = self.hub.store
        try:
            store.append_action(self.id, len(game.actions) - 1, game.actions[-1], self.seq + 1)
            if game.finished:
                store.saved(self.id)
        except StoreError:
            # The store is the truth: an action it does not hold must not stand.
            # Clocks and bots try again after a back-off, not at once.
            self.game = record_of(game).played(upto=len(game.actions) - 1)
            self._back_off()
            raise
        self._store_failures = 0
        self._after_change(events)

    def _back_off(self) -> None:
        """The store refused a change: clocks and bots wait, doubling per failure."""
        self._store_failures += 1
        self._stop_hammer()
        self._stop_turn_clock()
        if self._retry is not None:
            self._retry.cancel()
        backoff = min(STORE_RETRY_MAX_S, STORE_RETRY_S * 2 ** (self._store_failures - 1))
        self._retry = self.loop.call_later(backoff, self._carry_on)

    def rewind(self, actions: int | None, seq: int) -> None:
        """A group commit failed (server/outbox.py): the store holds this room's game up
        to `actions` actions (None: all of them) and update `seq`. Memory goes back
        there — the lost updates' frames were dropped unsent — and every member gets
        the stored state afresh, as `sync` answers; clocks and bots back off."""
        game = self.game
        if game is None:
            return
        if actions is not None and len(game.actions) > actions:
            self.game = record_of(game).played(upto=actions)
        self.seq = min(self.seq, seq)
        self.history.drop_after(self.seq)
        self._back_off()
        for conn, seat in self.members():
            self.send_view(conn, seat)

    @guarded
    def _carry_on(self) -> None:
        """Re-arm clocks and bots after an action the store refused."""
        self._retry = None
        if self.status == PLAYING and not self.paused:
            self._update_clocks([])
            self._schedule_bots()

    def _after_change(self, events: list[dict[str, Any]]) -> None:
        assert self.game is not None
        self._update_clocks(events)
        if self.game.finished:
            self.status = FINISHED
            self.stop_clocks()
            self.hub.rooms_changed()
            rated = self.hub.game_over(self)  # stores the end and the results at once
            if rated is not None:
                events = [*events, rated]
        self._fanout(events)
        self._changed_at = self.loop.time()
        self._schedule_bots(changed=True)

    def view_for(self, seat: int | None, now: float) -> dict[str, Any]:
        """The engine's view for that seat plus the room's own facts (PROTOCOL.md)."""
        assert self.game is not None
        view = self.game.view(seat)
        view["room"] = self.id
        view["status"] = self.status
        view["paused"] = self.paused
        view["deadline_ms"] = self._deadline_ms(now)
        view["spectators"] = len(self.spectators)
        for info, s in zip(view["seats"], self.seats, strict=True):
            assert s is not None
            info["connected"] = s.connected
            info["bot"] = s.brain() is not None
            info["autopilot"] = s.autopilot is not None
            info["left"] = s.left
        return view

    def update_message(self, seat: int | None, events: list, now: float) -> dict[str, Any]:
        return {"t": "update", "seq": self.seq, "events": events, "view": self.view_for(seat, now)}

    def update_frames(self, events: list[dict[str, Any]], now: float) -> UpdateFrames:
        """The current update for every member: the public view is built once."""
        assert self.game is not None
        return UpdateFrames(self.game, self.seq, events, self.view_for(None, now))

    def _fanout(self, events: list[dict[str, Any]], *, kept: bool = True) -> None:
        self.seq += 1
        if kept:
            self.history.add(self.seq, events)
        seated = [(i, s.conn) for i, s in enumerate(self.seats) if s and s.conn]
        if not seated and not self.spectators:
            return
        frames = self.update_frames(events, self.loop.time())
        for i, conn in seated:
            conn.send_raw(frames.for_seat(i), self)
        if self.spectators:
            frame = ws_frame(frames.for_spectators())
            for conn in self.spectators:
                conn.send_framed(frame, self)

    def notify(self, events: list[dict[str, Any]], *, kept: bool = True) -> None:
        """An update that is not an action (presence, `going`): numbered and stored too;
        `kept` False: not in the history (what only the current view needs)."""
        if self.game is None:
            self.broadcast_room()
            return
        try:
            self.hub.store.save_seq(self.id, self.seq + 1)
        except StoreError as exc:  # the next view shows the state anyway
            log.error("room %s: %s; update not sent: %s", self.id, exc, events)
            return
        self._fanout(events, kept=kept)

    def send_view(self, conn: Member, seat: int | None, rid: int | None = None) -> None:
        """A (re)joining member's private resync (and `sync`'s answer, `re` its `rid`):
        the current seq, no events. Tagged with the room, as updates are: a failed
        commit drops it with them (server/outbox.py)."""
        message = self.update_message(seat, [], self.loop.time())
        if rid is not None:
            message["re"] = rid
        conn.send_raw(encode(message), self)

    # --------------------------------------------------- presence and bots

    def attach(self, seat: int, conn: Member) -> None:
        s = self.seats[seat]
        assert s is not None
        s.conn = conn
        s.left = False
        self.hub.attendance_changed(self)
        if s.takeover is not None:
            s.takeover.cancel()
            s.takeover = None
        if s.autopilot is not None:
            s.autopilot = None
            if s.pending is not None:
                s.pending.cancel()
                s.pending = None
        if self.paused:
            self.paused = False
            for i, other in enumerate(self.seats):
                if other and other.identity is not None and other.conn is None:
                    self._seat_absent(i)
            self._update_clocks([])
            self._schedule_bots()

    def detach(self, seat: int, *, left: bool = False, told: bool = False) -> None:
        """A seat's connection is gone. `left`: on purpose (`leave`, `bye`); `told`: the
        members hear of it in a running game (`left` or `disconnected {seat}`)."""
        s = self.seats[seat]
        assert s is not None
        s.conn = None
        s.left = left
        self.hub.attendance_changed(self)
        if self.status != PLAYING:
            if told and self.status == WAITING:
                self.broadcast_room()
            return
        if self._unattended():  # before the news: its view says the game is paused
            self.paused = True
            self.stop_clocks()
        else:
            self._seat_absent(seat)
        if told:
            self.notify([{"type": "left" if left else "disconnected", "seat": seat}])

    def _unattended(self) -> bool:
        """Without --dev, a game goes on only while a seated human is connected: bots
        never play whole games by themselves on a public server."""
        if self.hub.dev:
            return False
        return not any(s.conn for s in self.seats if s and s.identity is not None)

    def _seat_absent(self, seat: int) -> None:
        s = self.seats[seat]
        assert s is not None
        if self.options.takeover_s > 0 and s.takeover is None:
            s.takeover = self.loop.call_later(self.options.takeover_s, self._take_over, seat)

    @guarded
    def _take_over(self, seat: int) -> None:
        s = self.seats[seat]
        assert s is not None
        s.takeover = None
        if s.conn is not None or self.status != PLAYING:
            return
        s.autopilot = self.info.make_bot()
        self.notify([{"type": "autopilot", "seat": seat}])
        self._schedule_bots()

    def spectators_changed(self) -> None:
        """A spectator came or went: the table shows how many watch (`watching {count}`);
        a waiting room's summary says it already."""
        if self.status == PLAYING:
            self.notify([{"type": "watching", "count": len(self.spectators)}], kept=False)

    def _schedule_bots(self, *, changed: bool = False) -> None:
        """Plan a move for every bot whose decision the game waits for.

        Bots think the room's `bot_delay_ms` (jittered), then decide. In a real-time
        window (R12) of a room whose bots think like people (`_human_shouts`) a bot
        decides at once and shouts after a reaction time (the game's bots' timing);
        an action in the window (`changed`) cancels the planned shouts: each bot
        decides again on the new state."""
        game = self.game
        if game is None or game.finished or self.paused:
            return
        if all(s is None or s.brain() is None for s in self.seats):
            return  # no bot to plan for (the usual room: every act comes here)
        human = self._human_shouts()
        delay_ms = self.options.bot_delay_ms
        for seat in game.to_act():
            s = self.seats[seat]
            if s is None or s.brain() is None or s.thinking is not None:
                continue
            if s.pending is not None:
                if not (human and changed):
                    continue
                s.pending.cancel()
            delay = 0 if human else delay_ms * _RNG.uniform(0.5, 1.5) / 1000
            s.pending = self.loop.call_later(delay, self._bot_turn, seat)

    def _human_shouts(self) -> bool:
        """In a real-time window, do bots shout with human reaction times? Only when the
        room's bots think at least as long as a quick human reacts: a room that asks for
        faster bots (`--dev`, tests: 0) gets them, as in turn-based play."""
        assert self.game is not None
        return (
            self.info.shout_delay_ms is not None
            and self.game.realtime()
            and self.options.bot_delay_ms >= self.info.min_reaction_ms
        )

    @guarded
    def _bot_turn(self, seat: int) -> None:
        s = self.seats[seat]
        game = self.game
        assert s is not None and game is not None
        s.pending = None
        brain = s.brain()
        if brain is None or game.finished or seat not in game.to_act():
            return
        view = game.view(seat)
        if not searches(brain):
            self._play(seat, brain.choose(view))
        elif game.realtime() and s.open_cap is not None and s.open_cap[0] == lot_key(view):
            cap = s.open_cap[1]
            if cap is None:  # this lot's decision was made as `hard`: it stays so
                self._play_plainly(seat)
            else:
                self._play(seat, shout_up_to(view, cap))
        else:
            decided, action = brain.quick(view)  # type: ignore[attr-defined]
            if not decided:
                self._think(seat, view)
                return
            # Nothing to weigh (one candidate, a lot out of reach): no worker needed.
            self.hub.bots.stats.quick += 1
            cap = getattr(brain, "_open_cap", None)
            if game.realtime() and cap is not None and cap[0] == lot_key(view):
                s.open_cap = cap
            self._play(seat, action)

    def _think(self, seat: int, view: dict[str, Any]) -> None:
        """A searching bot's decision goes to a worker process; the loop carries on.
        No worker free: the bot plays as the game's default bot at once."""
        s = self.seats[seat]
        assert s is not None and s.level is not None
        pool = self.hub.bots
        if not pool.free():
            # One decision per lot in an open auction (R12), as a search makes it: the
            # shouts after each newer bid follow the same plain choice, uncounted.
            pool.stats.fallback += 1
            assert self.game is not None
            if self.game.realtime():
                s.open_cap = (lot_key(view), None)
            self._play_plainly(seat)
            return
        # Under a clock the answer must come before it runs out on the bot.
        budget, limit = search_budget(pool.budget_s, self._deadline_ms(self.loop.time()))
        seed = _RNG.getrandbits(30)
        events = self.history.since(-1)
        future = pool.submit(
            decide, self.info.name, s.level, view, events, seed, budget, pool.worlds
        )
        s.thinking = future
        s.think_limit = self.loop.call_later(limit, self._thought_too_long, seat, future)
        assert self.game is not None
        moment = len(self.game.actions)
        lot = lot_key(view) if self.game.realtime() else None
        full = budget >= pool.budget_s
        future.add_done_callback(lambda f: self._thought(seat, f, moment, lot, full))

    @guarded
    def _thought_too_long(self, seat: int, future: asyncio.Future[Any]) -> None:
        s = self.seats[seat]
        if s is None or s.thinking is not future:
            return
        s.thinking = s.think_limit = None
        self.hub.bots.stats.late += 1
        self._play_plainly(seat)

    @guarded
    def _thought(
        self,
        seat: int,
        future: asyncio.Future[Any],
        moment: int,
        lot: tuple[Any, ...] | None,
        full: bool,
    ) -> None:
        """A worker's answer: dropped if the game moved on (or the room stopped waiting).
        In an open auction (R12) the searched cap stays good for the whole lot."""
        s = self.seats[seat]
        game = self.game
        if s is None or game is None or s.thinking is not future:
            return  # given up on (too late, or the clocks stopped)
        s.thinking = None
        if s.think_limit is not None:
            s.think_limit.cancel()
            s.think_limit = None
        stats = self.hub.bots.stats
        if future.cancelled() or future.exception() is not None:
            if not future.cancelled() and not isinstance(future.exception(), BrokenProcessPool):
                log.error("room %s: seat %d's search failed: %r", self.id, seat, future.exception())
            self._play_plainly(seat)
            return
        action, cap = future.result()
        if cap is not None and lot is not None and game.realtime():
            view = game.view(seat)
            if lot_key(view) == lot:
                stats.count(full)
                s.open_cap = (lot, cap)
                if seat in game.to_act():
                    self._play(seat, shout_up_to(view, cap))
                return
        if game.finished or len(game.actions) != moment or seat not in game.to_act():
            stats.stale += 1
            self._schedule_bots()
            return
        stats.count(full)
        self._play(seat, action)

    def _play_plainly(self, seat: int) -> None:
        """Decide as the game's default bot (`hard` in Modern Art): fast, on the loop."""
        assert self.game is not None
        if self._plain_bot is None:
            self._plain_bot = self.info.make_bot()
        self._play(seat, self._plain_bot.choose(self.game.view(seat)))

    def _play(self, seat: int, action: dict[str, Any] | None) -> None:
        """Send a bot's action: in a real-time window after its reaction time (R12),
        otherwise now; a refused or missing action falls back to the safe default."""
        game = self.game
        assert game is not None
        s = self.seats[seat]
        if action is not None and s is not None and self._human_shouts():
            assert self.info.shout_delay_ms is not None
            now = self.loop.time()
            delay = self.info.shout_delay_ms(
                s.level or "hard",
                (now - self._changed_at) * 1000,
                self._deadline_ms(now),
                random.Random(),
            )
            s.pending = self.loop.call_later(delay / 1000, self._shout, seat, action)
            return
        if action is None or not self._try(seat, action):
            default = self.default_action(seat)
            if default is not None:
                self._try(seat, default)

    @guarded
    def _shout(self, seat: int, action: dict[str, Any]) -> None:
        """A planned shout goes out; any change since then cancelled it (see above)."""
        s = self.seats[seat]
        game = self.game
        assert s is not None and game is not None
        s.pending = None
        if game.finished or not game.realtime() or seat not in game.to_act():
            return
        if not self._try(seat, action):
            default = self.default_action(seat)
            if default is not None:
                self._try(seat, default)

    def _try(self, seat: int, action: dict[str, Any], *, timed_out: bool = False) -> bool:
        s = self.seats[seat]
        stand_in = not timed_out and s is not None and s.level is None and s.autopilot is not None
        try:
            self.act(seat, action, timed_out=timed_out, stand_in=stand_in)
        except RuleError as exc:
            log.warning("room %s: seat %d's move %r refused: %s", self.id, seat, action, exc)
            return False
        return True

    def default_action(self, seat: int) -> dict[str, Any] | None:
        """The safe default when a decision times out: the game's `timeout_action`."""
        assert self.game is not None
        return self.info.timeout_action(self.game, seat)

    # ------------------------------------------------------------ clocks

    def deadline(self) -> float | None:
        """The loop time at which the running clock (the hammer's or the turn's) runs out."""
        return self._hammer_deadline or self._turn_deadline

    def _deadline_ms(self, now: float) -> int | None:
        deadline = self.deadline()
        return None if deadline is None else max(0, round((deadline - now) * 1000))

    def _update_clocks(self, events: list[dict[str, Any]]) -> None:
        game = self.game
        assert game is not None
        realtime = game.realtime() and not game.finished
        if realtime:
            # A new real-time window (Modern Art: an open auction, R12), or an action in
            # it (a bid), starts the hammer's window afresh.
            if not self._hammer or events:
                self._start_hammer()
        else:
            self._stop_hammer()
        timeout = self.options.turn_timeout_s
        if any(e["type"] in self.info.summary_events for e in events):
            self._read_until = self.loop.time() + self.hub.limits.round_read_s
        to_act = frozenset(game.to_act()) if not (realtime or game.finished) else frozenset()
        if events and to_act and self._turn_clock is not None and to_act < self._clock_seats:
            # Some of the seats the clock times decided (a sealed bid, R14): the others
            # still owe the same decision, on the same clock (issue 28).
            self._clock_seats = to_act
            return
        self._stop_turn_clock()
        if timeout and not realtime and not game.finished:
            self._clock_seats = to_act
            # A round's summary covers the table a while: the clock starts after it.
            self._turn_deadline = max(self.loop.time(), self._read_until) + timeout
            self._turn_clock = self.loop.call_at(self._turn_deadline, self._turn_timed_out)

    def _start_hammer(self) -> None:
        """R12: going once at 1/3, twice at 2/3, sold (`GameInfo.hammer`) when the window
        passes. One timer at a time, each stage setting the next: a bid, which starts
        the window afresh, cancels one timer instead of three (issue 21)."""
        self._stop_hammer()
        window = self.options.shout_window_ms / 1000
        loop = self.loop
        self._hammer_deadline = loop.time() + window
        self._hammer = [loop.call_later(window / 3, self._hammer_stage, 1)]

    @guarded
    def _hammer_stage(self, stage: int) -> None:
        """Stage 1 and 2: `going` (the next stage is set first: a store refusing the
        tick's counter does not stop the hammer); 3: sold."""
        deadline = self._hammer_deadline
        assert deadline is not None
        if stage == 3:
            self._hammer_falls()
            return
        window = self.options.shout_window_ms / 1000
        at = deadline - (2 - stage) * window / 3
        self._hammer = [self.loop.call_at(at, self._hammer_stage, stage + 1)]
        self._going(stage)

    def _stop_hammer(self) -> None:
        for handle in self._hammer:
            handle.cancel()
        self._hammer = []
        self._hammer_deadline = None

    def _stop_turn_clock(self) -> None:
        if self._turn_clock is not None:
            self._turn_clock.cancel()
        self._turn_clock = None
        self._turn_deadline = None

    def stop_clocks(self) -> None:
        self._stop_hammer()
        self._stop_turn_clock()
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None
        for s in self.seats:
            if s is None:
                continue
            for handle in (s.pending, s.takeover, s.think_limit):
                if handle is not None:
                    handle.cancel()
            s.pending = s.takeover = s.think_limit = s.thinking = None

    @guarded
    def _going(self, stage: int) -> None:
        self.notify(
            [{"type": "going", "stage": stage, "deadline_ms": self._deadline_ms(self.loop.time())}]
        )

    @guarded
    def _hammer_falls(self) -> None:
        assert self.game is not None and self.info.hammer is not None
        self._hammer = []
        self._hammer_deadline = None
        events = self.game.apply(dict(self.info.hammer))
        self._commit(events)

    @guarded
    def _turn_timed_out(self) -> None:
        game = self.game
        assert game is not None
        self._turn_clock = None
        self._turn_deadline = None
        for seat in list(game.to_act()):
            if game.finished or game.realtime() or seat not in game.to_act():
                continue
            action = self.default_action(seat)
            if action is not None:
                self._try(seat, action, timed_out=True)
