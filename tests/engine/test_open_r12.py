"""R12 the open auction, with R9 bounds and R10 payment."""

from engine_helpers import act, assert_refused, new_game, one


def open_auction(first: int = 0):
    hands = [[], [], [], []]
    hands[first] = ["krypto.open"]
    g = new_game(hands, first=first)
    act(g, first, "play", "krypto.open")
    assert g.phase == "open"
    return g


def test_r12_anyone_may_bid_in_any_order_including_the_auctioneer():
    g = open_auction()
    assert g.to_act() == [0, 1, 2, 3]
    for seat in range(4):
        assert g.legal(seat) == {"bid": [1, 100], "pass": True}
    act(g, 2, "bid", 5)
    act(g, 0, "bid", 6)
    act(g, 3, "bid", 10)
    view = g.view(1)
    assert view["high"] == {"amount": 10, "seat": 3}
    assert g.legal(1) == {"bid": [11, 100], "pass": True}
    assert g.legal(3) == {"bid": [11, 100]}  # the high bidder may only raise
    assert 3 not in g.to_act()


def test_r12_r10_close_sells_to_the_high_bidder_who_pays_the_auctioneer():
    g = open_auction()
    act(g, 1, "bid", 5)
    act(g, 2, "bid", 7)
    events = act(g, None, "close")
    sold = one(events, "sold")
    assert sold["winner"] == 2 and sold["price"] == 7 and sold["cards"] == ["krypto.open"]
    assert sold["payments"] == [{"from": 2, "to": 0, "amount": 7}]
    assert g.money == [107, 100, 93, 100]
    assert g.view(2)["seats"][2]["purchased"] == ["krypto.open"]
    assert g.auctioneer == 1 and g.phase == "play"  # R11


def test_r12_r10_auctioneer_who_wins_pays_the_bank():
    g = open_auction()
    act(g, 1, "bid", 5)
    act(g, 0, "bid", 9)
    sold = one(act(g, None, "close"), "sold")
    assert sold["payments"] == [{"from": 0, "to": None, "amount": 9}]
    assert g.money == [91, 100, 100, 100]


def test_r12_close_with_no_bid_gives_the_card_free_to_the_auctioneer():
    g = open_auction(first=2)
    events = act(g, None, "close")
    assert one(events, "free") == {"type": "free", "seat": 2, "cards": ["krypto.open"]}
    assert g.money == [100] * 4
    assert g.view(0)["seats"][2]["purchased"] == ["krypto.open"]
    assert g.auctioneer == 3


def test_r12_close_ignores_a_seat_field():
    g = open_auction()
    act(g, 1, "bid", 4)
    events = g.apply({"type": "close", "seat": 3})
    assert one(events, "sold")["winner"] == 1
    assert g.actions[-1] == {"type": "close"}


def test_r12_auto_close_when_all_but_the_high_bidder_passed():
    g = open_auction()
    act(g, 1, "bid", 5)
    act(g, 0, "pass")
    act(g, 2, "pass")
    assert g.phase == "open"
    events = act(g, 3, "pass")
    assert one(events, "sold")["winner"] == 1
    assert g.money == [105, 95, 100, 100]


def test_r12_all_pass_with_no_bid_gives_it_free():
    g = open_auction()
    for seat in (3, 1, 0):
        act(g, seat, "pass")
        assert g.phase == "open"
    events = act(g, 2, "pass")
    assert one(events, "free")["seat"] == 0


def test_r12_a_pass_stays_although_others_bid():
    g = open_auction()
    act(g, 3, "pass")
    act(g, 1, "bid", 5)
    act(g, 2, "bid", 6)
    assert 3 not in g.to_act()
    assert g.view(0)["passed"] == [3]
    assert g.legal(3) == {"bid": [7, 100]}  # may come back in, may not pass again
    assert_refused(g, {"type": "pass", "seat": 3}, "illegal")
    act(g, 1, "pass")
    events = act(g, 0, "pass")  # 0, 1 and 3 have passed: 2 wins
    assert one(events, "sold")["winner"] == 2


def test_r12_a_passed_player_who_bids_again_is_back_in():
    g = open_auction()
    act(g, 3, "pass")
    act(g, 1, "pass")
    act(g, 1, "bid", 4)
    assert g.view(0)["passed"] == [3]
    act(g, 0, "pass")
    events = act(g, 2, "pass")
    assert one(events, "sold") | {"payments": None} == {
        "type": "sold",
        "winner": 1,
        "price": 4,
        "cards": ["krypto.open"],
        "seller": 0,
        "payments": None,
    }


def test_r12_bid_after_everyone_else_passed_sells_at_once():
    g = open_auction()
    for seat in (1, 2, 3):
        act(g, seat, "pass")
    events = act(g, 0, "bid", 3)
    assert one(events, "sold")["payments"] == [{"from": 0, "to": None, "amount": 3}]


def test_r12_high_bidder_may_not_pass_but_may_raise_own_bid():
    g = open_auction()
    act(g, 2, "bid", 5)
    assert_refused(g, {"type": "pass", "seat": 2}, "illegal")
    act(g, 2, "bid", 8)
    assert g.view(0)["high"] == {"amount": 8, "seat": 2}
    assert one(act(g, None, "close"), "sold")["price"] == 8


def test_r12_r09_bids_must_exceed_the_high_bid_and_fit_the_money():
    g = open_auction()
    assert_refused(g, {"type": "bid", "seat": 1, "amount": 0}, "too_low")
    act(g, 1, "bid", 5)
    assert_refused(g, {"type": "bid", "seat": 2, "amount": 5}, "too_low")
    assert_refused(g, {"type": "bid", "seat": 2, "amount": 101}, "insufficient_funds")
    act(g, 2, "bid", 100)
    assert g.legal(1) == {"pass": True}  # nobody can top 100
