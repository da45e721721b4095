"""Placing a picked painting on hand-built walls (ARTSOCIETY.md A13–A17)."""

from artsociety_helpers import (
    act,
    assert_refused,
    block,
    fill,
    hang,
    new_game,
    painting,
    start_all,
    to_place,
)

from modernart.engine.artsociety.rules import cell_name
from modernart.engine.artsociety.wall import Wall
from modernart.engine.errors import Illegal


def placing(w, h, genre="city", n=2, variant=None, frame=None):
    """Seat 0 has picked a w × h painting; walls hold only the starts at E4 (E4–F6)."""
    game = new_game(n, variant)
    start_all(game)
    code = painting(game, w, h, genre, frame)
    to_place(game, 0, code)
    return game, code


def naive_cells(game, seat, w, h):
    """A13 the slow way: every top-left cell where the tile is on the wall, covers no
    tile, and has a cell next to (not diagonal to) a covered cell."""
    cols, rows = game.house.cols, game.house.rows
    covered = {i for i, t in enumerate(game.walls[seat].grid) if t >= 0}
    out = []
    for y in range(rows - h + 1):
        for x in range(cols - w + 1):
            cells = {(x + dx) + (y + dy) * cols for dx in range(w) for dy in range(h)}
            if cells & covered:
                continue
            near = {
                (cx + ex) + (cy + ey) * cols
                for c in cells
                for cx, cy in [(c % cols, c // cols)]
                for ex, ey in ((1, 0), (-1, 0), (0, 1), (0, -1))
                if 0 <= cx + ex < cols and 0 <= cy + ey < rows
            }
            if near & covered:
                out.append(cell_name(x + y * cols, cols))
    return out


def test_a13_legal_cells_are_on_the_wall_free_and_share_an_edge():
    game, _code = placing(3, 2)
    hang(game, 0, "d2", "A9")
    hang(game, 0, "d1", "J1")
    option = game.legal(0)["place"][0]
    assert option["tile"] == "picked" and (option["w"], option["h"]) == (3, 2)
    assert option["cells"] == naive_cells(game, 0, 3, 2)
    assert "B4" in option["cells"] and "G4" in option["cells"] and "A7" in option["cells"]


def test_a13_outside_overlap_corner_only_and_rotation_are_refused():
    game, code = placing(3, 2)
    place = {"type": "place", "seat": 0, "tile": "picked"}
    assert_refused(game, {**place, "cell": "I4"}, Illegal, "leave the wall")
    assert_refused(game, {**place, "cell": "E10"}, Illegal, "leave the wall")
    assert_refused(game, {**place, "cell": "K1"}, Illegal, "not a cell")
    assert_refused(game, {**place, "cell": "D5"}, Illegal, "overlaps")
    assert_refused(game, {**place, "cell": "B2"}, Illegal, "no edge")  # B2–D3 meets E4 at a corner
    assert_refused(game, {**place, "cell": "A1"}, Illegal, "no edge")
    assert_refused(game, {**place, "cell": "G4", "turned": True}, Illegal, "rotated")
    assert_refused(game, {**place, "cell": "G4", "turned": "no"}, Illegal)
    assert_refused(game, {**place, "tile": "assistant", "cell": "G4"}, Illegal, "assistant")
    assert_refused(game, {**place, "tile": "wall", "cell": "G4"}, Illegal)
    events = act(game, 0, "place", tile="picked", cell="B4")  # B4–D5 touches E4–E5
    assert events[0] == {
        "type": "placed",
        "seat": 0,
        "tile": "picked",
        "code": code,
        "cell": "B4",
        "w": 3,
        "h": 2,
    }
    assert [t.to_json() for t in game.walls[0].tiles][-1] == {
        "tile": code,
        "cell": "B4",
        "w": 3,
        "h": 2,
    }


def test_a14_a_painting_that_can_be_hung_may_not_be_exchanged_or_kept_as_excess():
    game, _code = placing(2, 2)
    legal = game.legal(0)
    assert set(legal) == {"place", "assist"}
    assert_refused(game, {"type": "excess", "seat": 0}, Illegal, "A14")
    game.museum.append(painting(game, 2, 2, "city"))
    assert_refused(
        game,
        {"type": "exchange", "seat": 0, "painting": game.museum[0], "cell": "G4"},
        Illegal,
        "A14",
    )


def test_a14_a15_with_the_assistant_full_it_must_be_hung_unless_the_assistant_hangs_first():
    game, code = placing(2, 2)
    held = painting(game, 3, 3, "landscape")
    game.assistants[0] = held
    legal = game.legal(0)
    assert "assist" not in legal
    assert [o["tile"] for o in legal["place"]] == ["picked", "assistant"]
    assert_refused(game, {"type": "assist", "seat": 0}, Illegal, "already holds")
    # A15: hang the assistant's painting first; the emptied assistant may take the new one.
    act(game, 0, "place", tile="assistant", cell="G4")
    assert game.assistants[0] is None and game.walls[0].tiles[-1].code == held
    while "decor" in game.legal(0):  # the frame bonus of the assistant's painting, lost
        act(game, 0, "decor", size=game.legal(0)["decor"][0])
        act(game, 0, "discard")
    events = act(game, 0, "assist")
    assert events[0] == {"type": "assisted", "seat": 0, "code": code}
    assert game.assistants[0] == code and game.view(1)["seats"][0]["assistant"]["code"] == code
    # The assistant's new painting could be hung now: the turn waits for `done`.
    assert game.to_act() == [0] and "done" in game.legal(0)
    act(game, 0, "done")
    assert game.to_act() == [1]


def test_a15_the_assistants_tile_may_be_hung_after_the_new_one():
    game, _code = placing(2, 2)
    game.assistants[0] = "d3"
    act(game, 0, "place", tile="picked", cell="G4")
    finish_turn_legal = game.legal(0)
    if "decline" in finish_turn_legal:
        act(game, 0, "decline")
    options = game.legal(0)["place"]
    assert [(o["tile"], o["turned"], o["w"], o["h"]) for o in options] == [
        ("assistant", False, 3, 1),
        ("assistant", True, 1, 3),
    ]
    act(game, 0, "place", tile="assistant", cell="D4", turned=True)  # D4–D6
    assert game.assistants[0] is None and game.to_act() == [1]  # nothing left to do
    assert game.view(0)["seats"][0]["score"]["shields"] == 3


def only_hole(game, seat, cells):
    fill(game, seat, cells)


def test_a16_exchange_for_a_museum_painting_of_the_same_genre_hung_at_once():
    game, code = placing(3, 3, genre="city")
    only_hole(game, 0, block("A1", 2, 2))
    same = painting(game, 2, 2, "city")
    other = painting(game, 2, 2, "portrait")
    game.museum += [other, same]
    prestige = dict(game.prestige)
    legal = game.legal(0)
    assert set(legal) == {"assist", "exchange", "excess"}
    assert legal["exchange"] == [{"painting": same, "w": 2, "h": 2, "cells": ["A1"]}]
    assert_refused(
        game,
        {"type": "exchange", "seat": 0, "painting": other, "cell": "A1"},
        Illegal,
        "same genre",
    )
    assert_refused(
        game, {"type": "exchange", "seat": 0, "painting": "2x2.9", "cell": "A1"}, Illegal, "museum"
    )
    assert_refused(game, {"type": "exchange", "seat": 0, "painting": same, "cell": "B1"}, Illegal)
    events = act(game, 0, "exchange", painting=same, cell="A1")
    assert events[0] == {"type": "exchanged", "seat": 0, "given": code, "taken": same, "cell": "A1"}
    assert game.museum == [other, code] and game.prestige == prestige
    assert game.walls[0].full


def test_a16_variant_exchange_any_takes_any_genre():
    game, _code = placing(3, 3, genre="city", variant="exchange_any")
    only_hole(game, 0, block("A1", 2, 2))
    other = painting(game, 2, 2, "portrait")
    game.museum.append(other)
    assert game.legal(0)["exchange"][0]["painting"] == other
    act(game, 0, "exchange", painting=other, cell="A1")
    assert game.walls[0].tiles[-1].code == other


def test_a17_excess_takes_a_1_shield_decor_to_hang_assist_or_lose():
    game, code = placing(3, 3)
    only_hole(game, 0, block("A1", 2, 1))
    game.assistants[0] = painting(game, 2, 2, "portrait")
    legal = game.legal(0)
    assert set(legal) == {"excess"}  # no room, the assistant is full, no museum painting
    pool = game.decor[0]
    events = act(game, 0, "excess")
    assert events == [
        {"type": "excess", "seat": 0, "code": code},
        {"type": "decor", "seat": 0, "size": 1},
    ]
    assert game.excess[0] == [code] and game.decor[0] == pool - 1
    assert game.view(1)["seats"][0]["excess"] == 1
    assert set(game.legal(0)) == {"place", "discard"}
    assert game.legal(0)["place"] == [
        {"tile": "decor", "turned": False, "w": 1, "h": 1, "cells": ["A1", "B1"]}
    ]
    assert_refused(
        game, {"type": "place", "seat": 0, "tile": "decor", "cell": "A1", "turned": True}, Illegal
    )
    act(game, 0, "place", tile="decor", cell="B1")
    assert game.to_act() == [1]


def test_a17_an_excess_painting_with_no_decor_left_takes_none():
    game, _code = placing(3, 3)
    only_hole(game, 0, block("A1", 2, 1))
    game.decor[0] = 0
    act(game, 0, "excess")
    assert game.held is None and game.to_act() == [1]


def test_a18_a_discarded_decor_piece_is_lost():
    game, _code = placing(3, 3)
    only_hole(game, 0, block("A1", 2, 1))
    act(game, 0, "excess")
    events = act(game, 0, "discard")
    assert events[0] == {"type": "discarded", "seat": 0, "size": 1}
    assert game.decor_lost == 1 and game.to_act() == [1]


def test_a15_the_placing_turn_ends_itself_when_nothing_is_left_to_do():
    game, _code = placing(2, 2, frame="f3")  # seat 0's start is f1: no frame bonus
    assert game.to_act() == [0]
    assert_refused(game, {"type": "done", "seat": 0}, Illegal, "placed first")
    events = act(game, 0, "place", tile="picked", cell="C4")
    assert [e["type"] for e in events] == ["placed"]
    assert game.to_act() == [1] and game.legal(1) == {"pick": game.lot}


def test_a13_a_client_rebuilds_the_wall_from_the_view_and_tells_why_a_spot_is_refused():
    game, _ = placing(3, 2)
    hang(game, 0, "d2", "A9")
    view = game.view(1)  # an opponent's view: walls are public
    wall = Wall.from_view(10, 10, view["seats"][0]["wall"])
    cells = game.legal(0)["place"][0]["cells"]
    for index in range(100):
        cell = cell_name(index, 10)
        assert (wall.problem(3, 2, cell) is None) == (cell in cells)
    assert "leave the wall" in wall.problem(3, 2, "I4")
    assert "overlaps" in wall.problem(3, 2, "E5")
    assert "no edge" in wall.problem(3, 2, "A1")
    assert "not a cell" in wall.problem(3, 2, "Z0")
