"""The Art Society table says its room's scoring values (ARTSOCIETY.md A18, A25, A27):
revision 2's at a `house` game, revision 1's at a `house_r1` game — the start's hint, the
placement preview, the frame bonus decision, the excess key and the log's words."""

from __future__ import annotations

import pytest
from artsociety_keys import arrows
from artsociety_offline import NAMES, ArtSocietyOffline
from test_artsociety_newcomer import screen_lines
from test_artsociety_screens import cannot_hang, panel

from modernart.engine.artsociety.rules import PRESETS
from modernart.engine.artsociety.state import ArtSociety
from modernart.tui.artsociety import ArtSocietyTable
from modernart.tui.artsociety.narrate import narrate
from modernart.tui.eventlog import EventLog

REVISION_2 = {
    "start": "Each empty corner costs 2 points at the end; a full wall earns 5.",
    "preview": "G4: fits. Enter hangs it. Frame bonus: decor of exactly 1 shield. Eyeline: +3.",
    "decor": "Take decor 1.",
    "excess": "e: excess (−2)",
    "log": "could not hang it: excess (−2 at the end)",
}
REVISION_1 = {
    "start": "Each empty cell costs 1 point at the end: fill your wall.",
    "preview": "G4: fits. Enter hangs it. Frame bonus: decor up to 1 shield. Eyeline: +5.",
    "decor": "Take decor 1, n: none.",
    "excess": "e: excess (−3)",
    "log": "could not hang it: excess (−3 at the end)",
}
VARIANTS = [("house", REVISION_2), ("house_r1", REVISION_1)]


def picked_beside_its_frame(variant: str) -> ArtSociety:
    """Every start at E4 (E4–F6); seat 0 has picked a 2×2 of its start's frame, another
    genre: at G4 it touches the start (M = 1) and row 5 (every genre is first at 0)."""
    game = ArtSociety(NAMES, variant, seed=7)
    for seat in range(4):
        game.apply({"type": "place", "tile": "start", "cell": "E4", "seat": seat})
    start = game.paintings[game.walls[0].tiles[0].code]
    code = next(
        c
        for c in game.piles["2x2"]
        if game.paintings[c].frame == start.frame and game.paintings[c].genre != start.genre
    )
    game.piles["2x2"].remove(code)
    game.piles["2x2"].append(code)  # the top of its pile
    game.apply({"type": "shapes", "seat": game.auctioneer, "shapes": ["2x2"] + ["3x3"] * 4})
    for seat in range(4):
        game.apply({"type": "bid", "seat": seat, "card": 20 if seat == 0 else 1})
    game.apply({"type": "pick", "seat": 0, "painting": code})
    return game


@pytest.mark.parametrize(("variant", "words"), VARIANTS)
async def test_a27_the_starting_painting_says_what_an_empty_wall_costs(variant, words):
    app = ArtSocietyOffline(ArtSociety(NAMES, variant, seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert words["start"] in panel(app.table)


@pytest.mark.parametrize(("variant", "words"), VARIANTS)
async def test_a18_a25_the_preview_and_the_bonus_say_the_variants_values(variant, words):
    app = ArtSocietyOffline(picked_beside_its_frame(variant))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.table
        assert isinstance(table, ArtSocietyTable)
        await pilot.press(*arrows(table.cursor, (6, 3)))  # G4
        assert words["preview"] in " ".join(panel(table).split())
        await pilot.press("enter")
        assert app.sent[-1]["action"] == {"type": "place", "tile": "picked", "cell": "G4"}
        assert words["decor"] in panel(table)
        assert ("n None" in screen_lines(app)[-1]) == (variant == "house_r1")  # A18


@pytest.mark.parametrize(("variant", "words"), VARIANTS)
async def test_a27_the_excess_key_and_the_log_say_the_variants_penalty(variant, words):
    game, _, _ = cannot_hang(variant=variant)
    app = ArtSocietyOffline(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.table
        assert isinstance(table, ArtSocietyTable)
        assert words["excess"] in panel(table)
        await pilot.press("e")
        assert app.sent[-1]["action"] == {"type": "excess"}
        await pilot.pause()
        log = " ".join(strip.text.rstrip() for strip in table.query_one(EventLog).lines)
        assert "You " + words["log"] in log


def test_the_log_without_a_variant_says_the_house_presets_values():
    excess = {"type": "excess", "seat": 1, "code": "5x5.0"}
    assert narrate(excess, NAMES, 0).endswith(f"(−{PRESETS['house'].excess_penalty} at the end)")
    assert narrate(excess, NAMES, 0, PRESETS["house_r1"]).endswith("(−3 at the end)")
