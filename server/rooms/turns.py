"""A room's turn: apply an action, commit it to the store, send the update.

Everything here is synchronous: a client's `act`, a bot's move, the hammer and a
turn timeout each validate, apply, store and fan out in one step with no await in
between, so actions are applied one at a time in arrival order and every member
sees the same sequence of updates."""

from __future__ import annotations

import random
from typing import Any

from modernart.engine import record_of
from modernart.engine.games import GameState
from modernart.server.rooms.base import FINISHED, PLAYING, Member, log
from modernart.server.rooms.history import History
from modernart.server.store.errors import StoreError
from modernart.server.wire.codec import encode, ws_frame
from modernart.server.wire.updates import UpdateFrames


class Turns:
    """Start, resume, act; commit and fan out: a part of `Room` (server/rooms/room.py)."""

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
        self.ports.store.start_room(self.id, self.members_json(), header, self.seq + 1)
        self.game = game
        self.status = PLAYING
        self.ports.lobby.attendance_changed(self)
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
        self.ports.lobby.attendance_changed(self)
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
        # turn's frames are written after its commit, server/wire/outbox.py). A game's last
        # action is committed at once: its end and results are stored after it.
        store = self.ports.store
        try:
            store.append_action(self.id, len(game.actions) - 1, game.actions[-1], self.seq + 1)
            if game.finished:
                store.saved(self.id)
        except StoreError:
            # The store is the truth: an action it does not hold must not stand.
            # Clocks and bots try again after a back-off, not at once.
            self.game = record_of(game).resumed(upto=len(game.actions) - 1)
            self._back_off()
            raise
        self._store_failures = 0
        self._after_change(events)

    def rewind(self, actions: int | None, seq: int) -> None:
        """A group commit failed (server/wire/outbox.py): the store holds this room's game up
        to `actions` actions (None: all of them) and update `seq`. Memory goes back
        there — the lost updates' frames were dropped unsent — and every member gets
        the stored state afresh, as `sync` answers; clocks and bots back off."""
        game = self.game
        if game is None:
            return
        if actions is not None and len(game.actions) > actions:
            self.game = record_of(game).resumed(upto=actions)
        self.seq = min(self.seq, seq)
        self.history.drop_after(self.seq)
        self._back_off()
        for conn, seat in self.members():
            self.send_view(conn, seat)

    def _after_change(self, events: list[dict[str, Any]]) -> None:
        assert self.game is not None
        self._update_clocks(events)
        if self.game.finished:
            self.status = FINISHED
            self.stop_clocks()
            self.ports.lobby.rooms_changed()
            rated = self.ports.lobby.game_over(self)  # stores the end and the results at once
            if rated is not None:
                events = [*events, rated]
        self._fanout(events)
        self._changed_at = self.clock.time()
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
        frames = self.update_frames(events, self.clock.time())
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
            self.ports.store.save_seq(self.id, self.seq + 1)
        except StoreError as exc:  # the next view shows the state anyway
            log.error("room %s: %s; update not sent: %s", self.id, exc, events)
            return
        self._fanout(events, kept=kept)

    def send_view(self, conn: Member, seat: int | None, rid: int | None = None) -> None:
        """A (re)joining member's private resync (and `sync`'s answer, `re` its `rid`):
        the current seq, no events. Tagged with the room, as updates are: a failed
        commit drops it with them (server/wire/outbox.py)."""
        message = self.update_message(seat, [], self.clock.time())
        if rid is not None:
            message["re"] = rid
        conn.send_raw(encode(message), self)
