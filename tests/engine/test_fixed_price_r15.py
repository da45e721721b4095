"""R15 the fixed-price auction: the auctioneer names a price, the others buy or pass."""

import pytest
from engine_helpers import act, assert_refused, new_game, one, play_through

from modernart.engine.modernart import GAME
from modernart.engine.modernart.bots.heuristic import HeuristicBot


def fixed(first: int = 0, n: int = 4):
    hands = [[] for _ in range(n)]
    hands[first] = ["karl_gitter.fixed_price"]
    g = new_game(hands, first=first)
    act(g, first, "play", "karl_gitter.fixed_price")
    assert g.phase == "price"
    return g


def test_r15_only_the_auctioneer_names_the_price_within_1_to_money():
    g = fixed(1)
    assert g.to_act() == [1]
    assert g.legal(1) == {"price": [1, 100]}
    assert all(g.legal(s) == {} for s in (0, 2, 3))
    assert_refused(g, {"type": "price", "seat": 2, "amount": 5}, "not_your_turn")
    assert_refused(g, {"type": "price", "seat": 1, "amount": 0}, "too_low")
    assert_refused(g, {"type": "price", "seat": 1, "amount": 101}, "insufficient_funds")
    assert_refused(g, {"type": "buy", "seat": 2}, "illegal")
    events = act(g, 1, "price", 30)
    assert events == [{"type": "price", "seat": 1, "amount": 30}]
    assert g.phase == "buy" and g.view(0)["price"] == 30


@pytest.mark.parametrize("first", [0, 3])
def test_r15_offer_goes_clockwise_from_the_auctioneers_left(first):
    g = fixed(first)
    act(g, first, "price", 30)
    for seat in [(first + i) % 4 for i in (1, 2)]:
        assert g.to_act() == [seat]
        assert g.legal(seat) == {"buy": True, "pass": True}
        last = (first + 3) % 4
        assert_refused(g, {"type": "buy", "seat": last}, "not_your_turn")
        act(g, seat, "pass")
    last = (first + 3) % 4
    sold = one(act(g, last, "buy"), "sold")
    assert sold["winner"] == last and sold["price"] == 30
    assert sold["payments"] == [{"from": last, "to": first, "amount": 30}]
    assert g.money[first] == 130 and g.money[last] == 70
    assert g.auctioneer == (first + 1) % 4


def test_r15_first_buyer_ends_the_auction():
    g = fixed(2)
    act(g, 2, "price", 10)
    events = act(g, 3, "buy")
    assert one(events, "sold")["winner"] == 3
    assert g.phase == "play" and g.auctioneer == 3


def test_r15_when_all_pass_the_auctioneer_must_buy_from_the_bank():
    g = fixed(0)
    act(g, 0, "price", 25)
    for seat in (1, 2):
        act(g, seat, "pass")
    events = act(g, 3, "pass")
    sold = one(events, "sold")
    assert sold["winner"] == 0 and sold["price"] == 25
    assert sold["payments"] == [{"from": 0, "to": None, "amount": 25}]
    assert g.money == [75, 100, 100, 100]
    assert g.view(1)["seats"][0]["purchased"] == ["karl_gitter.fixed_price"]


def test_r15_r09_a_player_who_cannot_afford_the_price_may_only_pass():
    # Seat 1 spends 95 on an open auction first, then faces a price of 10.
    g = new_game(
        [["krypto.open", "karl_gitter.fixed_price"], ["yoko.open"], ["yoko.open"], ["yoko.open"]]
    )
    act(g, 0, "play", "krypto.open")
    act(g, 1, "bid", 95)
    act(g, None, "close")
    assert g.money[1] == 5
    for seat in (1, 2, 3):
        play_through(g, seat, "yoko.open")
    act(g, 0, "play", "karl_gitter.fixed_price")
    act(g, 0, "price", 10)
    assert g.legal(1) == {"pass": True}
    assert_refused(g, {"type": "buy", "seat": 1}, "insufficient_funds")
    act(g, 1, "pass")
    assert g.legal(2) == {"buy": True, "pass": True}


def test_r15_auctioneer_with_no_money_can_only_name_0():
    # Seat 0 spends all 100 on its own open auction, then plays a fixed price.
    g = new_game([["krypto.open", "karl_gitter.fixed_price"], ["yoko.open"], ["yoko.open"]])
    act(g, 0, "play", "krypto.open")
    act(g, 0, "bid", 100)
    act(g, None, "close")
    assert g.money[0] == 0
    for seat in (1, 2):
        play_through(g, seat, "yoko.open")
    act(g, 0, "play", "karl_gitter.fixed_price")
    assert g.legal(0) == {"price": [0, 0]}
    assert_refused(g, {"type": "price", "seat": 0, "amount": 1}, "insufficient_funds")
    assert_refused(g, {"type": "price", "seat": 0, "amount": -1}, "too_low")
    act(g, 0, "price", 0)
    assert g.legal(1) == {"buy": True, "pass": True}
    act(g, 1, "pass")
    events = act(g, 2, "pass")
    sold = one(events, "sold")
    assert sold["winner"] == 0 and sold["price"] == 0 and sold["payments"] == []
    assert g.money[0] == 0
    assert g.view(0)["seats"][0]["purchased"] == ["krypto.open", "karl_gitter.fixed_price"]


def test_r15_a_timed_out_auctioneer_names_the_heuristics_price_not_1():
    """Issue 28 (play-test #5): a dropped player's timed-out fixed price gave the
    painting away at 1; now the seat names what the heuristic bot would."""
    g = fixed(0)
    action = GAME.timeout_action(g, 0)
    assert action == HeuristicBot().choose(g.view(0))
    assert action["type"] == "price" and action["amount"] > 1
