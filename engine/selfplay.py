"""Bots playing whole games against each other, without a server or clocks: any game."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .games import Bot, GameState, game_of


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
        seats = state.to_act()
        if len(seats) > 1:
            rng.shuffle(seats)
        for seat in seats:
            action = bots[seat].choose(state.view(seat))
            if action is not None:
                events = state.apply({**action, "seat": seat})
                break
        else:
            if hammer is None:
                raise RuntimeError(f"no bot acts and the game has no hammer: {seats}")
            events = state.apply(dict(hammer))
        for observe in watchers:
            observe(events)
    return state
