"""The game interface (engine/games.py): Modern Art driven only through its GameInfo."""

from __future__ import annotations

import random

import pytest

from modernart.engine.games import DEFAULT_GAME, GAME_NAMES, all_games, get_game


def test_registry_names_the_default_game_and_refuses_unknown_names():
    assert DEFAULT_GAME in GAME_NAMES
    assert [g.name for g in all_games()] == list(GAME_NAMES)
    with pytest.raises(KeyError):
        get_game("chess")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_game_plays_to_the_end_through_the_interface_alone(name):
    """Bots of every level, timeouts and the hammer, all from GameInfo: the loop the server runs."""
    info = get_game(name)
    assert info.default_preset in info.presets
    assert info.rules.strip() and info.summary.strip()
    rng = random.Random(7)
    for players in info.players:
        names = [f"P{i}" for i in range(players)]
        state = info.create(names, info.default_preset, seed=players)
        bots = [info.make_bot(list(info.bots)[i % len(info.bots)], seed=i) for i in range(players)]
        for _ in range(5000):
            if state.finished:
                break
            waiting = state.to_act()
            if state.realtime() and (not waiting or rng.random() < 0.2):
                assert info.hammer is not None
                state.apply(dict(info.hammer))
                continue
            seat = rng.choice(waiting)
            if rng.random() < 0.1:  # a timed-out seat
                action = info.timeout_action(state, seat)
            else:
                action = bots[seat].choose(state.view(seat))
            assert action is not None, (seat, state.legal(seat))
            assert action["type"] in state.legal(seat)
            state.apply({**action, "seat": seat})
        assert state.finished
        assert state.winners and all(0 <= w < players for w in state.winners)
        header = info.record_header(state)
        assert info.check_deck(header["deck"])
        again = info.create(
            names, header["variant"], deck=header["deck"], first=header["first_auctioneer"]
        )
        for action in state.actions:
            again.apply(action)
        assert again.finished and again.winners == state.winners
        assert info.replay_fields(again) == info.replay_fields(state)


def test_modern_art_realtime_only_in_open_auctions_r12():
    info = get_game("modernart")
    state = info.create(["A", "B", "C"], "classic", seed=1, first=0)
    assert not state.realtime()
    open_card = next(c for c in state.legal(0)["play"] if c.endswith(".open"))
    state.apply({"type": "play", "card": open_card, "seat": 0})
    assert state.realtime()
    state.apply(dict(info.hammer))
    assert not state.realtime()
