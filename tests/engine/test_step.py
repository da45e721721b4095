"""`step`: an action applied without the log, its events built only for a listener.

Every game's `apply` is `step` plus the log, and `Record.played` replays through `step`
with nobody listening (issue 31: building events and copying each action into the log
were a fifth of a replay). These properties hold the three ways to apply an action to
the same state, over random games of every game.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from modernart.engine import RuleError, record_of
from modernart.engine.games import GAME_NAMES, GameState, get_game

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
NAMES = [*PLAYERS, "Eve"]
few = settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def seen(game: GameState) -> list[Any]:
    """What every seat and a spectator may know."""
    return [game.view(s) for s in [*range(game.n), None]]


def random_action(game: GameState, name: str, rng: random.Random) -> dict[str, Any]:
    """A random bot's action for a random seat that may act, or the game's hammer."""
    info = get_game(name)
    seats = game.to_act()
    rng.shuffle(seats)
    for seat in seats:
        action = info.make_bot("random", rng.randrange(2**32)).choose(game.view(seat))
        if action is not None:
            return {**action, "seat": seat}
    assert info.hammer is not None, seats
    return dict(info.hammer)


def setups() -> list[tuple[str, int, str]]:
    """Every game with every player count and preset it can be dealt with."""
    found = []
    for name in GAME_NAMES:
        info = get_game(name)
        for n in info.players:
            for variant in info.presets:
                try:
                    info.create(NAMES[:n], variant, seed=0)
                except ValueError:  # a preset for other player counts
                    continue
                found.append((name, n, variant))
    return found


@pytest.mark.parametrize(("name", "n", "variant"), setups())
@few
@given(seed=st.integers(0, 2**32 - 1))
def test_step_changes_the_game_as_apply_does_and_leaves_the_log_alone(name, n, variant, seed):
    rng = random.Random(seed)
    logged = get_game(name).create(NAMES[:n], variant, seed=seed)
    record = record_of(logged)
    heard, quiet = record.new_game(), record.new_game()
    heard_log, quiet_log = list(heard.actions), list(quiet.actions)
    while not logged.finished:
        action = random_action(logged, name, rng)
        events = logged.apply(dict(action))
        listened: list[dict[str, Any]] = []
        entry = heard.step(dict(action), listened)
        assert quiet.step(dict(action)) == entry == logged.actions[-1]
        assert listened == events
        assert seen(quiet) == seen(logged)
        assert list(heard.actions) == heard_log and list(quiet.actions) == quiet_log
        assert len(logged.actions) < 3000
    assert seen(heard) == seen(logged) and heard.finished and quiet.finished


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_played_record_logs_its_actions_and_writes_the_same_record(name):
    rng = random.Random(7)
    game = get_game(name).create(PLAYERS, seed=7)
    while not game.finished:
        game.apply(random_action(game, name, rng))
    record = record_of(game)
    played = record.played()
    assert seen(played) == seen(game)
    assert list(played.actions) == list(game.actions) == record.actions
    assert record_of(played).to_dict() == record.to_dict()
    half = len(record.actions) // 2
    assert record.played(upto=half).actions == record.actions[:half]
    assert seen(record.played(upto=half)) != seen(game)  # a game half played is not over


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_refused_step_changes_nothing(name):
    rng = random.Random(3)
    game = get_game(name).create(PLAYERS, seed=3)
    while len(game.to_act()) == game.n:  # Art Society's setup waits for everyone
        game.apply(random_action(game, name, rng))
    before, log = seen(game), list(game.actions)
    idle = next(s for s in range(game.n) if s not in game.to_act())
    for action in ({"type": "nonsense", "seat": 0}, {"type": "pass", "seat": 9}, "no map"):
        with pytest.raises(RuleError):
            game.step(action)  # type: ignore[arg-type]
    legal = random_action(game, name, rng)
    with pytest.raises(RuleError):
        game.step({**legal, "seat": idle})  # not this seat's decision
    assert seen(game) == before and list(game.actions) == log
