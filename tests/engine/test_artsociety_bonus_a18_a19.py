"""The frame bonus and the full wall (ARTSOCIETY.md A18, A19), on hand-built walls."""

from artsociety_helpers import (
    act,
    assert_refused,
    fill,
    hang,
    new_game,
    painting,
    start_all,
    to_place,
)

from modernart.engine.errors import Illegal


def bonus_game(target, neighbours, assistant=None, variant=None):
    """Seat 0's start at F5 (F5–G7); `neighbours` [(cell, w, h, genre, frame)] hung by
    hand; then seat 0 picks `target` (w, h, genre, frame)."""
    game = new_game(2, variant)
    start_all(game, "F5")
    for cell, w, h, genre, frame in neighbours:
        hang(game, 0, painting(game, w, h, genre, frame), cell)
    code = painting(game, *target)
    if assistant:
        game.assistants[0] = painting(game, *assistant)
    to_place(game, 0, code)
    return game, code


# A 3×3 city f3 at A1 (A1–C3): D1 and A4 are its frame, C4 another, a decor at D3.
WORKED = [
    ("D1", 2, 2, "landscape", "f3"),
    ("A4", 2, 2, "still_life", "f3"),
    ("C4", 2, 2, "portrait", "f1"),
]
# Around a 4×4 city f2 at A1: four paintings of its frame.
FOUR = [
    ("E1", 2, 2, "landscape", "f2"),
    ("E3", 2, 2, "still_life", "f2"),
    ("A5", 2, 2, "portrait", "f2"),
    ("C5", 2, 2, "city", "f2"),
]


def test_a18_worked_example_two_of_its_frame_and_one_other_give_one_decor_of_2():
    game, _code = bonus_game((3, 3, "city", "f3"), WORKED)
    hang(game, 0, "d1", "D3")  # decor has no frame: it never counts
    events = act(game, 0, "place", tile="picked", cell="A1")
    assert events[-1] == {"type": "bonus", "seat": 0, "matches": 2}
    assert game.legal(0) == {"decor": [2]}  # exactly M while that size lasts, no declining
    assert game.to_act() == [0] and game.view(1)["turn"]["bonus"] == 2
    assert_refused(game, {"type": "decor", "seat": 0, "size": 1}, Illegal, "A18")
    assert_refused(game, {"type": "decor", "seat": 0, "size": 3}, Illegal, "A18")
    assert_refused(game, {"type": "decline", "seat": 0}, Illegal, "exactly M")
    assert_refused(game, {"type": "place", "seat": 0, "tile": "decor", "cell": "E3"}, Illegal)
    assert_refused(game, {"type": "done", "seat": 0}, Illegal)
    pool = list(game.decor)
    assert act(game, 0, "decor", size=2) == [{"type": "decor", "seat": 0, "size": 2}]
    assert game.decor == [pool[0], pool[1] - 1, pool[2]]
    legal = game.legal(0)
    assert set(legal) == {"place", "assist", "discard"}
    assert [(o["turned"], o["w"], o["h"]) for o in legal["place"]] == [(False, 2, 1), (True, 1, 2)]
    act(game, 0, "place", tile="decor", cell="A6", turned=False)
    assert game.to_act() == [1]  # one piece only for M = 2
    assert game.view(0)["seats"][0]["score"]["shields"] == 3


def test_a18_worked_example_no_2_shield_piece_left_gives_two_1_shield_pieces():
    game, _code = bonus_game((3, 3, "city", "f3"), WORKED)
    game.decor[1] = 0
    act(game, 0, "place", tile="picked", cell="A1")
    assert game.legal(0) == {"decor": [1]}
    act(game, 0, "decor", size=1)
    assert game.view(0)["turn"]["multi"] and game.view(0)["turn"]["bonus"] == 1
    act(game, 0, "place", tile="decor", cell="A6")
    assert game.legal(0) == {"decor": [1]}  # the second piece of M = 2
    act(game, 0, "decor", size=1)
    act(game, 0, "place", tile="decor", cell="A7")
    assert game.to_act() == [1] and game.scores()[0]["shields"] == 2


def test_a18_three_ran_out_smaller_pieces_of_the_players_choice_as_far_as_the_supply_holds():
    # M = 3 with no 3-shield piece: 2 + 1 or 1 + 1 + 1.
    game, _code = bonus_game((3, 3, "city", "f3"), [*WORKED[:2], ("C4", 2, 2, "portrait", "f3")])
    game.decor[2] = 0
    events = act(game, 0, "place", tile="picked", cell="A1")
    assert events[-1]["matches"] == 3 and game.legal(0) == {"decor": [1, 2]}
    act(game, 0, "decor", size=2)
    act(game, 0, "place", tile="decor", cell="A6")
    assert game.legal(0) == {"decor": [1]}
    # Only one 1-shield piece left and M = 3 from 1s: one piece, then the supply is out.
    game, _code = bonus_game((3, 3, "city", "f3"), [*WORKED[:2], ("C4", 2, 2, "portrait", "f3")])
    game.decor[:] = [1, 0, 0]
    act(game, 0, "place", tile="picked", cell="A1")
    act(game, 0, "decor", size=1)
    act(game, 0, "place", tile="decor", cell="A6")
    assert game.to_act() == [1] and game.decor == [0, 0, 0]


def test_a18_four_or_more_of_its_frame_give_pieces_totalling_exactly_m():
    game, _code = bonus_game((4, 4, "city", "f2"), FOUR)
    events = act(game, 0, "place", tile="picked", cell="A1")
    assert events[-1] == {"type": "bonus", "seat": 0, "matches": 4}
    assert game.legal(0) == {"decor": [1, 2, 3]}
    act(game, 0, "decor", size=3)
    act(game, 0, "place", tile="decor", cell="A7")
    assert game.legal(0) == {"decor": [1]}  # 1 shield of 4 left, and it must be taken
    act(game, 0, "decor", size=1)
    act(game, 0, "place", tile="decor", cell="A8")
    assert game.to_act() == [1] and game.scores()[0]["shields"] == 4


def test_a18_a_piece_that_is_neither_hung_nor_assisted_is_lost():
    game, _code = bonus_game((3, 3, "city", "f3"), WORKED)
    act(game, 0, "place", tile="picked", cell="A1")
    act(game, 0, "decor", size=2)
    before = sum(game.decor)
    assert act(game, 0, "discard") == [{"type": "discarded", "seat": 0, "size": 2}]
    assert game.to_act() == [1] and game.decor_lost == 1 and sum(game.decor) == before


def test_a18_none_left_of_any_size_the_bonus_lapses():
    game, _ = bonus_game((3, 3, "city", "f3"), WORKED)
    game.decor[0] = game.decor[1] = 0
    events = act(game, 0, "place", tile="picked", cell="A1")
    assert events[-1]["type"] == "bonus" and game.to_act() == [1]  # nothing to take: lapses


def test_a18_a_decor_piece_may_go_to_an_empty_assistant():
    game, _code = bonus_game((3, 3, "city", "f3"), WORKED)
    act(game, 0, "place", tile="picked", cell="A1")
    act(game, 0, "decor", size=2)
    assert "assist" in game.legal(0)
    act(game, 0, "assist")
    assert game.assistants[0] == "d2" and game.view(1)["seats"][0]["assistant"] == {
        "code": "d2",
        "shields": 2,
    }
    assert game.view(0)["seats"][0]["score"]["shields"] == 0  # A26: the assistant's decor scores 0
    assert "done" in game.legal(0)  # the assistant's piece could be hung now; kept
    act(game, 0, "done")


def test_a18_revision_1_gave_at_most_m_and_let_the_bonus_be_declined():
    game, _code = bonus_game((3, 3, "city", "f3"), WORKED, variant="house_r1")
    act(game, 0, "place", tile="picked", cell="A1")
    assert game.legal(0) == {"decor": [1, 2], "decline": True}
    act(game, 0, "decor", size=1)  # smaller than M, though 2-shield pieces are left
    act(game, 0, "place", tile="decor", cell="A6")
    assert game.to_act() == [1]  # one piece only for M = 2
    game, _code = bonus_game((4, 4, "city", "f2"), FOUR, variant="house_r1")
    act(game, 0, "place", tile="picked", cell="A1")
    act(game, 0, "decor", size=3)
    act(game, 0, "place", tile="decor", cell="A7")
    assert game.legal(0) == {"decor": [1], "decline": True}
    assert act(game, 0, "decline") == [{"type": "declined", "seat": 0}]
    assert game.to_act() == [1] and game.scores()[0]["shields"] == 3


def test_a18_the_bonus_also_applies_to_a_painting_from_the_assistant_and_an_exchange():
    game, _ = bonus_game((2, 2, "city", "f4"), WORKED, assistant=(3, 3, "city", "f3"))
    events = act(game, 0, "place", tile="assistant", cell="A1")
    assert events[-1] == {"type": "bonus", "seat": 0, "matches": 2}
    # An exchange: the picked 3×3 does not fit; the museum's 2×2 of its genre does.
    game, _code = bonus_game((3, 3, "city", "f4"), [("C1", 2, 2, "landscape", "f2")])
    fill(game, 0, {"A1", "B1", "A2", "B2"})
    taken = painting(game, 2, 2, "city", "f2")
    game.museum.append(taken)
    events = act(game, 0, "exchange", painting=taken, cell="A1")
    assert events[-1] == {"type": "wall_full", "seat": 0}  # A19: full, so no decor


def test_a19_no_decor_is_taken_in_the_round_a_wall_becomes_full_and_a22_the_game_ends():
    game = new_game(2)
    start_all(game, "F5")
    hang(game, 0, painting(game, 2, 2, "portrait", "f2"), "C1")
    fill(game, 0, {"A1", "B1", "A2", "B2"})
    first, second = painting(game, 2, 2, "city", "f2"), "2x2.1"  # landscape f2
    assert game.paintings[second].frame == "f2"
    pile = game.piles["2x2"]
    for code in (second, first):
        pile.remove(code)
        pile.append(code)
    act(game, 0, "shapes", shapes=["2x2", "2x2", "3x3"])
    act(game, 0, "bid", card=20)
    act(game, 1, "bid", card=1)
    act(game, 0, "pick", painting=first)
    events = act(game, 0, "place", tile="picked", cell="A1")  # touches C1's f2: M = 1
    assert [e["type"] for e in events] == ["placed", "wall_full"]
    assert game.walls[0].full and not game.finished
    act(game, 1, "pick", painting=second)
    events = act(game, 1, "place", tile="picked", cell="D5")  # touches seat 1's f2 start
    assert "bonus" not in [e["type"] for e in events]  # A19
    assert game.finished and events[-1]["type"] == "game_end"  # A22: a full wall ends it
    assert game.scores()[0]["full"] == 5 and game.scores()[0]["empty"] == 0
