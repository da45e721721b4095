"""Bots playing whole games against each other, without a server or clocks."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..game import Game
from . import Bot

CLOSE = {"type": "close"}


def play_out(game: Game, bots: Sequence[Bot], rng: random.Random) -> Game:
    """Play `game` to its end, each seat's bot deciding from `game.view(seat)`.

    Open auctions (R12) have no clock here: the seats still in are asked in a
    random order; when none of them acts, the hammer falls (`close`). Bots with
    an `observe(events)` method (the expert) are shown every public event.
    """
    watchers = [bot.observe for bot in bots if hasattr(bot, "observe")]
    while not game.finished:
        seats = game.to_act()
        rng.shuffle(seats)
        for seat in seats:
            action = bots[seat].choose(game.view(seat))
            if action is not None:
                events = game.apply({**action, "seat": seat})
                break
        else:
            events = game.apply(CLOSE)
        for observe in watchers:
            observe(events)
    return game
