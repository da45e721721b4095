"""Bots playing whole games against each other, without a server or clocks: any game."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .games import Bot, Event, GameState, game_of


def bot_move(state: GameState, bots: Sequence[Bot], rng: random.Random) -> list[Event] | None:
    """The first seat's move among those who may act (asked in a random order when several
    may, as in Modern Art's open auction, R12): its events, or None when no bot acts."""
    seats = state.to_act()
    if len(seats) > 1:
        rng.shuffle(seats)
    for seat in seats:
        action = bots[seat].choose(state.view(seat))
        if action is not None:
            return state.apply({**action, "seat": seat})
    return None


def play_out(state: GameState, bots: Sequence[Bot], rng: random.Random) -> GameState:
    """Play `state` to its end, each seat's bot deciding from `state.view(seat)`.

    When several seats may act (Modern Art's open auction, R12) they are asked in
    a random order; when none of them acts, the game's hammer falls (there is no
    clock here). Bots with an `observe(events)` method (the experts) are shown
    every event a player receives, as a server's `update`s carry them.
    """
    hammer = game_of(state).hammer
    watchers = [bot.observe for bot in bots if hasattr(bot, "observe")]
    while not state.finished:
        events = bot_move(state, bots, rng)
        if events is None:
            if hammer is None:
                raise RuntimeError(f"no bot acts and the game has no hammer: {state.to_act()}")
            events = state.apply(dict(hammer))
        for observe in watchers:
            observe(events)
    return state
