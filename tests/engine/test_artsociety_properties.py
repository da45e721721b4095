"""Property tests over random Art Society games (ARTSOCIETY.md "Invariants the tests must
hold"): tiles conserved, views leak nothing, legal moves accepted and others refused,
records replay to the same game."""

import copy
import json
import random

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from modernart.engine.artsociety import GAME
from modernart.engine.artsociety.bots import HeuristicBot, RandomBot
from modernart.engine.artsociety.rules import cell_name
from modernart.engine.artsociety.state import ACTION_FIELDS, ArtSociety
from modernart.engine.errors import RuleError

few = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
games = st.tuples(st.integers(0, 2**32 - 1), st.sampled_from([2, 3, 4]), st.booleans())
NAMES = ["Ann", "Bo", "Cy", "Dee"]


def play(seed, n, heuristic, each=None):
    """A whole game of random bots (one heuristic seat if asked); `each(game, seat)`
    runs before every action."""
    rng = random.Random(seed)
    game = ArtSociety(NAMES[:n], seed=seed)
    bots = [RandomBot(seed + s) for s in range(n)]
    if heuristic:
        bots[0] = HeuristicBot(seed)
    while not game.finished:
        seat = rng.choice(game.to_act())
        if each:
            each(game, seat)
        game.apply({**bots[seat].choose(game.view(seat)), "seat": seat})
        assert len(game.actions) < 2000
    return game


@given(games)
@few
def test_tiles_and_decor_are_conserved(params):
    seed, n, heuristic = params
    paintings = 112 + n  # the auction paintings and the starts dealt (A3, A7)

    def check(game, seat):
        assert game.tile_count() == paintings
        assert game.decor_count() == 48 + 36 + 24

    game = play(seed, n, heuristic, check)
    check(game, None)


def snapshot(game):
    return [json.dumps(game.view(s), sort_keys=True) for s in [None, *range(game.n)]], len(
        game.actions
    )


def illegal_actions(game, seat, rng):
    """Actions outside `legal(seat)`: other types, other bounds, other seats."""
    legal = game.legal(seat)
    cols, rows = game.house.cols, game.house.rows
    out = [
        {"type": t} for t in ("done", "assist", "excess", "decline", "discard") if t not in legal
    ]
    out.append({"type": "fly"})
    if "bid" not in legal:
        out.append({"type": "bid", "card": 1})
    else:
        out.append(
            {"type": "bid", "card": rng.choice([0, 21, *set(range(1, 21)) - set(legal["bid"])])}
        )
    if "pick" in legal:
        out.append({"type": "pick", "painting": "5x5.99"})
    for option in legal.get("place", []):
        cells = {cell_name(i, cols) for i in range(cols * rows)} - set(option["cells"])
        if cells:
            cell = rng.choice(sorted(cells))
            out.append(
                {"type": "place", "tile": option["tile"], "cell": cell, "turned": option["turned"]}
            )
    if "shapes" in legal:
        out.append({"type": "shapes", "shapes": ["2x2"] * (legal["shapes"]["count"] + 1)})
    if "decor" in legal:
        out.append({"type": "decor", "size": max(legal["decor"]) + 1})
    others = [s for s in range(game.n) if s not in game.to_act()]
    acts = [{**a, "seat": seat} for a in out]
    if others:
        acts.append({"type": "bid", "card": 5, "seat": others[0]})
        acts.append({"type": "done", "seat": others[0]})
    return acts


@given(games)
@few
def test_legal_actions_are_accepted_and_others_refused_changing_nothing(params):
    seed, n, heuristic = params
    rng = random.Random(seed)

    def check(game, seat):
        if rng.random() > 0.3:
            return
        before = snapshot(game)
        for action in illegal_actions(game, seat, rng):
            try:
                game.apply(action)
            except RuleError:
                pass
            else:
                raise AssertionError(f"accepted an illegal action {action}")
            assert snapshot(game) == before, action
        # A sample of what legal() offers is accepted.
        legal = game.legal(seat)
        for kind, bounds in legal.items():
            if kind == "place":
                option = rng.choice(bounds)
                cell = rng.choice(option["cells"])
                action = {"type": kind, "tile": option["tile"], "turned": option["turned"]}
                action["cell"] = cell
            elif kind == "exchange":
                option = rng.choice(bounds)
                action = {"type": kind, "painting": option["painting"], "cell": option["cells"][-1]}
            elif kind in ("bid", "pick", "decor"):
                field = {"bid": "card", "pick": "painting", "decor": "size"}[kind]
                action = {"type": kind, field: rng.choice(bounds)}
            elif kind == "shapes":
                action = RandomBot(seed).choose({"legal": {"shapes": bounds}})
            else:
                action = {"type": kind}
            copy.deepcopy(game).apply({**action, "seat": seat})

    play(seed, n, heuristic, check)


def test_a_decision_is_always_due_and_timeouts_are_legal():
    for seed in range(6):
        n = 2 + seed % 3

        def check(game, seat):
            assert game.to_act() and game.legal(seat)
            action = GAME.timeout_action(game, seat)
            assert action["type"] in game.legal(seat)
            copy.deepcopy(game).apply({**action, "seat": seat})
            others = [s for s in range(game.n) if s not in game.to_act()]
            assert all(GAME.timeout_action(game, s) is None for s in others)

        play(seed, n, seed % 2 == 0, check)


def hidden_variants(game, seat):
    """Copies of `game` that differ only in what `seat`'s opponents may not see:
    the order of every pile, and during the bid the other players' chosen cards."""
    rng = random.Random(len(game.actions))
    shuffled = copy.deepcopy(game)
    for pile in shuffled.piles.values():
        rng.shuffle(pile)
    out = [shuffled]
    if game.phase == "bid" and game.bids[seat] is None:
        for other in range(game.n):
            if other != seat and game.bids[other] is None and len(game.hands[other]) > 1:
                a, b = game.hands[other][:2]
                first, second = copy.deepcopy(game), copy.deepcopy(game)
                first.apply({"type": "bid", "seat": other, "card": a})
                second.apply({"type": "bid", "seat": other, "card": b})
                out.append((first, second))
    return out


@given(games)
@few
def test_views_show_no_pile_order_no_sealed_card_and_no_other_hand_or_stack(params):
    seed, n, heuristic = params

    def check(game, seat):
        for viewer in [None, *range(game.n)]:
            view = game.view(viewer)
            msgpack.packb(view)
            text = json.dumps(view)
            for pile in game.piles.values():
                for code in pile:
                    assert f'"{code}"' not in text  # face down
            for _s, entry in enumerate(view["seats"]):
                assert set(entry) >= {"name", "cards", "wall", "assistant", "excess"}
                assert "hand" not in entry and "stack" not in entry
            if viewer is None:
                assert view["hand"] == [] and view["stack"] == [] and view["my_bid"] is None
            if game.phase == "bid":
                assert view["bids"] is None
        for variant in hidden_variants(game, seat):
            if isinstance(variant, tuple):
                first, second = variant
                assert first.view(seat) == second.view(seat)
                assert first.view(None) == second.view(None)
            else:
                assert variant.view(seat) == game.view(seat)

    play(seed, n, heuristic, check)


@given(games)
@few
def test_a_record_replays_to_the_same_game(params):
    seed, n, heuristic = params
    game = play(seed, n, heuristic)
    header = json.loads(json.dumps(GAME.record_header(game)))
    assert GAME.check_deck(header["deck"])
    actions = json.loads(json.dumps(list(game.actions)))
    for _ in range(2):
        deck, first = header["deck"], header["first_auctioneer"]
        again = GAME.create(NAMES[:n], header["variant"], deck=deck, first=first)
        for action in actions:
            again.apply(action)
        assert again.finished and again.winners == game.winners
        assert GAME.replay_fields(again) == GAME.replay_fields(game)
        assert [again.view(s) for s in range(n)] == [game.view(s) for s in range(n)]


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 30)
    | st.floats(allow_nan=False)
    | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
fields = st.sampled_from(["tile", "cell", "turned", "shapes", "card", "painting", "size", "seat"])


@given(
    st.integers(0, 2**16),
    st.sampled_from(sorted(ACTION_FIELDS)),
    st.dictionaries(fields, json_values, max_size=4),
)
@settings(max_examples=300, deadline=None)
def test_malformed_actions_get_a_rule_error_and_change_nothing(seed, kind, extra):
    """Whatever a client puts in an action, the engine answers with a RuleError."""
    game = ArtSociety(NAMES[:3], seed=seed)
    rng = random.Random(seed)
    for _ in range(seed % 40):  # somewhere into the game (random play may end it: A27)
        if game.finished:
            break
        seat = game.to_act()[0]
        game.apply({**RandomBot(seed).choose(game.view(seat)), "seat": seat})
    action = {"type": kind, "seat": rng.choice(game.to_act() or [0]), **extra}
    before = snapshot(game)
    try:
        game.apply(action)
    except RuleError:
        assert snapshot(game) == before
