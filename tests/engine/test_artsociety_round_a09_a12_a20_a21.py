"""An Art Society round: shapes, sealed bid cards, pick order, museum, next auctioneer
(ARTSOCIETY.md A9–A12, A20, A21)."""

import json

from artsociety_helpers import act, assert_refused, finish_turn, new_game, start_all

from modernart.engine.errors import Illegal, NotYourTurn


def started(n=3, **deck):
    game = new_game(n, **deck)
    start_all(game)
    return game


def test_a09_the_auctioneer_chooses_n_plus_1_shapes_repeats_allowed_tops_turn_up():
    game = started(3)
    legal = game.legal(0)["shapes"]
    assert legal["count"] == 4 and legal["piles"]["2x2"] == 16
    assert game.legal(1) == {} and game.to_act() == [0]
    assert_refused(game, {"type": "shapes", "seat": 1, "shapes": ["2x2"] * 4}, NotYourTurn)
    assert_refused(game, {"type": "shapes", "seat": 0, "shapes": ["2x2"] * 3}, Illegal, "4 shapes")
    assert_refused(game, {"type": "shapes", "seat": 0, "shapes": ["2x2"] * 3 + ["9x9"]}, Illegal)
    assert_refused(game, {"type": "shapes", "seat": 0, "shapes": "2x2"}, Illegal)
    events = act(game, 0, "shapes", shapes=["2x2", "5x5", "2x2", "3x2"])
    assert game.lot == ["2x2.0", "5x5.0", "2x2.1", "3x2.0"]  # fixed deck: tops in table order
    assert events[1]["type"] == "lot" and [p["code"] for p in events[1]["paintings"]] == game.lot
    assert game.view(2)["piles"]["2x2"] == 14
    assert game.phase == "bid"


def test_a09_an_empty_pile_cannot_be_chosen():
    game = started(2)
    game.piles["5x5"] = game.piles["5x5"][:2]
    assert game.legal(0)["shapes"]["piles"]["5x5"] == 2
    assert_refused(game, {"type": "shapes", "seat": 0, "shapes": ["5x5"] * 3}, Illegal, "only 2")
    game.piles["5x5"] = []
    assert "5x5" not in game.legal(0)["shapes"]["piles"]
    assert_refused(game, {"type": "shapes", "seat": 0, "shapes": ["5x5", "2x2", "2x2"]}, Illegal)


def test_a10_bid_cards_are_sealed_until_all_are_in_and_gone_for_the_game():
    game = started(3)
    act(game, 0, "shapes", shapes=["2x2"] * 4)
    events = act(game, 1, "bid", card=12)
    assert events == [{"type": "bid_in", "seat": 1}]
    for viewer in (0, 2, None):
        text = json.dumps(game.view(viewer))
        view = game.view(viewer)
        assert view["bids"] is None and view["my_bid"] is None and view["bid_in"] == [1]
        assert view["stack"] != [1, 12] and "12" not in json.dumps(view["seats"])
        assert view["seats"][1]["cards"] == 19
        assert '"hand": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13' not in text
    assert game.view(1)["my_bid"] == 12 and 12 not in game.view(1)["hand"]
    assert_refused(game, {"type": "bid", "seat": 1, "card": 13}, NotYourTurn)
    assert_refused(game, {"type": "bid", "seat": 0, "card": 21}, Illegal, "A10")
    assert_refused(game, {"type": "bid", "seat": 0, "card": 5.0}, Illegal)
    act(game, 0, "bid", card=5)
    events = act(game, 2, "bid", card=20)
    reveal = events[-2] if events[-1]["type"] != "reveal" else events[-1]
    assert reveal == {"type": "reveal", "bids": [5, 12, 20], "order": [2, 1, 0]}
    assert game.view(0)["bids"] == [5, 12, 20]
    # Next round: the played card is gone for good, and the old bids are hidden again.
    for seat in (2, 1, 0):
        act(game, seat, "pick", painting=game.lot[0])
        act(game, seat, "place", tile="picked", cell=["G4", "C4", "E7"][seat])
        finish_turn(game, seat)
    assert game.round == 2 and game.view(0)["bids"] is None
    assert 12 not in game.legal(1).get("bid", game.hands[1]) and 12 not in game.hands[1]


def test_a11_worked_example_ties_go_down_the_stacks():
    """Ann 12, Bo 12; beneath: Ann 7 then white 1, Bo 7 then white 3: Bo picks first."""
    game = started(2, white=[1, 3])
    for card in (7,):
        act(game, 0, "shapes", shapes=["2x2"] * 3)
        act(game, 0, "bid", card=card)
        act(game, 1, "bid", card=card)
        assert game.order == [1, 0]  # white 3 beats white 1
        for seat in game.order:
            act(game, seat, "pick", painting=game.lot[0])
            act(game, seat, "place", tile="picked", cell="G5" if seat else "C5")
            finish_turn(game, seat)
    act(game, 1, "shapes", shapes=["2x2"] * 3)
    act(game, 0, "bid", card=12)
    events = act(game, 1, "bid", card=12)
    assert game.stacks == [[1, 7, 12], [3, 7, 12]]
    assert events[-1]["type"] == "reveal" and events[-1]["order"] == [1, 0]
    assert game.to_act() == [1]


def test_a12_each_player_picks_and_places_before_the_next_picks():
    game = started(3)
    act(game, 0, "shapes", shapes=["2x2", "3x2", "2x3", "3x3"])
    for seat, card in enumerate((3, 9, 6)):
        act(game, seat, "bid", card=card)
    assert game.to_act() == [1] and game.legal(1) == {"pick": game.lot}
    assert_refused(game, {"type": "pick", "seat": 2, "painting": "2x2.0"}, NotYourTurn)
    assert_refused(game, {"type": "pick", "seat": 1, "painting": "5x5.0"}, Illegal, "lot")
    act(game, 1, "pick", painting="3x2.0")
    assert game.to_act() == [1] and game.lot == ["2x2.0", "2x3.0", "3x3.0"]
    assert game.view(2)["turn"]["picked"]["code"] == "3x2.0"
    act(game, 1, "place", tile="picked", cell="G4")
    assert game.to_act() == [1] and game.legal(1) == {"decor": [1]}  # the start's frame: M = 1
    act(game, 1, "decor", size=1)
    act(game, 1, "discard")
    assert game.to_act() == [2] and game.legal(2) == {"pick": game.lot}


def test_a20_a21_the_unpicked_painting_goes_to_the_museum_and_the_auctioneer_moves_left():
    game = started(2)
    act(game, 0, "shapes", shapes=["2x2", "5x5", "4x4"])
    act(game, 0, "bid", card=2)
    act(game, 1, "bid", card=1)
    act(game, 0, "pick", painting="2x2.0")
    act(game, 0, "place", tile="picked", cell="G5")
    finish_turn(game, 0)
    act(game, 1, "pick", painting="4x4.0")
    events = act(game, 1, "place", tile="picked", cell="A1")
    museum = [e for e in events if e["type"] == "museum"]
    assert museum == [{"type": "museum", "code": "5x5.0", "genre": "portrait", "prestige": 9}]
    assert game.prestige["portrait"] == 9 and game.museum == ["5x5.0"]
    assert game.view(None)["museum"][0]["value"] == 9
    assert game.auctioneer == 1 and game.to_act() == [1] and game.round == 2
