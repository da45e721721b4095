"""R13 the once-around auction: one lap from the auctioneer's left, auctioneer last."""

import pytest
from engine_helpers import act, assert_refused, new_game, one


def once_around(first: int, n: int = 4):
    hands = [[] for _ in range(n)]
    hands[first] = ["yoko.once_around"]
    g = new_game(hands, first=first)
    act(g, first, "play", "yoko.once_around")
    assert g.phase == "once_around"
    return g


@pytest.mark.parametrize("first", [0, 2, 3])
def test_r13_order_starts_left_of_the_auctioneer_who_is_last(first):
    g = once_around(first)
    order = [(first + i) % 4 for i in range(1, 5)]
    for i, seat in enumerate(order):
        assert g.to_act() == [seat]
        for other in range(4):
            if other != seat:
                assert g.legal(other) == {}
                assert_refused(g, {"type": "bid", "seat": other, "amount": 50 + i}, "not_your_turn")
        act(g, seat, "bid", 10 + i)
    # exactly one lap: the auctioneer's bid was the last and it wins
    assert g.phase == "play" and g.auctioneer == (first + 1) % 4
    assert g.money[first] == 100 - 13


def test_r13_r10_highest_bid_wins_and_pays_the_auctioneer():
    g = once_around(1)
    assert g.legal(2) == {"bid": [1, 100], "pass": True}
    act(g, 2, "bid", 4)
    assert g.legal(3) == {"bid": [5, 100], "pass": True}
    assert_refused(g, {"type": "bid", "seat": 3, "amount": 4}, "too_low")
    act(g, 3, "pass")
    act(g, 0, "bid", 12)
    events = act(g, 1, "pass")
    sold = one(events, "sold")
    assert sold["winner"] == 0 and sold["price"] == 12
    assert sold["payments"] == [{"from": 0, "to": 1, "amount": 12}]
    assert g.money == [88, 112, 100, 100]


def test_r13_nobody_bids_gives_the_card_free():
    g = once_around(3)
    for seat in (0, 1, 2):
        act(g, seat, "pass")
    events = act(g, 3, "pass")
    assert one(events, "free") == {"type": "free", "seat": 3, "cards": ["yoko.once_around"]}
    assert g.money == [100] * 4


def test_r13_auctioneer_outbidding_everyone_pays_the_bank():
    g = once_around(0, n=3)
    act(g, 1, "bid", 20)
    act(g, 2, "pass")
    sold = one(act(g, 0, "bid", 21), "sold")
    assert sold["payments"] == [{"from": 0, "to": None, "amount": 21}]
    assert g.money == [79, 100, 100]


def test_r13_close_is_illegal_in_once_around():
    g = once_around(0)
    assert_refused(g, {"type": "close"}, "illegal")
    assert_refused(g, {"type": "sealed", "seat": 1, "amount": 3}, "illegal")
