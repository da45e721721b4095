"""R28–R30 variants and presets."""

import pytest

from modernart.engine.modernart import (
    FULL_DECK,
    PRESETS,
    Game,
    Variant,
    VariantError,
    parse_variant,
)

CLASSIC = {"double_payment": "split", "virtual_player": False}
JAPANESE = {"double_payment": "second_takes_all", "virtual_player": False}
VIRTUAL = {"double_payment": "split", "virtual_player": True}


def test_r30_presets():
    assert PRESETS["classic"] == Variant("split", False)
    assert PRESETS["classic_3p_virtual"] == Variant("split", True)
    assert PRESETS["japanese"] == Variant("second_takes_all", False)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, {"double_payment": "split", "virtual_player": False}),
        ({}, {"double_payment": "split", "virtual_player": False}),
        (
            {"double_payment": "second_takes_all"},
            {"double_payment": "second_takes_all", "virtual_player": False},
        ),
        ({"virtual_player": True}, {"double_payment": "split", "virtual_player": True}),
        ("japanese", {"double_payment": "second_takes_all", "virtual_player": False}),
        ("classic_3p_virtual", {"double_payment": "split", "virtual_player": True}),
    ],
)
def test_r28_r29_variant_objects_and_presets_with_defaults(value, expected):
    assert parse_variant(value, 3).to_dict() == expected
    g = Game(["a", "b", "c"], value, list(FULL_DECK), first_auctioneer=0)
    assert g.view(0)["variant"] == expected


@pytest.mark.parametrize(
    "value",
    [
        "modern",
        {"double_payment": "half"},
        {"virtual_player": "yes"},
        {"virtual_player": 1},
        {"colour": "blue"},
        ["split"],
        3,
    ],
)
def test_r28_bad_variants_are_refused(value):
    with pytest.raises(VariantError):
        parse_variant(value, 3)
    with pytest.raises(ValueError):
        Game(["a", "b", "c"], value, seed=1)


@pytest.mark.parametrize("n", [4, 5])
@pytest.mark.parametrize("value", ["classic_3p_virtual", {"virtual_player": True}])
def test_r29_virtual_player_needs_exactly_3_players(n, value):
    with pytest.raises(VariantError):
        parse_variant(value, n)
    with pytest.raises(ValueError):
        Game([f"p{i}" for i in range(n)], value, seed=1)


def test_r29_without_the_variant_there_is_no_virtual_hand():
    g = Game(["a", "b", "c"], "classic", seed=3)
    assert g.view(0)["virtual"] is None
    assert g.view(0)["deck_left"] == 70 - 30
