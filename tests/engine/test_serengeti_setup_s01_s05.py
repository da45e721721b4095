"""Serengeti components and set-up (SERENGETI.md S1–S5)."""

from collections import Counter

import pytest
from serengeti_helpers import NAMES, deck_of, new_game, win_at

from modernart.engine.errors import SetupError
from modernart.engine.serengeti.cards import (
    DIGIT_OF,
    FULL_DECK,
    TRIBE_OF,
    TRIBES,
    is_card,
    is_deck,
    lot_size,
)
from modernart.engine.serengeti.game import SerengetiGame


def test_s01_thirty_cards_six_tribes_of_five_distinct_digits():
    assert len(FULL_DECK) == 30 and len(set(FULL_DECK)) == 30
    assert Counter(TRIBE_OF[c] for c in FULL_DECK) == dict.fromkeys(TRIBES, 5)
    assert len(TRIBES) == 6
    for tribe in TRIBES:
        digits = [DIGIT_OF[c] for c in FULL_DECK if TRIBE_OF[c] == tribe]
        assert len(set(digits)) == 5
    assert Counter(DIGIT_OF[c] for c in FULL_DECK) == dict.fromkeys(range(10), 3)
    assert "blue.8" in FULL_DECK and all(c == f"{TRIBE_OF[c]}.{DIGIT_OF[c]}" for c in FULL_DECK)


def test_s01_card_and_deck_checks():
    assert is_card("brown.7") and not is_card("brown.0") and not is_card(7)
    assert is_deck(list(reversed(FULL_DECK)))
    assert not is_deck(FULL_DECK[:-1]) and not is_deck([*FULL_DECK[:-1], FULL_DECK[0]])
    assert not is_deck("blue.0") and not is_deck(None) and not is_deck([1] * 30)


@pytest.mark.parametrize("n", [1, 2, 6])
def test_s02_three_to_five_players(n):
    with pytest.raises(SetupError):
        SerengetiGame([f"P{i}" for i in range(n)])


@pytest.mark.parametrize("n", [3, 4, 5])
def test_s03_everyone_starts_with_ten_chips(n):
    game = SerengetiGame(NAMES[:n], seed=1)
    assert game.chips == [10] * n
    assert game.view(0)["chips"] == 10


def test_s04_the_seed_shuffles_the_deck_and_chooses_the_start_player():
    a, b = SerengetiGame(NAMES[:4], seed=5), SerengetiGame(NAMES[:4], seed=5)
    assert a.deck == b.deck and a.first_auctioneer == b.first_auctioneer
    decks = {SerengetiGame(NAMES[:4], seed=s).deck for s in range(20)}
    firsts = {SerengetiGame(NAMES[:4], seed=s).first_auctioneer for s in range(40)}
    assert len(decks) == 20 and firsts == {0, 1, 2, 3}
    fixed = SerengetiGame(NAMES[:3], deck=deck_of(), first_auctioneer=2)
    assert fixed.deck == FULL_DECK and fixed.start == 2 and fixed.to_act() == [2]


@pytest.mark.parametrize(
    ("deck", "first"),
    [(FULL_DECK[:29], 0), ([*FULL_DECK[:29], "blue.1"], 0), (FULL_DECK, 4), (FULL_DECK, True)],
)
def test_s04_a_bad_deck_or_start_player_is_refused(deck, first):
    with pytest.raises(SetupError):
        SerengetiGame(NAMES[:4], deck=deck, first_auctioneer=first)


def test_s05_fifteen_auctions_turn_up_1_2_3_cards_from_the_top():
    assert [lot_size(k) for k in range(1, 16)] == [1, 2, 3] * 5
    game = new_game(3)
    lots = [game.view(None)["lot"]]
    for _ in range(14):
        win_at(game, game.start, 0)
        lots.append(game.view(None)["lot"])
    assert [len(lot) for lot in lots] == [1, 2, 3] * 5
    assert [c for lot in lots for c in lot] == list(FULL_DECK)  # top first, every card once
    assert game.view(None)["deck_left"] == 0 and game.view(None)["auction"] == 15


def test_s05_the_auction_event_shows_the_turned_cards():
    game = new_game(4, "green.6", "red.3", "blue.9", first=1)
    events = win_at(game, 1, 0)
    assert events[-1] == {"type": "auction", "number": 2, "start": 1, "cards": ["red.3", "blue.9"]}
