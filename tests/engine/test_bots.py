"""Bots: legal moves only, decisions from the view alone, heuristic beats random."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from modernart.engine.modernart import Game
from modernart.engine.modernart.bots import BOT_LEVELS, make_bot
from modernart.engine.modernart.bots.heuristic import painting_values
from modernart.engine.modernart.bots.selfplay import play_out

# The expert searches for up to a second a move: tests/engine/test_bots_expert.py
# plays it with a small budget.
FAST_LEVELS = [level for level in BOT_LEVELS if level != "expert"]


@pytest.mark.parametrize("level", FAST_LEVELS)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(3, 5))
def test_bot_plays_only_legal_actions_to_the_end(level: str, seed: int, players: int) -> None:
    rng = random.Random(seed)
    game = Game([f"p{i}" for i in range(players)], seed=seed)
    bots = [make_bot(level, seed + i) for i in range(players)]
    while not game.finished:
        seats = game.to_act()
        rng.shuffle(seats)
        acted = False
        for seat in seats:
            view = game.view(seat)
            action = bots[seat].choose(view)
            if action is None:
                continue
            assert action["type"] in view["legal"]
            game.apply({**action, "seat": seat})  # raises if the bot broke a rule
            acted = True
            break
        if not acted:
            assert game.phase == "open"
            game.apply({"type": "close"})
    assert game.round == 4
    assert game.winners


@pytest.mark.parametrize("level", FAST_LEVELS)
def test_bot_decides_from_the_view_alone(level: str) -> None:
    """The same view and seed give the same choice, and the view is not changed."""
    fresh = Game(["a", "b", "c", "d"], seed=11)
    for _ in range(40):
        seat = fresh.to_act()[0]
        view = fresh.view(seat)
        before = copy.deepcopy(view)
        first = make_bot(level, 5).choose(view)
        assert view == before
        assert make_bot(level, 5).choose(copy.deepcopy(view)) == first
        fresh.apply({**first, "seat": seat})


def test_painting_values_follow_r21_r23_ranking() -> None:
    """The leading artist this round is worth its tokens plus 30, an outsider little."""
    view = Game(["a", "b", "c"], seed=3).view(0)
    view["hand"] = []
    view["counts"] = {"lite_metal": 0, "yoko": 4, "christin_p": 3, "karl_gitter": 2, "krypto": 0}
    view["tokens"]["yoko"] = [20, 0, 0, 0]
    values = painting_values(view)
    assert values["yoko"] > values["christin_p"] > values["karl_gitter"] > values["krypto"]
    assert values["yoko"] == pytest.approx((20 + 30) * 0.9)
    assert values["krypto"] < 5


def test_heuristic_bot_beats_random_bots_clearly() -> None:
    """Over fixed seeds (deterministic), one heuristic bot wins most 4-player games."""
    wins = 0
    games = 40
    for g in range(games):
        rng = random.Random(g)
        seat = g % 4
        bots = [make_bot("heuristic" if s == seat else "random", g * 10 + s) for s in range(4)]
        game = play_out(Game(["a", "b", "c", "d"], seed=g), bots, rng)
        wins += seat in game.winners
    assert wins > games // 2  # random play would win about a quarter
