"""The end and the scoring (ARTSOCIETY.md A22–A28), on hand-built walls."""

import pytest
from artsociety_helpers import act, fill, finish_turn, hang, new_game, painting, start_all, to_place

from modernart.engine.artsociety.bots import HeuristicBot
from modernart.engine.artsociety.rules import GENRES, PRESETS
from modernart.engine.artsociety.state import ArtSociety
from modernart.engine.artsociety.wall import multipliers


def prestige(*values):
    return dict(zip(GENRES, values, strict=True))


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ((9, 6, 4, 3), (5, 4, 3, 2)),
        ((9, 9, 4, 3), (5, 5, 3, 2)),  # tied genres share the better rank; the next is skipped
        ((3, 9, 3, 3), (4, 5, 4, 4)),
        ((0, 0, 0, 0), (5, 5, 5, 5)),
    ],
)
def test_a23_multipliers_by_prestige_rank(values, expected):
    table = PRESETS["house"].multipliers
    assert multipliers(prestige(*values), table) == dict(zip(GENRES, expected, strict=True))


def test_a23_worked_example_portrait_and_landscape_tied_first_city_3_still_life_2():
    # Prestige portrait 9, landscape 9, city 4, still life 0 (GENRES order: P, L, S, C).
    game = bare()
    game.prestige = prestige(9, 9, 0, 4)
    assert game.multipliers() == {"portrait": 5, "landscape": 5, "city": 3, "still_life": 2}
    assert multipliers(game.prestige, PRESETS["house_r1"].multipliers) == {
        "portrait": 5,
        "landscape": 5,
        "city": 2,
        "still_life": 1,
    }  # revision 1: ×5, ×3, ×2, ×1


def bare(n=2, preset=None, **variant):
    """A game whose walls are built by hand: the starts are not hung."""
    game = ArtSociety(["Ann", "Bo", "Cy", "Dee"][:n], preset or variant or None, seed=1)
    game.phase = "prepare"
    return game


def test_a24_worked_example_three_landscapes_with_landscape_first_score_15():
    game = bare()
    game.prestige = prestige(3, 9, 4, 0)
    for cell in ("A1", "D1", "G1"):  # apart, and rows 1–2: off the eyeline
        hang(game, 0, painting(game, 2, 2, "landscape"), cell)
    part = game.scores()[0]
    assert part["paintings"]["landscape"] == {"count": 3, "multiplier": 5, "points": 15}
    assert part["faux_pas"] == 0 and part["eyeline"] == 0


def test_a24_worked_example_two_touching_portraits_score_0_a_third_apart_scores():
    game = bare()
    game.prestige = prestige(9, 6, 4, 3)
    hang(game, 0, painting(game, 2, 2, "portrait"), "A1")
    hang(game, 0, painting(game, 2, 2, "portrait"), "C1")  # shares the edge B–C
    hang(game, 0, painting(game, 2, 2, "portrait"), "H1")
    hang(game, 0, painting(game, 2, 2, "city"), "A3")  # another genre touching: no harm
    part = game.scores()[0]
    assert part["paintings"]["portrait"] == {"count": 1, "multiplier": 5, "points": 5}
    assert part["paintings"]["city"]["points"] == 2  # fourth: ×2
    assert part["faux_pas"] == 2


def test_a24_faux_pas_needs_an_edge_not_a_corner_and_size_does_not_matter():
    game = bare()
    game.prestige = prestige(0, 0, 0, 9)
    hang(game, 0, painting(game, 2, 2, "city"), "A1")
    hang(game, 0, painting(game, 5, 5, "city"), "C3")  # meets A1–B2 only at the corner
    part = game.scores()[0]
    assert part["paintings"]["city"] == {"count": 2, "multiplier": 5, "points": 10}
    assert part["faux_pas"] == 0


def test_a24_a25_worked_example_two_landscapes_first_one_on_the_eyeline_score_13():
    game = bare()
    game.prestige = prestige(3, 9, 4, 0)
    hang(game, 0, painting(game, 2, 2, "landscape"), "A4")  # rows 4–5: touches row 5
    hang(game, 0, painting(game, 2, 2, "landscape"), "A8")  # rows 8–9
    part = game.scores()[0]
    assert part["paintings"]["landscape"]["points"] + part["eyeline"] == 2 * 5 + 3


def test_a25_eyeline_a_first_ranked_scoring_painting_touching_rows_5_6_scores_3_more():
    game = bare()
    game.prestige = prestige(9, 9, 4, 0)  # portrait and landscape share the first rank
    hang(game, 0, painting(game, 2, 2, "portrait"), "A4")  # rows 4–5: partial cover counts
    hang(game, 0, painting(game, 5, 5, "landscape"), "D6")  # rows 6–10: any size, +3
    hang(game, 0, painting(game, 2, 2, "still_life"), "I5")  # not first: no eyeline
    hang(game, 0, painting(game, 2, 2, "landscape"), "A8")  # off the eyeline
    part = game.scores()[0]
    assert part["eyeline"] == 3 + 3
    assert part["paintings"]["still_life"]["points"] == 3
    # A faux pas scores nothing, in the eyeline too.
    hang(game, 0, painting(game, 2, 2, "portrait"), "A6")  # touches A4–B5
    assert game.scores()[0]["eyeline"] == 3


def test_a25_revision_1_scored_the_multiplier_a_second_time():
    game = bare(preset="house_r1")
    game.prestige = prestige(9, 9, 4, 0)
    hang(game, 0, painting(game, 2, 2, "portrait"), "A4")
    hang(game, 0, painting(game, 2, 2, "landscape"), "D6")
    hang(game, 0, painting(game, 2, 2, "still_life"), "G5")
    assert game.scores()[0]["eyeline"] == 5 + 5


def test_a27_worked_example_three_empty_cells_two_corners_one_excess_minus_6():
    game = bare()
    fill(game, 0, {"A1", "J10", "E5"})
    game.excess[0] = [painting(game, 3, 3, "city")]
    part = game.scores()[0]
    assert part["excess"] + part["empty"] + part["corners"] + part["full"] == -4 - 2
    assert (part["corners"], part["empty"], part["excess"]) == (-4, 0, -2)


def test_a26_a27_decor_shields_penalties_and_the_full_wall_bonus():
    game = bare()
    game.prestige = prestige(0, 0, 0, 0)
    hang(game, 0, "d3", "A1")  # A1–C1: one corner covered
    hang(game, 0, "d2", "A2", turned=True)  # A2–A3
    game.assistants[0] = "d3"  # the assistant's decor scores 0
    game.assistants[1] = painting(game, 2, 2, "city")  # its painting too
    game.excess[0] = [painting(game, 3, 3, "city")]
    part = game.scores()[0]
    assert part["shields"] == 5
    assert part["excess"] == -2 and part["corners"] == -3 * 2 and part["full"] == 0
    assert part["empty"] == 0  # other empty cells cost nothing
    assert part["total"] == 5 - 2 - 6
    assert game.scores()[1]["total"] == -8  # four empty corners
    fill(game, 1, set())
    part = game.scores()[1]
    assert part["corners"] == 0 and part["full"] == 5 and part["total"] == 100 + 5


def test_a27_revision_1_cost_3_per_excess_and_1_per_empty_cell_of_the_whole_wall():
    game = bare(preset="house_r1")
    hang(game, 0, "d3", "A1")
    game.excess[0] = [painting(game, 3, 3, "city")]
    part = game.scores()[0]
    assert (part["excess"], part["empty"], part["corners"]) == (-3, -97, 0)
    assert part["total"] == 3 - 3 - 97


def test_a23_a27_house_numbers_are_settings():
    game = bare(
        multipliers=[7, 3, 2, 1],
        eyeline_bonus=2,
        eyeline_points=1,
        empty_penalty=2,
        corner_penalty=5,
        full_bonus=9,
    )
    game.prestige = prestige(9, 0, 0, 0)
    hang(game, 0, painting(game, 2, 2, "portrait"), "A5")
    part = game.scores()[0]
    assert part["paintings"]["portrait"]["points"] == 7 and part["eyeline"] == 14 + 1
    assert part["empty"] == -2 * 96 and part["corners"] == -5 * 4


def test_a28_most_points_then_fewer_excess_then_more_shields_then_shared():
    game = bare(3)
    for seat in range(3):
        hang(game, seat, "d1", "B1")
    hang(game, 1, "d1", "C1")
    hang(game, 1, "d1", "D1")  # +2 (shields) ...
    game.excess[1] = [painting(game, 2, 2, "city")]  # ... −2: level with the others
    events = []
    game._finish(events)
    assert events[-1]["points"] == [1 - 8, 1 - 8, 1 - 8]
    assert game.winners == [0, 2]  # seat 1 has an excess painting; 0 and 2 share
    game = bare(2, multipliers=[5, 3, 2, 0])
    game.prestige = prestige(3, 2, 1, 0)  # city is last: ×0
    hang(game, 0, painting(game, 2, 2, "city"), "A1")  # 0 points, 3 empty corners
    hang(game, 0, painting(game, 2, 2, "still_life"), "C1")  # ×2
    hang(game, 1, "d1", "A1")
    hang(game, 1, "d1", "B1")  # 2 shields, 3 empty corners
    game._finish([])
    assert [s["total"] for s in game.scores()] == [2 - 6, 2 - 6]
    assert game.winners == [1]  # more shields
    game = bare(2)
    hang(game, 0, "d2", "A1")
    hang(game, 1, "d1", "A1")
    hang(game, 1, "d1", "B1")
    game._finish([])
    assert game.winners == [0, 1]  # level on everything: a shared win


def test_a22_two_excess_paintings_end_the_game_at_the_rounds_end():
    game = new_game(2)
    start_all(game, "F5")
    game.excess[0] = ["5x5.3"]
    game.piles["5x5"].remove("5x5.3")
    code = painting(game, 3, 3, "city")
    to_place(game, 0, code)
    fill(game, 0, {"A1", "B1"})
    act(game, 0, "excess")
    finish_turn(game, 0)
    assert not game.finished and game.to_act() == [1]
    act(game, 1, "pick", painting=game.lot[0])
    bot = HeuristicBot(0)
    while game.picker == 1:
        game.apply({**bot.choose(game.view(1)), "seat": 1})
    assert game.finished and game.round == 1 and len(game.excess[0]) == 2


def test_a22_the_game_ends_when_every_bid_card_is_played():
    """On a 26 × 26 wall nobody fills it or runs out of room: round 20 is the last."""
    game = ArtSociety(["Ann", "Bo"], {"cols": 26, "rows": 26}, seed=5)
    bots = [HeuristicBot(1), HeuristicBot(2)]
    while not game.finished:
        seat = game.to_act()[0]
        game.apply({**bots[seat].choose(game.view(seat)), "seat": seat})
    assert game.round == 20 and game.hands == [[], []]
    assert not any(game.excess) and not any(w.full for w in game.walls)


def test_a22_the_game_ends_when_no_painting_is_left_and_a9_a_short_lot_takes_the_rest():
    game = ArtSociety(["Ann", "Bo"], {"shapes": [[2, 2, 4]]}, seed=2)
    start_all(game, "F5")
    assert game.legal(game.auctioneer)["shapes"]["count"] == 3
    bots = [HeuristicBot(1), HeuristicBot(2)]
    while not game.finished:
        if game.phase == "prepare" and game.round == 2:
            assert game.legal(game.auctioneer)["shapes"] == {"count": 1, "piles": {"2x2": 1}}
        seat = game.to_act()[0]
        game.apply({**bots[seat].choose(game.view(seat)), "seat": seat})
    assert game.round == 2 and not game.piles["2x2"]
