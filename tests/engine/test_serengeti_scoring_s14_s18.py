"""Serengeti's end and scoring (S14–S18)."""

import pytest
from serengeti_helpers import act, new_game, win_at

from modernart.engine.errors import Illegal
from modernart.engine.serengeti.cards import TRIBES, tribe_points
from modernart.engine.serengeti.game import winners_of


def test_s15_tribe_points_grow_as_c_times_c_plus_1_over_2():
    assert [tribe_points(c) for c in range(6)] == [0, 1, 3, 6, 10, 15]


def final_breakdown_game():
    """Seat 0 ends with three blue and two red cards; the other lots go to seats 1–3."""
    game = new_game(
        4,
        *("blue.0", "blue.3", "blue.5", "green.0", "green.2", "green.4", "red.1"),
        *("green.6", "green.8", "yellow.5", "yellow.6", "yellow.7", "red.2"),
        first=0,
    )
    events = win_at(game, 0, 0) + win_at(game, 0, 0)  # auctions 1, 2: free to seat 0
    events += win_at(game, 1)  # auction 3
    events += win_at(game, 0)  # auction 4: red.1
    events += win_at(game, 2) + win_at(game, 3)  # auctions 5, 6
    events += win_at(game, 0)  # auction 7: red.2
    others = [1, 2, 3]
    while not game.finished:
        events += win_at(game, others[game.auction % 3])
    return game, events


def test_s15_worked_example_three_of_one_tribe_and_two_of_another_score_9():
    game, events = final_breakdown_game()
    assert sorted(game.owned[0]) == ["blue.0", "blue.3", "blue.5", "red.1", "red.2"]
    score = game.scores[0]
    assert score["tribes"] == {**dict.fromkeys(TRIBES, 0), "blue": 6, "red": 3}
    assert score["cards"]["blue"] == 3 and score["cards"]["red"] == 2
    assert score["tribe_points"] == 9 and score["owned"] == 5
    end = events[-1]
    assert end["type"] == "game_end" and end["scores"] == game.scores
    assert end["chips"] == game.chips and end["winners"] == game.winners


def test_s14_the_game_ends_after_the_fifteenth_auction():
    game, events = final_breakdown_game()
    assert [e["number"] for e in events if e["type"] == "auction"] == list(range(2, 16))
    assert game.finished and game.to_act() == [] and game.view(None)["phase"] == "over"
    assert sum(map(len, game.owned)) == 30 and game.cards_in_play() == 30
    for seat in range(4):
        assert game.legal(seat) == {}
        with pytest.raises(Illegal, match="over"):
            act(game, seat, "pass")


def test_s16_every_player_tied_on_most_chips_gains_3_points():
    game = new_game(4, first=0)
    while not game.finished:  # nobody ever bids: every lot goes free to seat 0 (S10)
        win_at(game, 0, 0)
    assert game.chips == [10, 40, 40, 40]  # 15 early passes each (S8)
    assert [s["chips_bonus"] for s in game.scores] == [0, 3, 3, 3]
    assert [s["points"] for s in game.scores] == [90, 3, 3, 3]
    assert game.winners == [0] and game.tiebreak == "points"


def test_s16_a_single_richest_player_alone_gains_3():
    game, _ = final_breakdown_game()
    richest = max(game.chips)
    assert game.chips.count(richest) == 1
    for seat, score in enumerate(game.scores):
        assert score["chips_bonus"] == (3 if game.chips[seat] == richest else 0)
        assert score["points"] == score["tribe_points"] + score["chips_bonus"]
        assert score["chips"] == game.chips[seat]


def scores(*rows):
    return [{"points": p, "owned": c, "chips": m} for p, c, m in rows]


@pytest.mark.parametrize(
    ("rows", "winners", "step"),
    [
        (((20, 5, 3), (18, 9, 9), (7, 1, 40)), [0], "points"),
        (((20, 5, 3), (20, 6, 0), (7, 9, 40)), [1], "cards"),
        (((20, 6, 3), (20, 6, 4), (20, 5, 40)), [1], "chips"),
        (((20, 6, 4), (9, 6, 4), (20, 6, 4)), [0, 2], "shared"),
    ],
)
def test_s17_most_points_then_most_cards_then_most_chips_then_shared(rows, winners, step):
    assert winners_of(scores(*rows)) == (winners, step)


def test_s17_the_engine_names_its_winners_from_the_breakdown():
    game, _ = final_breakdown_game()
    assert (game.winners, game.tiebreak) == winners_of(game.scores)
    assert game.view(None)["winners"] == game.winners
    assert game.view(2)["tiebreak"] == game.tiebreak


def test_s18_chips_are_secret_until_the_end_then_revealed_to_all():
    game = new_game(3, first=0)
    while not game.finished:
        for seat in range(3):
            view = game.view(seat)
            assert [s["chips"] for s in view["seats"]] == [
                game.chips[s] if s == seat else None for s in range(3)
            ]
            assert view["scores"] is None
        assert [s["chips"] for s in game.view(None)["seats"]] == [None] * 3
        win_at(game, game.auction % 3)
    for viewer in (None, 0, 1, 2):
        view = game.view(viewer)
        assert [s["chips"] for s in view["seats"]] == game.chips
        assert view["scores"] == game.scores
