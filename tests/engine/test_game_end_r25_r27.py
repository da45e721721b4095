"""R19 four rounds, R25 nothing after the end, R26 winners and shared wins, R27 money revealed."""

import pytest
from engine_helpers import assert_refused, cyclic, one, run_plays, scripted_game
from test_scoring_r20_r24 import Cards, r24_example_script

KR, KG = "krypto", "karl_gitter"


def symmetric_script():
    """Each round every seat takes one painting of the round's only artist free."""
    c = Cards()
    rounds = [[c(KR), c(KR), c(KR), c(KR), "krypto.fixed_price"] for _ in range(3)]
    rounds.append([c(KG), c(KG), c(KG), c(KG), "karl_gitter.fixed_price"])
    return cyclic(4, 0, rounds)


def finished_game(plays):
    g = scripted_game(4, plays)
    before_last = run_plays(g, plays[:-1])
    assert not g.finished and g.round == 4
    # R27: before the end nobody sees another seat's money
    for seat in (0, 1, 2, 3, None):
        money = [s["money"] for s in g.view(seat)["seats"]]
        assert money == [g.money[s] if s == seat else None for s in range(4)]
    return g, before_last + run_plays(g, plays[-1:])


def test_r26_equal_money_shares_the_win():
    g, events = finished_game(symmetric_script())
    end = one(events, "game_end")
    assert end == {"type": "game_end", "money": [310] * 4, "winners": [0, 1, 2, 3]}
    assert g.winners == [0, 1, 2, 3] and g.view(None)["winners"] == [0, 1, 2, 3]


def test_r19_r26_r27_the_game_ends_after_round_4_with_the_richest_winning():
    g, events = finished_game(r24_example_script())
    assert g.finished and g.phase == "over" and g.round == 4
    assert [e["type"] for e in events[-2:]] == ["round_end", "game_end"]
    end = one(events, "game_end")
    best = max(g.money)
    assert end["money"] == g.money
    assert end["winners"] == [s for s in range(4) if g.money[s] == best]
    assert len(end["winners"]) == 1
    # R27: every seat and spectators now see all money
    for seat in (0, 1, 2, 3, None):
        view = g.view(seat)
        assert [s["money"] for s in view["seats"]] == g.money
        assert view["finished"] is True and view["winners"] == end["winners"]
        assert view["legal"] == {} and view["to_act"] == []
    # no other seat's hand is revealed even now
    for seat in range(4):
        assert all("hand" not in entry for entry in g.view(seat)["seats"])


@pytest.mark.parametrize(
    "action",
    [
        {"type": "play", "seat": 0, "card": "krypto.open"},
        {"type": "add", "seat": 1, "card": "krypto.open"},
        {"type": "decline", "seat": 1},
        {"type": "bid", "seat": 2, "amount": 1},
        {"type": "pass", "seat": 3},
        {"type": "sealed", "seat": 0, "amount": 0},
        {"type": "price", "seat": 0, "amount": 1},
        {"type": "buy", "seat": 1},
        {"type": "close"},
    ],
)
def test_r25_every_action_after_the_end_is_illegal(action):
    g, _ = finished_game(symmetric_script())
    for seat in range(4):
        assert g.legal(seat) == {}
    assert_refused(g, action, "illegal")
