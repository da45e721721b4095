"""Art Society components, variant and setup (ARTSOCIETY.md A1–A8)."""

from collections import Counter
from dataclasses import replace

import pytest
from artsociety_helpers import NAMES, act, assert_refused, fixed_deck, new_game

from modernart.engine.artsociety.rules import (
    DEFAULT_SHAPES,
    FRAMES,
    GENRES,
    REVISION_2_KEYS,
    VariantError,
    catalogue,
    cell_index,
    cell_name,
    parse_variant,
)
from modernart.engine.artsociety.state import ArtSociety, SetupError, check_deck
from modernart.engine.errors import Illegal, NotYourTurn


def test_a01_a03_the_112_paintings_with_values_and_evenly_spread_genres_and_frames():
    cat = catalogue(DEFAULT_SHAPES)
    auction = [p for c, p in cat.items() if not c.startswith("start.")]
    assert len(auction) == 112
    assert all(p.value == p.w + p.h - 1 for p in cat.values())
    assert {p.value for p in auction} == set(range(3, 10))
    assert cat["2x2.0"].value == 3 and cat["5x5.0"].value == 9
    shape_counts = Counter((p.w, p.h) for p in auction)
    assert shape_counts == {(w, h): n for w, h, n in DEFAULT_SHAPES}
    # The j-th tile of the k-th shape: genre j mod 4, frame (j//4 + j mod 4 + k) mod 4.
    assert cat["3x2.5"].genre == GENRES[1] and cat["3x2.5"].frame == FRAMES[(1 + 1 + 1) % 4]
    for w, h, n in DEFAULT_SHAPES:
        tiles = [p for p in auction if (p.w, p.h) == (w, h)]
        assert Counter(p.genre for p in tiles) == dict.fromkeys(GENRES, n // 4)
        assert Counter(p.frame for p in tiles) == dict.fromkeys(FRAMES, n // 4)
    starts = [cat[f"start.{g}"] for g in GENRES]
    assert [(p.w, p.h) for p in starts] == [(2, 3)] * 4
    assert [p.frame for p in starts] == list(FRAMES)


def test_a02_cells_are_named_by_column_letter_and_row_number_row_1_on_top():
    assert cell_name(0, 10) == "A1" and cell_name(99, 10) == "J10" and cell_name(44, 10) == "E5"
    assert cell_index("F6", 10, 10) == 55
    for bad in ("K1", "A11", "A0", "a1", "", "A01", 5, None):
        assert cell_index(bad, 10, 10) is None


def test_a04_a05_decor_pool_and_bid_cards_at_the_start():
    game = new_game(3)
    view = game.view(0)
    assert view["decor"] == [48, 36, 24]
    assert view["hand"] == list(range(1, 21))
    assert [s["cards"] for s in view["seats"]] == [20, 20, 20]


def test_house_variant_defaults_presets_and_overrides():
    house = parse_variant(None)
    assert house == parse_variant("house")
    assert house.to_dict()["multipliers"] == [5, 4, 3, 2]  # revision 2 (A23)
    assert house.stars == ("E5", "F6") and house.eyeline == (5, 6)
    assert parse_variant("exchange_any").exchange == "any"
    assert parse_variant("exchange_any").multipliers == (5, 4, 3, 2)
    assert parse_variant("house_r1").to_dict()["multipliers"] == [5, 3, 2, 1]
    custom = parse_variant({"multipliers": [6, 4, 2, 0], "full_bonus": 7, "cols": 12})
    assert custom.multipliers == (6, 4, 2, 0) and custom.full_bonus == 7 and custom.cols == 12
    assert parse_variant(custom.to_dict()) == custom  # a record's variant reads back
    for bad in (
        "nope",
        {"colour": 1},
        {"multipliers": [5, 3]},
        {"stars": ["Z9"]},
        {"exchange": "some"},
        {"frame_bonus": "exactly"},
        {"corner_penalty": -1},
        {"cols": True},
        {"shapes": [[2, 2, 4], [2, 2, 4]]},
        {"shapes": [[11, 2, 4]]},
        3,
    ):
        with pytest.raises(VariantError):
            parse_variant(bad)


def test_a_variant_parsed_again_is_read_from_what_it_holds_not_which_object_it_is():
    """Parsed variants are kept by their content (every replay of a record parses its
    variant): an equal mapping gets the same house, a changed one its own, a bad one an
    error each time."""
    written = {"multipliers": [6, 4, 2, 0], "cols": 12}
    first = parse_variant(written)
    assert parse_variant({"multipliers": [6, 4, 2, 0], "cols": 12}) is first
    written["cols"] = 11  # the same dict, changed: parsed anew
    assert parse_variant(written).cols == 11 and first.cols == 12
    for _ in range(2):
        with pytest.raises(VariantError):
            parse_variant({"cols": True})
    assert parse_variant({"cols": 10}).cols == 10
    with pytest.raises(VariantError):  # 10 as text is no number, whatever it reads like
        parse_variant({"cols": "10"})


def test_a06_prestige_zero_and_each_shape_its_own_shuffled_pile():
    game = ArtSociety(NAMES[:4], seed=11)
    assert game.prestige == dict.fromkeys(GENRES, 0)
    piles = game.deck["piles"]
    assert set(piles) == {f"{w}x{h}" for w, h, _ in DEFAULT_SHAPES}
    assert all(code.startswith(name + ".") for name, pile in piles.items() for code in pile)
    assert piles != fixed_deck(4)["piles"]  # shuffled
    assert ArtSociety(NAMES[:4], seed=11).deck == game.deck  # by the seed alone


def test_a07_the_starting_painting_must_cover_a_star_and_lie_on_the_wall():
    game = new_game(2)
    assert game.phase == "setup" and game.to_act() == [0, 1]
    cells = game.legal(0)["place"][0]["cells"]
    assert "E4" in cells and "D3" in cells and "C3" not in cells and "E5" in cells and "F6" in cells
    assert_refused(
        game, {"type": "place", "seat": 0, "tile": "start", "cell": "A1"}, Illegal, "star"
    )
    assert_refused(
        game, {"type": "place", "seat": 0, "tile": "start", "cell": "J9"}, Illegal, "leave"
    )
    assert_refused(
        game,
        {"type": "place", "seat": 0, "tile": "start", "cell": "E4", "turned": True},
        Illegal,
        "rotated",
    )
    assert_refused(game, {"type": "shapes", "seat": 0, "shapes": ["2x2"] * 3}, Illegal, "A9")
    act(game, 1, "place", tile="start", cell="F6")
    assert game.to_act() == [0]
    assert_refused(game, {"type": "place", "seat": 1, "tile": "start", "cell": "E4"}, NotYourTurn)
    act(game, 0, "place", tile="start", cell="D5")
    assert game.phase == "prepare"
    assert [t.code for t in game.walls[0].tiles] == ["start.portrait"]


def test_a08_the_lowest_white_card_is_the_first_auctioneer():
    game = new_game(3, white=[4, 2, 3])
    assert game.first_auctioneer == 1
    for seat in range(3):
        act(game, seat, "place", tile="start", cell="E4")
    assert game.to_act() == [1] and "shapes" in game.legal(1)
    assert game.stacks == [[4], [2], [3]]  # the white card is the bottom of the stack
    # Asked for a first auctioneer, a fresh deal gives that seat the lowest card.
    assert ArtSociety(NAMES[:4], seed=3, first=2).first_auctioneer == 2
    with pytest.raises(SetupError):
        ArtSociety(NAMES[:3], deck=fixed_deck(3, white=[4, 2, 3]), first=0)


def test_art_society_is_for_2_to_4_players_and_checks_its_deck():
    with pytest.raises(SetupError):
        ArtSociety(NAMES[:1])
    with pytest.raises(SetupError):
        ArtSociety([*NAMES, "Eve"])
    deck = fixed_deck(2)
    assert check_deck(deck)
    for broken in (
        {**deck, "white": [1, 1]},
        {**deck, "starts": ["portrait", "ghost"]},
        {
            **deck,
            "piles": {**deck["piles"], "2x2": deck["piles"]["2x2"][1:] + ["2x2.0"] * 1 + ["2x2.0"]},
        },
        {**deck, "extra": 1},
        {**deck, "piles": {**deck["piles"], "2x2": [*deck["piles"]["2x2"][1:], 7]}},
        {**deck, "piles": {**deck["piles"], "2x2": list(range(len(deck["piles"]["2x2"])))}},
        {**deck, "piles": {**deck["piles"], "2x2": [[c] for c in deck["piles"]["2x2"]]}},
        [1, 2],
    ):
        assert not check_deck(broken)
    with pytest.raises(SetupError):  # a 3-seat deck for 2 players
        ArtSociety(NAMES[:2], deck=fixed_deck(3))
    with pytest.raises(SetupError):  # piles that do not match the variant's shapes
        ArtSociety(NAMES[:2], {"shapes": [[2, 2, 16]]}, deck=deck)


def test_revision_2_presets_and_an_object_written_before_it_reads_as_revision_1():
    r1, r2 = parse_variant("house_r1"), parse_variant("house")
    assert (r2.frame_bonus, r2.eyeline_bonus, r2.eyeline_points) == ("exact", 0, 3)  # A18, A25
    assert (r2.excess_penalty, r2.empty_penalty, r2.corner_penalty) == (2, 0, 2)  # A27
    assert (r1.frame_bonus, r1.eyeline_bonus, r1.eyeline_points) == ("at_most", 1, 0)
    assert (r1.excess_penalty, r1.empty_penalty, r1.corner_penalty) == (3, 1, 0)
    assert r1.full_bonus == r2.full_bonus == 5
    # What the server and record_of wrote before revision 2: every key but the new ones.
    old = {k: v for k, v in r1.to_dict().items() if k not in REVISION_2_KEYS}
    assert parse_variant(old) == r1
    assert parse_variant({**old, "exchange": "any"}) == replace(r1, exchange="any")
    assert parse_variant({**old, "multipliers": [6, 3, 2, 1]}).frame_bonus == "at_most"
    # Any other object takes the missing keys from `house` (revision 2).
    assert parse_variant({"cols": 12}) == replace(r2, cols=12)
    assert parse_variant({k: v for k, v in old.items() if k != "stars"}) == replace(
        r2,
        **{k: getattr(r1, k) for k in ("multipliers", "eyeline_bonus", "excess_penalty")},
        empty_penalty=1,
    )
    assert parse_variant(r1.to_dict()) == r1 and parse_variant(r2.to_dict()) == r2
