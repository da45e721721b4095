"""R1–R5: artists, auction types, the deck, starting money, player counts."""

from collections import Counter

import pytest

from modernart.engine.modernart import (
    ARTIST_NAMES,
    ARTISTS,
    AUCTION_TYPES,
    CARD_CODES,
    FULL_DECK,
    Game,
    SetupError,
)


def test_r01_artists_in_board_order():
    assert ARTISTS == ("lite_metal", "yoko", "christin_p", "karl_gitter", "krypto")
    assert ARTIST_NAMES["christin_p"] == "Christin P."
    assert set(ARTIST_NAMES) == set(ARTISTS)


def test_r02_auction_types():
    assert AUCTION_TYPES == ("open", "once_around", "sealed", "fixed_price", "double")


def test_r03_deck_has_70_cards_with_the_table_counts():
    table = {
        "lite_metal": (3, 3, 2, 2, 2),
        "yoko": (3, 2, 3, 3, 2),
        "christin_p": (3, 3, 3, 3, 2),
        "karl_gitter": (3, 3, 3, 3, 3),
        "krypto": (4, 3, 3, 3, 3),
    }
    counts = Counter(FULL_DECK)
    assert len(FULL_DECK) == 70
    for artist, copies in table.items():
        for kind, n in zip(AUCTION_TYPES, copies, strict=True):
            assert counts[f"{artist}.{kind}"] == n
    assert set(CARD_CODES) == set(counts)
    assert "krypto.double" in CARD_CODES


@pytest.mark.parametrize("n", [3, 4, 5])
def test_r04_r05_each_of_3_to_5_players_starts_with_100(n):
    g = Game([f"p{i}" for i in range(n)], seed=1)
    assert g.money == [100] * n
    assert g.n == n
    for seat in range(n):
        assert g.view(seat)["money"] == 100


@pytest.mark.parametrize("n", [0, 1, 2, 6])
def test_r05_other_player_counts_are_refused(n):
    with pytest.raises(SetupError):
        Game([f"p{i}" for i in range(n)], seed=1)


def test_r03_a_seeded_deck_is_a_permutation_and_repeatable():
    a = Game(["a", "b", "c", "d"], seed=42)
    b = Game(["a", "b", "c", "d"], seed=42)
    assert sorted(a.deck) == sorted(FULL_DECK)
    assert a.deck == b.deck and a.first_auctioneer == b.first_auctioneer
    assert Game(["a", "b", "c", "d"], seed=43).deck != a.deck


@pytest.mark.parametrize(
    "deck",
    [
        list(FULL_DECK[:-1]),
        [*FULL_DECK[:-1], "krypto.open"],
        [*FULL_DECK[:-1], "picasso.open"],
        "not a deck",
    ],
)
def test_r03_a_deck_that_is_not_a_permutation_is_refused(deck):
    with pytest.raises(SetupError):
        Game(["a", "b", "c"], deck=deck, first_auctioneer=0)
