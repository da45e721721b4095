"""R14 the sealed auction: secret bids, revealed together, ties by seat order."""

import pytest
from engine_helpers import act, assert_refused, new_game, of_type, one


def sealed(first: int, n: int = 4):
    hands = [[] for _ in range(n)]
    hands[first] = ["christin_p.sealed"]
    g = new_game(hands, first=first)
    act(g, first, "play", "christin_p.sealed")
    assert g.phase == "sealed"
    return g


def test_r14_everyone_bids_once_in_any_order_and_bids_stay_secret():
    g = sealed(0)
    assert g.to_act() == [0, 1, 2, 3]
    assert all(g.legal(s) == {"sealed": [0, 100]} for s in range(4))
    events = act(g, 2, "sealed", 40)
    assert events == [{"type": "sealed_in", "seat": 2}]
    assert g.to_act() == [0, 1, 3]
    assert g.legal(2) == {}
    assert_refused(g, {"type": "sealed", "seat": 2, "amount": 41}, "illegal")
    for seat in (0, 1, 3, None):
        view = g.view(seat)
        assert view["sealed_in"] == [2]
        assert view["my_sealed"] is None
        assert 40 not in _numbers(view, skip=("money", "seats", "values", "legal", "tokens"))
    assert g.view(2)["my_sealed"] == 40
    act(g, 0, "sealed", 3)
    act(g, 3, "sealed", 0)
    events = act(g, 1, "sealed", 39)
    assert [e["type"] for e in events] == ["sealed_in", "reveal", "sold"]
    assert one(events, "reveal")["bids"] == [3, 39, 40, 0]
    sold = one(events, "sold")
    assert sold["winner"] == 2 and sold["price"] == 40
    assert sold["payments"] == [{"from": 2, "to": 0, "amount": 40}]
    assert g.money == [140, 100, 60, 100]


def _numbers(data, skip=()):
    """Every int inside `data`, except under the keys in `skip`."""
    if isinstance(data, dict):
        return [x for k, v in data.items() if k not in skip for x in _numbers(v, skip)]
    if isinstance(data, list):
        return [x for v in data for x in _numbers(v, skip)]
    return [data] if isinstance(data, int) and not isinstance(data, bool) else []


def test_r14_bounds_are_0_to_own_money():
    g = sealed(1)
    assert_refused(g, {"type": "sealed", "seat": 0, "amount": -1}, "too_low")
    assert_refused(g, {"type": "sealed", "seat": 0, "amount": 101}, "insufficient_funds")


@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_r14_tie_goes_to_the_auctioneer(first):
    g = sealed(first)
    for seat in range(4):
        act(g, seat, "sealed", 20)
    # everyone tied: the auctioneer wins and pays the bank
    assert g.money == [80 if s == first else 100 for s in range(4)]
    assert g.view(first)["seats"][first]["purchased"] == ["christin_p.sealed"]


@pytest.mark.parametrize(
    ("first", "bids", "winner"),
    [
        (0, [5, 9, 1, 9], 1),  # 1 and 3 tied: 1 is nearer the auctioneer's left
        (2, [9, 9, 5, 1], 0),  # 0 and 1 tied, auctioneer 2: 3, 0, 1 … so 0
        (3, [1, 7, 7, 2], 1),  # 1 and 2 tied, auctioneer 3: 0, 1 … so 1
        (1, [8, 2, 3, 8], 3),  # 3 and 0 tied, auctioneer 1: 2, 3 … so 3
    ],
)
def test_r14_tie_without_the_auctioneer_goes_clockwise_from_its_left(first, bids, winner):
    g = sealed(first)
    events = []
    for seat, amount in enumerate(bids):
        events += act(g, seat, "sealed", amount)
    sold = one(events, "sold")
    assert sold["winner"] == winner and sold["price"] == max(bids)
    assert sold["payments"] == [{"from": winner, "to": first, "amount": max(bids)}]


def test_r14_auctioneer_tied_with_others_wins():
    g = sealed(2)
    events = []
    for seat, amount in enumerate([6, 6, 6, 1]):
        events += act(g, seat, "sealed", amount)
    assert one(events, "sold")["payments"] == [{"from": 2, "to": None, "amount": 6}]


def test_r14_r10_all_zero_bids_give_the_card_free():
    g = sealed(2, n=3)
    events = []
    for seat in (2, 0, 1):
        events += act(g, seat, "sealed", 0)
    assert one(events, "reveal")["bids"] == [0, 0, 0]
    assert one(events, "free") == {"type": "free", "seat": 2, "cards": ["christin_p.sealed"]}
    assert not of_type(events, "sold")
    assert g.money == [100, 100, 100]
