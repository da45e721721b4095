"""Property tests over random Serengeti games (SERENGETI.md "Invariants the tests must hold").

Each step offers the game a random action — often legal, often not: a random seat, type
and amount. Whatever `legal(seat)` allows must be accepted; anything else must be refused
with a RuleError and change nothing.
"""

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serengeti_helpers import NAMES, snapshot

from modernart.engine.errors import RuleError
from modernart.engine.records import dump_record, load_record, record_of, replay, summary
from modernart.engine.serengeti.cards import FULL_DECK
from modernart.engine.serengeti.game import SerengetiGame

games = st.tuples(
    st.integers(0, 2**32 - 1), st.sampled_from([3, 4, 5]), st.sampled_from(["serengeti", "don"])
)
few = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def is_legal(game: SerengetiGame, action: dict[str, Any]) -> bool:
    """What `legal` promises, read the way a client would read it."""
    legal = game.legal(action["seat"])
    if action["type"] == "pass":
        return legal.get("pass") is True
    if action["type"] == "bid":
        return action.get("amount") in legal.get("bid", [])
    return False


def offer(rng: random.Random, game: SerengetiGame) -> dict[str, Any]:
    """A random action: half the time a legal one of the seat in turn, else anything."""
    seat = game.to_act()[0]
    legal = game.legal(seat)
    if rng.random() < 0.5:
        if "bid" in legal and rng.random() < 0.5:
            amounts = legal["bid"]
            return {
                "type": "bid",
                "seat": seat,
                "amount": amounts[rng.randrange(min(4, len(amounts)))],
            }
        return {"type": "pass", "seat": seat}
    kind = rng.choice(["bid", "bid", "pass", "buy"])
    action = {"type": kind, "seat": rng.choice([seat, seat, rng.randrange(-1, game.n + 1)])}
    if kind == "bid":
        action["amount"] = rng.randrange(-2, 70)
    return action


def expected_chips(before: list[int], events: list[dict[str, Any]]) -> list[int]:
    """Chips after `events`: only payments (S11), bank remainders and S8 bonuses move them."""
    chips = list(before)
    for e in events:
        if e["type"] == "pass":
            chips[e["seat"]] += e["bonus"]
        elif e["type"] == "bonus":
            chips[e["seat"]] += e["amount"]
        elif e["type"] == "sold":
            assert sum(p["amount"] for p in e["payments"]) == e["price"] > 0
            assert all(p["from"] == e["winner"] != p["to"] for p in e["payments"])
            for p in e["payments"]:
                chips[p["from"]] -= p["amount"]
                if p["to"] is not None:
                    chips[p["to"]] += p["amount"]
    return chips


def check_secrecy(game: SerengetiGame, viewer: int | None) -> None:
    """No other player's chips before S18; no card that has not been turned up (the deck)."""
    view = game.view(viewer)
    text = json.dumps(view)
    turned = set(view["lot"]) | {c for s in view["seats"] for c in s["owned"]}
    assert {c for c in FULL_DECK if f'"{c}"' in text} <= turned
    assert "deck" not in view
    for s, entry in enumerate(view["seats"]):
        if not game.finished and s != viewer:
            assert entry["chips"] is None
    if viewer is None:
        assert view["chips"] is None and view["legal"] == {}


@few
@given(games)
def test_invariants_legal_accepted_else_refused_chips_and_cards_conserved(setup):
    seed, n, variant = setup
    rng = random.Random(seed)
    game = SerengetiGame(NAMES[:n], variant, seed=seed)
    refused = 0
    while not game.finished:
        action = offer(rng, game)
        before_chips = list(game.chips)
        before = snapshot(game)
        if is_legal(game, action):
            events = game.apply(action)
            assert game.chips == expected_chips(before_chips, events)
            assert game.actions[-1] == action
        else:
            try:
                game.apply(action)
            except RuleError:
                refused += 1
            else:
                raise AssertionError(f"accepted an action outside legal: {action}")
            assert snapshot(game) == before
        assert game.cards_in_play() == 30
        assert all(c >= 0 for c in game.chips)
        assert len(game.to_act()) == (0 if game.finished else 1)
        for viewer in (None, *range(n)):
            check_secrecy(game, viewer)
        assert len(game.actions) < 2000
    assert refused > 0 and game.auction == 15 and game.winners


@few
@given(games)
def test_a_record_replays_to_the_same_result_every_time(setup):
    seed, n, variant = setup
    rng = random.Random(seed)
    game = SerengetiGame(NAMES[:n], variant, seed=seed)
    cut = rng.randrange(40)  # sometimes a record of a game still running
    while not game.finished and (len(game.actions) < cut or rng.random() < 0.97):
        action = offer(rng, game)
        if is_legal(game, action):
            game.apply(action)
    text = dump_record(record_of(game))
    data = json.loads(text)
    assert data["game"] == "serengeti" and data["format"] == "serengeti-record/1"
    first = replay(load_record(text))
    assert first == summary(game) == replay(load_record(text))
    assert first["chips"] == game.chips and first["owned"] == game.owned
    again = load_record(text).played()
    assert again.view(None) == game.view(None) and again.chips == game.chips
