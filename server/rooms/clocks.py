"""A room's clocks: the hammer of a real-time window (R12), the turn clock, and
the back-off after the store refused a change."""

from __future__ import annotations

from typing import Any

from modernart.server.rooms.base import PLAYING, STORE_RETRY_MAX_S, STORE_RETRY_S, guarded


class Clocks:
    """The hammer, the turn clock, the back-off: a part of `Room` (server/rooms/room.py)."""

    def deadline(self) -> float | None:
        """The clock time at which the running clock (the hammer's or the turn's) runs out."""
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
            self._read_until = self.clock.time() + self.ports.round_read_s
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
            self._turn_deadline = max(self.clock.time(), self._read_until) + timeout
            self._turn_clock = self.clock.call_at(self._turn_deadline, self._turn_timed_out)

    def _start_hammer(self) -> None:
        """R12: going once at 1/3, twice at 2/3, sold (`GameInfo.hammer`) when the window
        passes. One timer at a time, each stage setting the next: a bid, which starts
        the window afresh, cancels one timer instead of three (issue 21)."""
        self._stop_hammer()
        window = self.options.shout_window_ms / 1000
        loop = self.clock
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
        self._hammer = [self.clock.call_at(at, self._hammer_stage, stage + 1)]
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
            [{"type": "going", "stage": stage, "deadline_ms": self._deadline_ms(self.clock.time())}]
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

    def _back_off(self) -> None:
        """The store refused a change: clocks and bots wait, doubling per failure."""
        self._store_failures += 1
        self._stop_hammer()
        self._stop_turn_clock()
        if self._retry is not None:
            self._retry.cancel()
        backoff = min(STORE_RETRY_MAX_S, STORE_RETRY_S * 2 ** (self._store_failures - 1))
        self._retry = self.clock.call_later(backoff, self._carry_on)

    @guarded
    def _carry_on(self) -> None:
        """Re-arm clocks and bots after an action the store refused."""
        self._retry = None
        if self.status == PLAYING and not self.paused:
            self._update_clocks([])
            self._schedule_bots()
