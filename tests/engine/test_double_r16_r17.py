"""R16 double auctions and R17 their payment, under both R28 payment variants."""

import pytest
from engine_helpers import act, assert_refused, new_game, of_type, one

SPLIT = {"double_payment": "split"}
ALL = {"double_payment": "second_takes_all"}


def pay(frm: int, to: int | None, amount: int) -> dict:
    """A payment as the `sold` event lists it (`to` None: the bank)."""
    return {"from": frm, "to": to, "amount": amount}


def offered(adder_card: str, adder: int = 2, *, variant=None, first: int = 0, n: int = 4):
    """Seat `first` plays krypto.double; seat `adder` holds `adder_card`; no other krypto dealt."""
    hands = [[] for _ in range(n)]
    hands[first] = ["krypto.double"]
    hands[adder] = [*hands[adder], adder_card]
    g = new_game(hands, first=first, variant=variant, avoid=["krypto"])
    events = act(g, first, "play", "krypto.double")
    assert g.phase == "offer" and events == [
        {"type": "played", "seat": first, "card": "krypto.double"}
    ]
    return g


def added_by_other(adder_card: str, adder: int = 2, **kw):
    """Everyone before `adder` declines, then `adder` adds `adder_card` (R16)."""
    g = offered(adder_card, adder, **kw)
    first = g.to_act()[0]
    for seat in range(first, adder) if adder > first else [*range(first, g.n), *range(adder)]:
        act(g, seat, "decline")
    events = act(g, adder, "add", adder_card)
    assert events[0] == {"type": "added", "seat": adder, "card": adder_card}
    return g


def test_r16_offer_starts_with_the_auctioneer_and_only_add_or_decline_is_legal():
    g = offered("krypto.open")
    assert g.to_act() == [0]
    assert g.legal(0) == {"add": [], "decline": True}
    assert all(g.legal(s) == {} for s in (1, 2, 3))
    view = g.view(1)
    assert view["lot"] == {
        "cards": ["krypto.double"],
        "type": "double",
        "seller": 0,
        "original": None,
    }
    assert view["offer_order"] == [0, 1, 2, 3]
    for action in (
        {"type": "bid", "seat": 0, "amount": 5},
        {"type": "pass", "seat": 0},
        {"type": "sealed", "seat": 0, "amount": 5},
        {"type": "price", "seat": 0, "amount": 5},
        {"type": "buy", "seat": 0},
        {"type": "close"},
        {"type": "play", "seat": 0, "card": "lite_metal.open"},
    ):
        assert_refused(g, action, "illegal")
    assert_refused(g, {"type": "decline", "seat": 2}, "not_your_turn")
    assert_refused(g, {"type": "add", "seat": 2, "card": "krypto.open"}, "not_your_turn")


def test_r16_offer_passes_clockwise_to_every_player_even_without_a_matching_card():
    g = offered("krypto.open", adder=0, first=1)
    for seat in (1, 2, 3):
        assert g.to_act() == [seat]
        assert g.legal(seat) == {"add": [], "decline": True}
        assert g.view(seat)["hand"] and "krypto" not in str(g.view(seat)["hand"])
        act(g, seat, "decline")
    assert g.to_act() == [0]
    assert g.legal(0) == {"add": ["krypto.open"], "decline": True}
    act(g, 0, "add", "krypto.open")
    assert g.view(None)["lot"]["seller"] == 0 and g.view(None)["lot"]["original"] == 1
    assert one(act(g, None, "close"), "free")["seat"] == 0  # no bids: the adder takes it
    assert g.auctioneer == 1


def test_r16_auctioneer_adds_own_card_the_pair_goes_by_the_second_cards_type():
    g = new_game([["krypto.double", "krypto.sealed"], [], [], []], avoid=["krypto"])
    act(g, 0, "play", "krypto.double")
    assert g.legal(0) == {"add": ["krypto.sealed"], "decline": True}
    events = act(g, 0, "add", "krypto.sealed")
    assert events == [{"type": "added", "seat": 0, "card": "krypto.sealed"}]
    assert g.phase == "sealed"
    assert g.view(2)["lot"] == {
        "cards": ["krypto.double", "krypto.sealed"],
        "type": "sealed",
        "seller": 0,
        "original": None,
    }
    for seat, amount in enumerate([1, 30, 12, 30]):
        events = act(g, seat, "sealed", amount)
    sold = one(events, "sold")
    assert sold["winner"] == 1 and sold["price"] == 30
    assert sold["cards"] == ["krypto.double", "krypto.sealed"]
    assert sold["payments"] == [pay(1, 0, 30)]
    assert g.money == [130, 70, 100, 100]
    assert g.view(0)["seats"][1]["purchased"] == ["krypto.double", "krypto.sealed"]
    assert g.auctioneer == 1
    assert g.view(0)["counts"]["krypto"] == 2


def test_r16_second_card_must_be_same_artist_not_a_double_and_in_hand():
    hands = [["krypto.double", "krypto.double", "yoko.open", "krypto.open"], [], [], []]
    g = new_game(hands, avoid=["krypto"])
    act(g, 0, "play", "krypto.double")
    assert g.legal(0) == {"add": ["krypto.open"], "decline": True}
    assert_refused(g, {"type": "add", "seat": 0, "card": "krypto.double"}, "illegal")
    assert_refused(g, {"type": "add", "seat": 0, "card": "yoko.open"}, "illegal")
    assert_refused(g, {"type": "add", "seat": 0, "card": "krypto.sealed"}, "illegal")
    assert_refused(g, {"type": "add", "seat": 0, "card": "picasso.open"}, "illegal")


@pytest.mark.parametrize("variant", [SPLIT, ALL])
def test_r16_nobody_adds_the_original_takes_it_free_and_plays_on_from_its_left(variant):
    g = offered("lite_metal.open", adder=2, first=1, variant=variant)
    events = []
    for seat in (1, 2, 3, 0):
        events += act(g, seat, "decline")
    assert of_type(events, "declined") == [{"type": "declined", "seat": s} for s in (1, 2, 3, 0)]
    assert one(events, "free") == {"type": "free", "seat": 1, "cards": ["krypto.double"]}
    assert g.money == [100] * 4
    assert g.auctioneer == 2 and g.phase == "play"


def test_r16_adder_runs_the_auction_and_the_next_turn_is_left_of_the_adder():
    g = added_by_other("krypto.open", adder=2)
    view = g.view(3)
    assert view["lot"] == {
        "cards": ["krypto.double", "krypto.open"],
        "type": "open",
        "seller": 2,
        "original": 0,
    }
    assert view["auctioneer"] == 2  # R16: the adder is this auction's auctioneer
    act(g, 1, "bid", 10)
    sold = one(act(g, None, "close"), "sold")
    assert sold["seller"] == 2 and sold["winner"] == 1
    assert sold["payments"] == [
        pay(1, 0, 5),
        pay(1, 2, 5),
    ]
    assert g.auctioneer == 3  # seat 1 loses its turn


def test_r16_fixed_price_is_set_by_the_adder_and_offered_from_its_left():
    g = added_by_other("krypto.fixed_price", adder=1)
    assert g.to_act() == [1] and g.legal(1) == {"price": [1, 100]}
    assert_refused(g, {"type": "price", "seat": 0, "amount": 10}, "not_your_turn")
    act(g, 1, "price", 11)
    assert g.to_act() == [2]
    act(g, 2, "pass")
    act(g, 3, "pass")
    sold = one(act(g, 0, "buy"), "sold")
    # the original buys: its split share (5) goes to the bank, the adder gets 6
    assert sold["payments"] == [
        pay(0, None, 5),
        pay(0, 1, 6),
    ]
    assert g.money == [89, 106, 100, 100]
    assert g.auctioneer == 2


def test_r16_sealed_tie_goes_to_the_adder_as_auctioneer():
    g = added_by_other("krypto.sealed", adder=2)
    events = []
    for seat, amount in enumerate([20, 20, 20, 20]):
        events += act(g, seat, "sealed", amount)
    sold = one(events, "sold")
    assert sold["winner"] == 2
    assert sold["payments"] == [
        pay(2, 0, 10),
        pay(2, None, 10),
    ]


@pytest.mark.parametrize("variant", [SPLIT, ALL])
def test_r16_sealed_tie_without_the_adder_goes_clockwise_from_the_adders_left(variant):
    g = added_by_other("krypto.sealed", adder=2, variant=variant)
    events = []
    for seat, amount in enumerate([20, 20, 3, 1]):
        events += act(g, seat, "sealed", amount)
    assert one(events, "sold")["winner"] == 0  # 3, 0, 1 from the adder's left


@pytest.mark.parametrize("variant", [SPLIT, ALL])
def test_r16_once_around_runs_from_the_adders_left_with_the_adder_last(variant):
    g = added_by_other("krypto.once_around", adder=1, variant=variant)
    order = []
    while g.phase == "once_around":
        order.append(g.to_act()[0])
        act(g, order[-1], "pass")
    assert order == [2, 3, 0, 1]
    # nobody bid: the adder, as auctioneer, takes both cards free
    assert g.view(0)["seats"][1]["purchased"] == ["krypto.double", "krypto.once_around"]
    assert g.auctioneer == 2


@pytest.mark.parametrize(
    ("variant", "price", "to_original", "to_adder"),
    [(SPLIT, 15, 7, 8), (SPLIT, 14, 7, 7), (SPLIT, 1, 0, 1), (ALL, 15, 0, 15), (ALL, 1, 0, 1)],
)
def test_r17_third_player_wins_and_pays_both_sellers(variant, price, to_original, to_adder):
    g = added_by_other("krypto.open", adder=2, variant=variant)
    act(g, 3, "bid", price)
    sold = one(act(g, None, "close"), "sold")
    expected = []
    if to_original:
        expected.append(pay(3, 0, to_original))
    if to_adder:
        expected.append(pay(3, 2, to_adder))
    assert sold["payments"] == expected  # R17; zero-amount payments are omitted
    assert g.money == [100 + to_original, 100, 100 + to_adder, 100 - price]


@pytest.mark.parametrize(
    ("variant", "winner", "payments"),
    [
        # split 21: the original's share is 10, the adder's 11
        (SPLIT, 0, [pay(0, None, 10), pay(0, 2, 11)]),
        (SPLIT, 2, [pay(2, 0, 10), pay(2, None, 11)]),
        (ALL, 0, [pay(0, 2, 21)]),
        (ALL, 2, [pay(2, None, 21)]),
    ],
)
def test_r17_a_seller_who_wins_pays_the_bank_its_own_share(variant, winner, payments):
    g = added_by_other("krypto.open", adder=2, variant=variant)
    act(g, winner, "bid", 21)
    sold = one(act(g, None, "close"), "sold")
    assert sold["winner"] == winner and sold["payments"] == payments
    bank = sum(p["amount"] for p in payments if p["to"] is None)
    assert sum(g.money) == 400 - bank
    assert g.money[winner] == 100 - 21 + sum(p["amount"] for p in payments if p["to"] == winner)


@pytest.mark.parametrize(
    ("variant", "payments", "money"),
    [
        (
            SPLIT,
            [pay(1, 0, 4), pay(1, None, 5)],
            [104, 91],
        ),
        (ALL, [pay(1, None, 9)], [100, 91]),
    ],
)
def test_r15_r17_all_pass_on_the_adders_fixed_price_the_adder_buys(variant, payments, money):
    g = added_by_other("krypto.fixed_price", adder=1, variant=variant)
    act(g, 1, "price", 9)
    events = []
    for seat in (2, 3, 0):
        events += act(g, seat, "pass")
    sold = one(events, "sold")
    assert sold["winner"] == 1 and sold["payments"] == payments
    assert g.money[:2] == money
    assert g.view(2)["seats"][1]["purchased"] == ["krypto.double", "krypto.fixed_price"]


def test_r17_auctioneer_adding_own_card_is_paid_in_full_under_either_variant():
    for variant in (SPLIT, ALL):
        g = new_game([["krypto.double", "krypto.open"], [], []], variant=variant, avoid=["krypto"])
        act(g, 0, "play", "krypto.double")
        act(g, 0, "add", "krypto.open")
        act(g, 1, "bid", 9)
        sold = one(act(g, None, "close"), "sold")
        assert sold["payments"] == [pay(1, 0, 9)]
