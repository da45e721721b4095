"""Refused actions: the right error type and code, a message, and nothing changed."""

import pytest
from engine_helpers import act, assert_refused, new_game

from modernart.engine import Illegal, InsufficientFunds, NotYourTurn, RuleError, TooLow


def test_error_classes_carry_the_protocol_codes():
    assert NotYourTurn.code == "not_your_turn"
    assert TooLow.code == "too_low"
    assert InsufficientFunds.code == "insufficient_funds"
    assert Illegal.code == "illegal"
    assert all(issubclass(c, RuleError) for c in (NotYourTurn, TooLow, InsufficientFunds, Illegal))


@pytest.fixture
def game():
    hands = [["krypto.open", "yoko.sealed"], ["lite_metal.once_around"], [], []]
    return new_game(hands, avoid=["lite_metal"])


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"type": "play", "seat": 1, "card": "lite_metal.once_around"}, "not_your_turn"),
        ({"type": "play", "seat": 0, "card": "lite_metal.once_around"}, "illegal"),  # not held
        ({"type": "play", "seat": 0, "card": "krypto.watercolour"}, "illegal"),
        ({"type": "play", "seat": 0, "card": None}, "illegal"),
        ({"type": "play", "seat": 0}, "illegal"),
        ({"type": "bid", "seat": 1, "amount": 5}, "illegal"),
        ({"type": "pass", "seat": 1}, "illegal"),
        ({"type": "sealed", "seat": 1, "amount": 5}, "illegal"),
        ({"type": "price", "seat": 0, "amount": 5}, "illegal"),
        ({"type": "buy", "seat": 1}, "illegal"),
        ({"type": "add", "seat": 0, "card": "krypto.open"}, "illegal"),
        ({"type": "decline", "seat": 0}, "illegal"),
        ({"type": "close"}, "illegal"),
        ({"type": "fold", "seat": 0}, "illegal"),
        ({"type": ["play"], "seat": 0}, "illegal"),
        ({"type": {"a": 1}, "seat": 0}, "illegal"),
        ({"seat": 0}, "illegal"),
        ({"type": "play", "seat": 4, "card": "krypto.open"}, "illegal"),
        ({"type": "play", "seat": -1, "card": "krypto.open"}, "illegal"),
        ({"type": "play", "seat": True, "card": "krypto.open"}, "illegal"),
        ({"type": "play", "seat": "0", "card": "krypto.open"}, "illegal"),
        ({"type": "play", "card": "krypto.open"}, "illegal"),
    ],
)
def test_refused_actions_in_the_play_phase_change_nothing(game, action, code):
    assert_refused(game, action, code)


@pytest.mark.parametrize("action", ["play", None, 3, ["play"]])
def test_an_action_that_is_not_a_map_is_illegal(game, action):
    assert_refused(game, action, "illegal")


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"type": "bid", "seat": 2, "amount": 4}, "too_low"),
        ({"type": "bid", "seat": 2, "amount": 101}, "insufficient_funds"),
        ({"type": "bid", "seat": 2, "amount": 5.5}, "illegal"),
        ({"type": "bid", "seat": 2, "amount": 6.0}, "illegal"),
        ({"type": "bid", "seat": 2, "amount": True}, "illegal"),
        ({"type": "bid", "seat": 2, "amount": "6"}, "illegal"),
        ({"type": "bid", "seat": 2}, "illegal"),
        ({"type": "pass", "seat": 1}, "illegal"),  # the high bidder
        ({"type": "sealed", "seat": 2, "amount": 6}, "illegal"),
        ({"type": "play", "seat": 0, "card": "yoko.sealed"}, "illegal"),
    ],
)
def test_refused_actions_in_an_open_auction_change_nothing(game, action, code):
    act(game, 0, "play", "krypto.open")
    act(game, 1, "bid", 4)
    assert_refused(game, action, code)
    # and the auction carries on normally afterwards
    act(game, 2, "bid", 6)
    assert game.view(0)["high"] == {"amount": 6, "seat": 2}


def test_error_messages_say_what_was_wrong(game):
    err = assert_refused(game, {"type": "play", "seat": 2, "card": "krypto.open"}, "not_your_turn")
    assert "Ann" in str(err)
    act(game, 0, "play", "krypto.open")
    err = assert_refused(game, {"type": "bid", "seat": 2, "amount": 101}, "insufficient_funds")
    assert "100" in str(err)
