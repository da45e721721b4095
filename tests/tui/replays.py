"""Whole recorded games of every game, played by the games' own bots (no server)."""

from __future__ import annotations

from modernart.engine import Record, record_of
from modernart.engine.games import get_game

PLAYERS = ("Ann", "Bob", "Cy", "Dee")


def bot_record(game: str, n: int = 3, seed: int = 1) -> Record:
    """A finished game of `n` bots of the game's first level, deterministic for a seed;
    the hammer falls (a real-time window closes) whenever no bot acts."""
    info = get_game(game)
    state = info.create(PLAYERS[:n], None, seed=seed)
    level = next(iter(info.bots))
    bots = [info.make_bot(level, seed + i) for i in range(n)]
    while not state.finished:
        for seat in state.to_act():
            action = bots[seat].choose(state.view(seat))
            if action:
                state.apply({"seat": seat, **action})
                break
        else:
            assert info.hammer is not None, "a turn-based game always has someone to act"
            state.apply(dict(info.hammer))
    return record_of(state, bots=[False, True, True][:n])
