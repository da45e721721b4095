"""R6 dealing and R7 the first auctioneer of each round."""

import pytest
from engine_helpers import NAMES, cyclic, new_game, one, run_plays, scripted_game

from modernart.engine.modernart import FULL_DECK, Game, SetupError


@pytest.mark.parametrize(("n", "k"), [(3, 10), (4, 9), (5, 8)])
def test_r06_round_one_seat_0_takes_the_first_k_cards_then_seat_1(n, k):
    deck = list(reversed(FULL_DECK))
    g = Game(list(NAMES[:n]), deck=deck, first_auctioneer=0)
    for seat in range(n):
        assert sorted(g.view(seat)["hand"]) == sorted(deck[seat * k : (seat + 1) * k])
        assert g.view(seat)["seats"][seat]["hand_size"] == k
    assert g.view(None)["deck_left"] == 70 - n * k
    assert g.cards_in_play() == 70


def test_r06_r29_virtual_player_is_dealt_as_a_fourth_hand_last():
    deck = list(FULL_DECK)
    g = Game(NAMES[:3], "classic_3p_virtual", deck, first_auctioneer=0)
    for seat in range(3):
        assert sorted(g.view(seat)["hand"]) == sorted(deck[seat * 9 : (seat + 1) * 9])
    assert g.view(0)["virtual"] == {"hand_size": 9, "turned": []}
    assert g.view(0)["deck_left"] == 70 - 36


@pytest.mark.parametrize(("n", "k2"), [(3, 6), (4, 4), (5, 3)])
def test_r06_round_two_deals_k_more_from_the_deck_and_hands_carry_over(n, k2):
    # Five krypto cards end round 1 (R18); everything else stays in hand.
    turns = ["krypto.open", "krypto.once_around", "krypto.sealed", "krypto.double", "krypto.open"]
    plays = cyclic(n, 0, [turns])
    g = scripted_game(n, plays, avoid=["krypto"])
    k1 = len(g.view(0)["hand"])
    left = g.view(None)["deck_left"]
    hands_before = [list(g.view(s)["hand"]) for s in range(n)]
    played_by = {s: [t for _, seat, t in plays if seat == s] for s in range(n)}
    next_cards = list(g.deck[70 - left : 70 - left + n * k2])
    run_plays(g, plays)
    assert g.round == 2
    for s in range(n):
        kept = list(hands_before[s])
        for card in played_by[s]:
            kept.remove(card)
        dealt = next_cards[s * k2 : (s + 1) * k2]
        assert sorted(g.view(s)["hand"]) == sorted(kept + dealt)
    assert g.view(None)["deck_left"] == left - n * k2
    assert k1 == {3: 10, 4: 9, 5: 8}[n]
    assert g.cards_in_play() == 70


def test_r07_first_auctioneer_is_the_given_seat():
    g = new_game([[], [], [], []], first=2)
    assert g.auctioneer == 2 and g.to_act() == [2]
    assert g.legal(2)["play"] and g.legal(0) == {} and g.legal(1) == {}


def test_r07_default_first_auctioneer_comes_from_the_seed():
    seats = {Game(NAMES[:4], seed=s).first_auctioneer for s in range(40)}
    assert seats == {0, 1, 2, 3}
    assert Game(NAMES[:4], seed=7).first_auctioneer == Game(NAMES[:4], seed=7).first_auctioneer


@pytest.mark.parametrize("first", [-1, 4, True, 1.0, "0"])
def test_r07_bad_first_auctioneer_is_refused(first):
    with pytest.raises(SetupError):
        Game(NAMES[:4], deck=list(FULL_DECK), first_auctioneer=first)


@pytest.mark.parametrize("ender", [0, 1, 2, 3])
def test_r07_next_round_starts_left_of_whoever_played_the_ending_card(ender):
    # Four cards of krypto, then seat `ender` plays the fifth.
    first = (ender - 4) % 4
    turns = ["krypto.open", "krypto.once_around", "krypto.sealed", "krypto.double", "krypto.open"]
    plays = cyclic(4, first, [turns])
    assert plays[-1][1] == ender
    g = scripted_game(4, plays, first=first, avoid=["krypto"])
    events = run_plays(g, plays)
    start = one(events, "round_start")
    assert start == {"type": "round_start", "round": 2, "auctioneer": (ender + 1) % 4}
    assert g.auctioneer == (ender + 1) % 4 and g.round == 2 and g.phase == "play"
