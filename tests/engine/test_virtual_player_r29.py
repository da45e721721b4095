"""R29 the virtual player of the 3-player game: a fourth hand that turns up cards."""

from engine_helpers import act, assert_refused, new_game, of_type, one, play_through

from modernart.engine.modernart import ARTISTS

KR_THREE = [["krypto.open"], ["krypto.sealed"], ["krypto.once_around"]]


def test_r29_after_the_last_seat_the_virtual_player_turns_its_oldest_card():
    g = new_game(
        KR_THREE, virtual=["yoko.double", "lite_metal.open", "yoko.open"], avoid=["krypto"]
    )
    assert g.view(0)["virtual"] == {"hand_size": 9, "turned": []}
    play_through(g, 0, "krypto.open")
    play_through(g, 1, "krypto.sealed")
    money = list(g.money)
    events = play_through(g, 2, "krypto.once_around")
    assert of_type(events, "turned") == [{"type": "turned", "card": "yoko.double"}]
    # R29: a double it turns gets no second card and nobody is offered anything
    assert g.phase == "play" and g.auctioneer == 0
    view = g.view(1)
    assert view["virtual"] == {"hand_size": 8, "turned": ["yoko.double"]}
    assert view["counts"]["yoko"] == 1 and view["counts"]["krypto"] == 3
    assert all("yoko.double" not in s["purchased"] for s in view["seats"])
    assert g.money == money
    assert g.actions == [a for a in g.actions if a.get("seat") != 3]
    assert g.cards_in_play() == 70
    # oldest first: the next turn shows the second dealt card
    for seat in (0, 1, 2):
        play_through(g, seat, g.view(seat)["hand"][-1])
    assert g.view(None)["virtual"]["turned"] == ["yoko.double", "lite_metal.open"]


def test_r29_it_takes_no_part_in_bidding_and_has_no_seat():
    g = new_game(KR_THREE, virtual=[], avoid=["krypto"])
    act(g, 0, "play", "krypto.open")
    assert g.to_act() == [0, 1, 2]
    assert len(g.money) == 3 and len(g.view(0)["seats"]) == 3
    assert g.legal(3) == {}
    assert g.view(3)["you"] is None and g.view(3)["hand"] == []
    assert_refused(g, {"type": "bid", "seat": 3, "amount": 1}, "illegal")


def test_r29_r16_the_virtual_player_is_never_offered_a_double():
    g = new_game([["krypto.open"], ["krypto.sealed"], ["krypto.double"]], virtual=["krypto.open"])
    play_through(g, 0, "krypto.open")
    play_through(g, 1, "krypto.sealed")
    act(g, 2, "play", "krypto.double")
    assert g.view(0)["offer_order"] == [2, 0, 1]
    act(g, 2, "decline")
    act(g, 0, "decline")
    events = act(g, 1, "decline")
    assert one(events, "free")["seat"] == 2
    # the turn moves on to the virtual player, which turns its card, then seat 0
    assert one(events, "turned")["card"] == "krypto.open"
    assert g.auctioneer == 0


def test_r29_r18_a_card_it_turns_can_end_the_round_which_continues_at_seat_0():
    g = new_game(
        [["krypto.open", "yoko.open"], ["krypto.sealed", "yoko.open"], ["krypto.once_around"]],
        first=1,
        virtual=["krypto.double", "krypto.fixed_price"],
        avoid=["krypto"],
    )
    play_through(g, 1, "krypto.sealed")
    events = play_through(g, 2, "krypto.once_around")
    assert one(events, "turned")["card"] == "krypto.double"
    play_through(g, 0, "krypto.open")  # krypto's 4th
    events = play_through(g, 1, "yoko.open")
    events += play_through(g, 2, g.view(2)["hand"][0])
    assert g.round == 2
    turned = one(events, "turned")
    end = one(events, "round_end")
    assert turned["card"] == "krypto.fixed_price" and end["counts"]["krypto"] == 5
    assert one(events, "round_start") == {"type": "round_start", "round": 2, "auctioneer": 0}
    assert g.auctioneer == 0 and g.phase == "play"
    # R29: its turned cards are discarded at the round's end; it is dealt round 2's 4
    assert g.view(None)["virtual"] == {"hand_size": 7 + 4, "turned": []}
    assert g.view(None)["counts"] == dict.fromkeys(ARTISTS, 0)
    assert g.cards_in_play() == 70


def test_r29_r07_it_opens_a_round_ended_by_the_seat_before_it():
    g = new_game(
        [["krypto.open"], ["krypto.sealed"], ["krypto.once_around", "krypto.open"]],
        first=2,
        virtual=["krypto.double", "lite_metal.open"],
        avoid=["krypto"],
    )
    events = play_through(g, 2, "krypto.once_around")
    assert one(events, "turned")["card"] == "krypto.double"
    play_through(g, 0, "krypto.open")
    play_through(g, 1, "krypto.sealed")
    events = act(g, 2, "play", "krypto.open")  # the 5th: seat 2 ends round 1
    assert one(events, "round_start") == {"type": "round_start", "round": 2, "auctioneer": 3}
    # the virtual player opens round 2 by turning its oldest card, then seat 0 plays
    assert one(events, "turned")["card"] == "lite_metal.open"
    assert [e["type"] for e in events][-2:] == ["round_start", "turned"]
    assert g.auctioneer == 0 and g.view(0)["counts"]["lite_metal"] == 1
