"""A room's bots: when each decides, in a worker process or on the loop, and how
its decision is played (a bot seat, or a stand-in for an absent player)."""

from __future__ import annotations

import asyncio
import random
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from modernart.engine import RuleError
from modernart.server.rooms.base import RNG, guarded, log
from modernart.server.rooms.botpool import decide, lot_key, search_budget, searches, shout_up_to


class BotTurns:
    """Bots' turns: a part of `Room` (server/rooms/room.py)."""

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
            delay = 0 if human else delay_ms * RNG.uniform(0.5, 1.5) / 1000
            s.pending = self.clock.call_later(delay, self._bot_turn, seat)

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
            self.ports.bots.stats.quick += 1
            cap = getattr(brain, "_open_cap", None)
            if game.realtime() and cap is not None and cap[0] == lot_key(view):
                s.open_cap = cap
            self._play(seat, action)

    def _think(self, seat: int, view: dict[str, Any]) -> None:
        """A searching bot's decision goes to a worker process; the loop carries on.
        No worker free: the bot plays as the game's default bot at once."""
        s = self.seats[seat]
        assert s is not None and s.level is not None
        pool = self.ports.bots
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
        budget, limit = search_budget(pool.budget_s, self._deadline_ms(self.clock.time()))
        seed = RNG.getrandbits(30)
        events = self.history.since(-1)
        future = pool.submit(
            decide, self.info.name, s.level, view, events, seed, budget, pool.worlds
        )
        s.thinking = future
        s.think_limit = self.clock.call_later(limit, self._thought_too_long, seat, future)
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
        self.ports.bots.stats.late += 1
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
        stats = self.ports.bots.stats
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
            now = self.clock.time()
            delay = self.info.shout_delay_ms(
                s.level or "hard",
                (now - self._changed_at) * 1000,
                self._deadline_ms(now),
                random.Random(),
            )
            s.pending = self.clock.call_later(delay / 1000, self._shout, seat, action)
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
