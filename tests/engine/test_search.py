"""The shared determinized search (engine/search.py) and every game's sampler: worlds
never contradict the view, the levels play whole games legally, the expert keeps
to its budget of worlds and of time (on a fake clock)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from modernart.engine.artsociety.rules import BID_CARDS
from modernart.engine.games import GAME_NAMES, get_game
from modernart.engine.search import SearchBot
from modernart.engine.selfplay import play_out
from modernart.engine.serengeti.cards import FULL_DECK

LEVELS = ("random", "easy", "normal", "hard", "expert", "heuristic")


def _advance(state: Any, steps: int, rng: random.Random, seen: list[Any]) -> None:
    """Mixed random and hard play for `steps` actions: every event goes to the first
    of `seen`, seat 0's views to all of them."""
    info = get_game(state.game_name)
    bots = [info.make_bot(rng.choice(["random", "hard"]), rng.randrange(1000)) for _ in range(8)]
    for _ in range(steps):
        if state.finished:
            return
        for memory in seen:
            memory.observe_view(state.view(0))
        seats = state.to_act()
        rng.shuffle(seats)
        events = None
        for seat in seats:
            action = bots[seat].choose(state.view(seat))
            if action is not None:
                events = state.apply({**action, "seat": seat})
                break
        if events is None:
            events = state.apply(dict(info.hammer))
        seen[0].observe(events)


def _hidden_of(state: Any, seat: int) -> Any:
    """What the game hides from `seat` and follows from the events: Serengeti's chips,
    Art Society's hands of bid cards (with this round's bid, while it is hidden)."""
    if state.game_name == "serengeti":
        return list(state.chips)
    hidden = [b if state.phase == "bid" and b is not None else None for b in state.bids]
    return [sorted(h + ([b] if b else [])) for h, b in zip(state.hands, hidden, strict=True)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(["serengeti", "artsociety"]),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 200),
    memory=st.sampled_from(["events", "views", "none"]),
)
def test_sampled_worlds_never_contradict_the_view(
    game: str, seed: int, steps: int, memory: str
) -> None:
    """A world built from seat 0's view and what it has seen shows that seat exactly
    the same view, holds every component once, and plays on legally to the end."""
    info = get_game(game)
    assert info.search is not None
    rng = random.Random(seed)
    players = rng.choice(info.players)
    state = info.create([f"p{i}" for i in range(players)], seed=seed)
    events, views = info.search.seen(), info.search.seen()
    _advance(state, steps, rng, [events, views])
    assume(not state.finished)
    view = state.view(0)
    events.observe_view(view)
    views.observe_view(view)
    seen = {"events": events, "views": views, "none": None}[memory]
    world = info.search.sample(view, seen, rng)
    assert world.view(0) == view
    if game == "serengeti":
        assert world.cards_in_play() == len(FULL_DECK)
        assert sorted(world.deck) == sorted(FULL_DECK)
    else:
        assert world.tile_count() == state.tile_count()
        assert world.decor_count() == state.decor_count()
        for s in range(players):  # no rival holds a card it has laid or never had
            assert len(world.hands[s]) == len(state.hands[s])
            assert set(world.hands[s]) | set(world.stacks[s][1:]) <= set(range(1, BID_CARDS + 1))
            assert not set(world.hands[s]) & set(world.stacks[s][1:])
    if memory == "events":  # what the public events fix, the world has right
        assert _hidden_of(world, 0) == _hidden_of(state, 0)
    bots = [info.make_bot("random", s) for s in range(players)]
    play_out(world, bots, rng)  # raises on any action the world's rules refuse
    assert world.finished


@pytest.mark.parametrize("game", GAME_NAMES)
def test_samples_differ_only_in_what_the_view_hides(game: str) -> None:
    """Two worlds from one view agree on the view but not always on the hidden part:
    the sampler draws it rather than reading the true state."""
    info = get_game(game)
    state = info.create(["a", "b", "c", "d"], seed=7)
    rng = random.Random(7)
    _advance(state, 12, rng, [info.search.seen()])
    view = state.view(0)
    worlds = [info.search.sample(view, None, random.Random(k)) for k in range(8)]
    assert all(w.view(0) == view for w in worlds)
    hidden = {
        "modernart": lambda w: tuple(map(tuple, w.hands[1:])),
        "serengeti": lambda w: tuple(w.deck[w.deck_pos :]),
        "artsociety": lambda w: tuple(tuple(p) for p in w.piles.values()),
    }[game]
    assert len({hidden(w) for w in worlds}) > 1


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(GAME_NAMES),
    level=st.sampled_from(LEVELS),
    seed=st.integers(0, 2**32),
    data=st.data(),
)
def test_every_level_plays_whole_games_legally(
    game: str, level: str, seed: int, data: st.DataObject
) -> None:
    """One seat of each level among hard bots plays a whole game: the engine refuses
    any illegal action with a RuleError, so finishing means none was sent."""
    info = get_game(game)
    players = data.draw(st.sampled_from(info.players))
    rng = random.Random(seed)
    bots = [info.make_bot(level if s == 0 else "hard", seed + s) for s in range(players)]
    if isinstance(bots[0], SearchBot):
        bots[0].max_worlds = 1  # the same code, quicker
    state = play_out(info.create([f"p{i}" for i in range(players)], seed=seed), bots, rng)
    assert state.finished and state.winners
    assert Counter(a["seat"] for a in state.actions)[0] > 0


class FakeClock:
    """Each reading is `step` seconds after the last."""

    def __init__(self, step: float) -> None:
        self.now, self.step, self.readings = 0.0, step, 0

    def __call__(self) -> float:
        self.now += self.step
        self.readings += 1
        return self.now


def _decision(game: str) -> tuple[Any, dict[str, Any], Any]:
    """A state at a decision with several candidates, the view, and its events."""
    info = get_game(game)
    for seed in range(50):
        state = info.create(["a", "b", "c", "d"], seed=seed)
        seen = info.search.seen()
        _advance(state, 9, random.Random(seed), [seen])
        seat = state.to_act()[0] if not state.finished else None
        if seat is None:
            continue
        bot = SearchBot(game, 1)
        bot.observe([])
        view = state.view(seat)
        if len(bot.candidates(view, bot.policy.choose(view))) > 2:
            return state, view, seen
    raise AssertionError("no decision with several candidates")


@pytest.mark.parametrize("game", ["serengeti", "artsociety"])
def test_expert_stops_at_its_world_budget(game: str) -> None:
    _, view, _ = _decision(game)
    bot = SearchBot(game, 3, budget_s=1e9, max_worlds=3)
    action = bot.choose(view)
    assert action is not None
    assert bot.worlds_used == [3]
    candidates = bot.candidates(view, bot.policy.choose(view))
    assert bot.simulations == 3 * len(candidates)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_expert_stops_when_its_clock_runs_out(game: str) -> None:
    """On a clock that moves 1 s a reading, a 2.5 s budget stops the search early: it
    finishes the worlds it could, drops one cut short, and still answers."""
    _, view, _ = _decision(game)
    clock = FakeClock(1.0)
    bot = SearchBot(game, 3, budget_s=2.5, max_worlds=None, clock=clock)
    action = bot.search(view, bot.candidates(view, bot.policy.choose(view)), 0)
    assert action is not None
    assert bot.worlds_used == [1]  # the deadline passed inside the second world
    # A clock that never moves: only the world budget ends the search.
    still = SearchBot(game, 3, budget_s=0.5, max_worlds=2, clock=lambda: 0.0)
    still.search(view, still.candidates(view, still.policy.choose(view)), 0)
    assert still.worlds_used == [2]


def test_every_game_offers_the_ladder_and_a_hint() -> None:
    for info in (get_game(name) for name in GAME_NAMES):
        assert {"easy", "normal", "hard", "expert", "heuristic"} <= set(info.bots)
        assert info.default_bot == "hard"
        assert info.bots["heuristic"] is info.bots["hard"]
        assert all(info.bot_help.get(level) for level in info.bots)
        assert isinstance(info.make_bot("expert", 1), SearchBot)
        assert info.hint is not None


@pytest.mark.parametrize("game", GAME_NAMES)
def test_quick_answers_only_what_needs_no_search_and_as_the_search_would(game: str) -> None:
    """`quick` (asked on a server's loop) answers a decision with nothing to weigh without
    searching, and answers it as `choose` does; every other decision it leaves alone."""
    info = get_game(game)
    state = info.create(["a", "b", "c", "d"], seed=5)
    rng = random.Random(5)
    answered = left = 0
    while not state.finished:
        for seat in state.to_act():
            view = state.view(seat)
            expert = info.make_bot("expert", 1)
            decided, action = expert.quick(view)
            assert expert.searches == 0
            if decided:
                answered += 1
                assert info.make_bot("expert", 1).choose(view) == action
            else:
                left += 1
        _advance(state, 1, rng, [info.search.seen()])
    assert answered and left
