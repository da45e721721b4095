"""Serengeti bidding: turns, legal bids, passes and the early-pass bonus (S6–S10)."""

import pytest
from serengeti_helpers import act, new_game, snapshot, win_at

from modernart.engine.errors import Illegal, InsufficientFunds, NotYourTurn, RuleError, TooLow


def test_s06_start_player_first_then_clockwise_lap_after_lap_skipping_passes():
    game = new_game(4, first=2)
    seen = []
    script = [("bid", 1), ("pass", None), ("bid", 2), ("bid", 3), ("bid", 4), ("bid", 5)]
    for kind, amount in script:
        seen.append(game.to_act()[0])
        act(game, game.to_act()[0], kind, amount)
    # 2 bids, 3 passes, 0 and 1 bid, then 2 again and 0 (3 is skipped from now on)
    assert seen == [2, 3, 0, 1, 2, 0]
    assert game.to_act() == [1] and game.view(None)["passed"] == [3]


def test_s06_only_the_seat_in_turn_may_act():
    game = new_game(3, first=1)
    before = snapshot(game)
    for seat in (0, 2):
        with pytest.raises(NotYourTurn):
            act(game, seat, "pass")
        with pytest.raises(NotYourTurn):
            act(game, seat, "bid", 1)
        assert game.legal(seat) == {}
    assert snapshot(game) == before
    assert game.legal(1) == {"bid": list(range(1, 11)), "pass": True}


def test_s07_a_bid_is_above_the_high_bid_and_the_first_at_least_1():
    game = new_game(3)
    before = snapshot(game)
    with pytest.raises(TooLow):
        act(game, 0, "bid", 0)
    assert snapshot(game) == before
    act(game, 0, "bid", 4)
    for low in (3, 4):
        with pytest.raises(TooLow):
            act(game, 1, "bid", low)
    assert game.legal(1)["bid"][0] == 5
    act(game, 1, "bid", 5)
    assert game.view(None)["high"] == {"amount": 5, "seat": 1}


def test_s07_a_bid_is_at_most_the_chips_held():
    game = new_game(3)
    with pytest.raises(InsufficientFunds):
        act(game, 0, "bid", 11)
    assert game.legal(0)["bid"][-1] == 10
    act(game, 0, "bid", 10)
    assert game.legal(1) == {"pass": True}  # no legal bid: they must pass


def test_s07_worked_example_own_0_and_5_with_12_chips_facing_9():
    """A player who owns a 0 and a 5, holds 12 chips and faces a high bid of 9 may bid 11
    or 12, or pass (10 and 15 are barred; 13+ are unaffordable)."""
    game = new_game(4, "red.0", "blue.0", "blue.5", "red.1", "red.2", "red.3", "purple.9")
    win_at(game, 0, 0)  # S10: red.0 free to seat 0
    win_at(game, 0, 0)  # blue.0, blue.5 free to seat 0
    win_at(game, 1, 1)  # seat 0 starts and passes first: +2 when seat 1 buys (S8)
    assert game.view(0)["seats"][0]["barred"] == [0, 5] and game.chips[0] == 12
    act(game, 1, "bid", 9)
    act(game, 2, "pass")
    act(game, 3, "pass")
    assert game.to_act() == [0]
    assert game.legal(0) == {"bid": [11, 12], "pass": True}
    before = snapshot(game)
    with pytest.raises(Illegal, match="S7"):  # barred digit: refused, costs nothing
        act(game, 0, "bid", 10)
    for amount in (13, 15):
        with pytest.raises(InsufficientFunds):
            act(game, 0, "bid", amount)
    with pytest.raises(TooLow):
        act(game, 0, "bid", 9)
    assert snapshot(game) == before
    act(game, 0, "bid", 11)
    assert game.view(None)["high"] == {"amount": 11, "seat": 0}


def test_s07_a_player_with_no_legal_bid_must_pass():
    game = new_game(3, "red.1", "blue.0", "blue.3")
    win_at(game, 0, 0)  # seat 0 owns a 1
    act(game, 0, "bid", 9)  # auction 2, seat 0 starts
    # seat 1 has 12 chips (early pass in auction 1) and could bid 10..12
    assert game.legal(1)["bid"] == [10, 11, 12]
    act(game, 1, "bid", 12)
    act(game, 2, "pass")
    # seat 0 holds 10 chips, and 13+ is out of reach: only a pass
    assert game.legal(0) == {"pass": True}
    with pytest.raises(RuleError):
        act(game, 0, "bid", 13)


@pytest.mark.parametrize(
    "action",
    [
        {"type": "bid", "seat": 0, "amount": "3"},
        {"type": "bid", "seat": 0, "amount": True},
        {"type": "bid", "seat": 0, "amount": 2.0},
        {"type": "bid", "seat": 0},
        {"type": "pass"},
        {"type": "pass", "seat": 7},
        {"type": "pass", "seat": False},
        {"type": "play", "seat": 0, "card": "blue.0"},
        {"seat": 0},
        ["pass"],
        "pass",
    ],
)
def test_s07_malformed_actions_are_illegal_and_change_nothing(action):
    game = new_game(3)
    before = snapshot(game)
    with pytest.raises(Illegal):
        game.apply(action)
    assert snapshot(game) == before


def test_s08_a_pass_is_final_for_this_auction():
    game = new_game(3)
    act(game, 0, "bid", 1)
    act(game, 1, "pass")
    act(game, 2, "bid", 2)
    assert game.to_act() == [0]  # seat 1 is skipped
    act(game, 0, "bid", 3)
    assert game.to_act() == [2]


def test_s08_early_pass_pays_2_at_once_but_not_after_a_bid():
    game = new_game(4, first=0)
    act(game, 0, "bid", 1)
    events = act(game, 1, "pass")
    assert events == [{"type": "pass", "seat": 1, "bonus": 2, "deferred": False}]
    assert game.chips[1] == 12
    act(game, 2, "bid", 2)
    act(game, 3, "bid", 3)
    events = act(game, 0, "pass")  # seat 0 bid before: no bonus
    assert events[0] == {"type": "pass", "seat": 0, "bonus": 0, "deferred": False}
    assert game.chips[0] == 10
    events = act(game, 2, "pass")  # no bonus; seat 3 wins at 3 and pays each other seat 1
    assert events[0]["bonus"] == 0 and events[1]["winner"] == 3
    assert game.chips == [11, 13, 11, 7]


def test_s08_the_start_players_early_pass_is_paid_when_another_wins():
    game = new_game(3, first=1)
    events = act(game, 1, "pass")
    assert events == [{"type": "pass", "seat": 1, "bonus": 0, "deferred": True}]
    assert game.chips[1] == 10 and game.view(None)["start_bonus_due"]
    act(game, 2, "bid", 3)
    events = act(game, 0, "pass")
    assert [e["type"] for e in events] == ["pass", "sold", "bonus", "auction"]
    assert events[2] == {"type": "bonus", "seat": 1, "amount": 2}
    # seat 1: 10 + 2 (bonus) + 1 (3 // 2, nobody holds a 3); seat 0: 10 + 2 + 1
    assert game.chips == [13, 13, 7]


def test_s08_no_start_player_bonus_when_they_take_the_lot_free():
    game = new_game(3, first=1)
    act(game, 1, "pass")
    act(game, 2, "pass")
    events = act(game, 0, "pass")
    assert [e["type"] for e in events] == ["pass", "free", "auction"]
    assert game.chips == [12, 10, 12]


def test_s09_the_high_bidder_wins_when_everyone_else_has_passed():
    game = new_game(4, "yellow.7", first=3)
    act(game, 3, "pass")
    act(game, 0, "pass")
    act(game, 1, "pass")
    events = act(game, 2, "bid", 1)  # the last one in: the bid wins at once
    assert events[1]["type"] == "sold" and events[1]["winner"] == 2 and events[1]["price"] == 1
    assert game.view(None)["seats"][2]["owned"] == ["yellow.7"]
    game = new_game(4, first=0)
    act(game, 0, "bid", 2)
    act(game, 1, "bid", 3)
    act(game, 2, "pass")
    act(game, 3, "pass")
    events = act(game, 0, "pass")
    assert events[1]["winner"] == 1 and events[1]["price"] == 3


def test_s10_nobody_bids_the_start_player_takes_the_lot_free():
    game = new_game(4, "brown.2", first=2)
    for seat in (2, 3, 0):
        act(game, seat, "pass")
    events = act(game, 1, "pass")
    assert events[1] == {"type": "free", "seat": 2, "cards": ["brown.2"]}
    assert game.view(None)["seats"][2]["owned"] == ["brown.2"]
    assert game.chips == [12, 12, 10, 12]  # W = 0: nothing paid
