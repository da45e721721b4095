"""Property tests over random legal games (RULES.md "Invariants the tests must hold")."""

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

from engine_helpers import NAMES, random_step
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from modernart.engine import RuleError, dump_record, load_record, record_of, replay
from modernart.engine.modernart import Game

SETUPS = [
    (3, "classic"),
    (3, "classic_3p_virtual"),
    (4, "classic"),
    (4, "japanese"),
    (5, "classic"),
    (5, "japanese"),
]
games = st.tuples(st.integers(0, 2**32 - 1), st.sampled_from(SETUPS))
few = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def steps(seed: int, n: int, variant: str) -> Iterator[tuple[Game, dict, list, list[int]]]:
    """Play a random game, yielding (game, action, events, money before) after every action."""
    rng = random.Random(seed)
    g = Game(list(NAMES[:n]), variant, seed=seed)
    while not g.finished:
        action = random_step(g, rng)
        before = list(g.money)
        events = g.apply(action)
        yield g, action, events, before
        assert len(g.actions) < 3000


def expected_money(before: list[int], events: list[dict[str, Any]]) -> list[int]:
    """Money after `events`: payments move it, bank payments remove it, sales add it (R10, R24)."""
    money = list(before)
    for e in events:
        if e["type"] == "sold":
            assert sum(p["amount"] for p in e["payments"]) == e["price"]
            assert all(p["from"] == e["winner"] and p["amount"] > 0 for p in e["payments"])
            for p in e["payments"]:
                money[p["from"]] -= p["amount"]
                if p["to"] is not None:
                    money[p["to"]] += p["amount"]
        elif e["type"] == "round_end":
            money = [m + s for m, s in zip(money, e["sales"], strict=True)]
    return money


def check_view_secrecy(g: Game, viewer: int | None) -> None:
    view = g.view(viewer)
    json.dumps(view)  # plain data
    assert "deck" not in view and "hands" not in view and "sealed" not in view
    for s, entry in enumerate(view["seats"]):
        assert "hand" not in entry
        if not g.finished and s != viewer:
            assert entry["money"] is None
        else:
            assert entry["money"] == g.money[s]
        assert entry["hand_size"] == len(g.view(s)["hand"])
    if viewer is None:
        assert view["hand"] == [] and view["money"] is None and view["legal"] == {}
        assert view["my_sealed"] is None
    else:
        assert view["money"] == g.money[viewer]
        assert view["legal"] == g.legal(viewer)


@few
@given(games)
def test_invariants_money_and_cards_conserved_views_leak_nothing(game):
    seed, (n, variant) = game
    revealed = True
    sealed: dict[int, int] = {}  # this auction's sealed bids so far, from the actions
    for g, action, events, before in steps(seed, n, variant):
        if action["type"] == "sealed":
            sealed[action["seat"]] = action["amount"]
        assert g.cards_in_play() == 70
        assert g.money == expected_money(before, events)
        assert all(m >= 0 for m in g.money)
        for e in events:
            if e["type"] == "sealed_in":
                assert set(e) == {"type", "seat"}
                revealed = False
            elif e["type"] == "reveal":
                revealed = True
            elif not revealed:  # nothing before the reveal carries an amount
                assert "amount" not in e and "bids" not in e
        for viewer in [*range(n), None]:
            check_view_secrecy(g, viewer)
        if g.phase == "sealed":
            for s in range(n):
                assert g.view(s)["my_sealed"] == sealed.get(s)
        else:
            sealed = {}
    assert g.finished and g.winners == [s for s in range(n) if g.money[s] == max(g.money)]


def candidates(legal: dict[str, Any]) -> list[dict[str, Any]]:
    """Every card and both bounds of every action `legal` offers."""
    out: list[dict[str, Any]] = []
    for kind, bounds in legal.items():
        if kind in ("play", "add"):
            out += [{"type": kind, "card": c} for c in bounds]
        elif kind in ("bid", "sealed", "price"):
            low, high = bounds
            out += [{"type": kind, "amount": low}, {"type": kind, "amount": high}]
        else:
            out.append({"type": kind})
    return out


def observable(g: Game) -> Any:
    return [g.view(s) for s in range(g.n)], g.view(None), list(g.money), len(g.actions)


def refused_unchanged(g: Game, action: dict[str, Any]) -> None:
    before = observable(g)
    try:
        g.apply(action)
    except RuleError:
        pass
    else:
        raise AssertionError(f"{action} was accepted")
    assert observable(g) == before


def check_legal_is_exact(g: Game, seat: int) -> None:
    """Each action `legal` offers is accepted (on a copy); anything else is refused."""
    legal = g.legal(seat)
    for action in candidates(legal):
        copy.deepcopy(g).apply({**action, "seat": seat})
    for kind, bounds in legal.items():
        if kind in ("bid", "sealed", "price"):
            low, high = bounds
            refused_unchanged(g, {"type": kind, "seat": seat, "amount": low - 1})
            refused_unchanged(g, {"type": kind, "seat": seat, "amount": high + 1})
    for kind in ("pass", "decline", "buy"):
        if kind not in legal:
            refused_unchanged(g, {"type": kind, "seat": seat})
    for kind in ("bid", "sealed", "price"):
        if kind not in legal:
            refused_unchanged(g, {"type": kind, "seat": seat, "amount": 1})
    for kind in ("play", "add"):
        for card in set(g.view(seat)["hand"]) - set(legal.get(kind, [])):
            refused_unchanged(g, {"type": kind, "seat": seat, "card": card})


@few
@given(games, st.randoms(use_true_random=False))
def test_every_legal_action_is_accepted_and_anything_else_refused(game, rng):
    seed, (n, variant) = game
    checked = 0
    for g, _action, _events, _before in steps(seed, n, variant):
        if g.finished or checked >= 15 or rng.random() > 0.1:
            continue
        checked += 1
        acting = [s for s in range(n) if g.legal(s)]
        idle = [s for s in range(n) if not g.legal(s)]
        check_legal_is_exact(g, rng.choice(acting))
        if idle:
            check_legal_is_exact(g, rng.choice(idle))
        if g.phase != "open":
            refused_unchanged(g, {"type": "close"})


@few
@given(games, st.floats(0, 1))
def test_saving_and_replaying_a_record_gives_the_same_result(game, cut):
    seed, (n, variant) = game
    states = []
    for g, _action, _events, _before in steps(seed, n, variant):
        states.append((list(g.money), copy.deepcopy(g.tokens), g.round))
    record = load_record(dump_record(record_of(g)))
    result = replay(record)
    assert result["ok"] and result["finished"]
    assert result["money"] == g.money and result["winners"] == g.winners
    assert result["tokens"] == g.tokens and result["actions_applied"] == len(g.actions)
    # a record cut anywhere replays to the state at that point
    k = int(cut * (len(record.actions) - 1))
    record.actions = record.actions[: k + 1]
    partial = replay(record)
    assert (partial["money"], partial["tokens"], partial["round"]) == states[k]
