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
    random order; when none of them acts, the hammer falls (`close`).
    """
    while not game.finished:
        seats = game.to_act()
        rng.shuffle(seats)
        for seat in seats:
            action = bots[seat].choose(game.view(seat))
            if action is not None:
                game.apply({**action, "seat": seat})
                break
        else:
            game.apply(CLOSE)
    return game
