"""Art Society bots: they decide from a view alone, play only legal moves, and the
heuristic hangs for immediate score and bids by how much it wants the lot's best."""

import random

from artsociety_helpers import act, fill, hang, new_game, painting, start_all, to_place

from modernart.engine.artsociety import GAME
from modernart.engine.artsociety.bots import HeuristicBot, RandomBot
from modernart.engine.artsociety.state import ArtSociety


def test_bots_answer_only_when_a_decision_is_due_and_only_with_legal_moves():
    for level in GAME.bots:
        game = ArtSociety(["Ann", "Bo", "Cy"], seed=4)
        bot = GAME.make_bot(level, 1)
        rng = random.Random(2)
        while not game.finished:
            for seat in range(3):
                if seat not in game.to_act():
                    assert bot.choose(game.view(seat)) is None
            seat = rng.choice(game.to_act())
            action = bot.choose(game.view(seat))
            assert action["type"] in game.legal(seat)
            game.apply({**action, "seat": seat})


def test_heuristic_hangs_where_it_scores_not_into_a_faux_pas():
    game = new_game(2)
    start_all(game, "F5")  # seat 0's start: a portrait at F5–G7
    hang(game, 0, painting(game, 2, 2, "landscape"), "D5")  # a neighbour of another genre
    game.prestige["portrait"] = 9
    to_place(game, 0, painting(game, 2, 2, "portrait", "f2"))
    action = HeuristicBot(0).choose(game.view(0))
    assert action["type"] == "place" and action["tile"] == "picked"
    act(game, 0, "place", tile="picked", cell=action["cell"])
    score = game.scores()[0]
    assert score["faux_pas"] == 0 and score["paintings"]["portrait"]["count"] == 2
    assert score["eyeline"] == 3 + 3  # both portraits reach rows 5–6 (A25)


def test_heuristic_picks_the_painting_worth_most_to_its_wall():
    game = new_game(2)
    start_all(game, "F5")
    game.prestige.update(city=9, portrait=0)
    act(
        game, 0, "shapes", shapes=["2x2", "2x2", "2x2"]
    )  # fixed deck: portrait, landscape, still life
    game.lot[2] = game.piles["2x2"].pop(0)  # swap in a city from the pile's bottom: 2x2.15
    assert game.paintings[game.lot[2]].genre == "city"
    act(game, 0, "bid", card=20)
    act(game, 1, "bid", card=1)
    assert HeuristicBot(0).choose(game.view(0)) == {"type": "pick", "painting": game.lot[2]}


def test_heuristic_bids_high_for_a_lot_with_one_prize_and_low_for_an_even_lot():
    bot = HeuristicBot(0)
    even = new_game(2)
    start_all(even, "F5")
    act(even, 0, "shapes", shapes=["2x2", "2x2", "2x2"])
    prize = new_game(2)
    start_all(prize, "F5")
    prize.prestige["city"] = 9
    act(prize, 0, "shapes", shapes=["2x2", "2x2", "5x5"])
    prize.lot[2] = "5x5.3"  # a city 5×5, worth far more to the wall than two 2×2
    prize.piles["5x5"].remove("5x5.3")
    prize.piles["5x5"].append("5x5.0")
    even_card = bot.choose(even.view(0))["card"]
    prize_card = bot.choose(prize.view(0))["card"]
    assert even_card < prize_card


def test_heuristic_takes_decor_it_can_hang():
    game = new_game(2)
    start_all(game, "F5")
    hang(game, 0, painting(game, 2, 2, "landscape", "f3"), "D1")
    to_place(game, 0, painting(game, 3, 3, "city", "f3"))
    act(game, 0, "place", tile="picked", cell="A1")
    assert HeuristicBot(0).choose(game.view(0)) == {"type": "decor", "size": 1}


def test_heuristic_beats_three_random_bots_in_most_seeded_games():
    wins = 0.0
    for g in range(12):
        bots = [RandomBot(g * 10 + s) for s in range(4)]
        bots[g % 4] = HeuristicBot(g)
        game = ArtSociety(["A", "B", "C", "D"], seed=100 + g)
        while not game.finished:
            seat = game.to_act()[0]
            game.apply({**bots[seat].choose(game.view(seat)), "seat": seat})
        if g % 4 in game.winners:
            wins += 1 / len(game.winners)
    assert wins >= 9


def test_heuristic_takes_the_exact_bonus_it_cannot_hang_and_loses_it():
    """A18 (revision 2): no declining; a piece with no spot and a full assistant is lost."""
    game = new_game(2)
    start_all(game, "F5")
    hang(game, 0, painting(game, 2, 2, "landscape", "f3"), "D1")
    hang(game, 0, painting(game, 2, 2, "still_life", "f3"), "A4")
    to_place(game, 0, painting(game, 3, 3, "city", "f3"))
    game.assistants[0] = painting(game, 2, 2, "portrait")
    fill(game, 0, {"A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3", "H8"})
    act(game, 0, "place", tile="picked", cell="A1")  # M = 2; H8 alone is left empty
    assert game.legal(0) == {"decor": [2]}
    bot = HeuristicBot(0)
    assert bot.choose(game.view(0)) == {"type": "decor", "size": 2}
    act(game, 0, "decor", size=2)
    assert bot.choose(game.view(0)) == {"type": "discard"}
