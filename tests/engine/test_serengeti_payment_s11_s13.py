"""Serengeti payments, laying out lots and the next start player (S11–S13), and the
payout variants and presets (S19, S20)."""

import pytest
from serengeti_helpers import act, new_game, win_at

from modernart.engine.games import get_game
from modernart.engine.serengeti.variant import parse_variant


def sold(events):
    (event,) = [e for e in events if e["type"] == "sold"]
    return event


def test_s11_worked_example_nobody_else_owns_the_digit_everyone_else_shares():
    """4 players. P1 bids 9; P2, P3, P4 pass at once: each receives 3 and 2 for passing early."""
    game = new_game(4, first=0)
    act(game, 0, "bid", 9)
    act(game, 1, "pass")
    act(game, 2, "pass")
    events = act(game, 3, "pass")
    assert sold(events)["payments"] == [
        {"from": 0, "to": 1, "amount": 3},
        {"from": 0, "to": 2, "amount": 3},
        {"from": 0, "to": 3, "amount": 3},
    ]
    assert sold(events)["holders"] == [] and sold(events)["bank"] == 0
    assert game.chips == [1, 15, 15, 15]


def test_s11_worked_example_the_remainder_goes_to_the_bank():
    """4 players, P1 wins at 10, nobody else owns a 0: the others receive 3 each; 1 to the bank."""
    game = new_game(4, first=0)
    act(game, 0, "bid", 10)
    for seat in (1, 2):
        act(game, seat, "pass")
    event = sold(act(game, 3, "pass"))
    assert event["digit"] == 0 and event["bank"] == 1
    assert event["payments"][-1] == {"from": 0, "to": None, "amount": 1}
    assert sum(p["amount"] for p in event["payments"]) == 10
    assert game.chips == [0, 15, 15, 15]
    assert sum(game.chips) == 40 + 3 * 2 - 1  # bonuses in, the remainder out


def holders_of_4(variant=None):
    """Seat 1 owns two 4s (brown.4, red.4), seat 3 one (green.4); seat 0 then holds 16
    chips and no 4. Auction 4 (purple.9) is seat 3's to start."""
    game = new_game(
        4,
        *("brown.4", "red.4", "yellow.5", "green.4", "purple.1", "blue.3", "purple.9"),
        first=1,
        variant=variant,
    )
    win_at(game, 1, 0)  # brown.4 free to seat 1
    win_at(game, 1, 0)  # red.4, yellow.5 free to seat 1
    win_at(game, 3, 1)  # green.4, purple.1, blue.3 to seat 3 at 1 (to the bank)
    assert game.start == 3 and game.chips[0] == 16
    act(game, 3, "pass")
    act(game, 0, "bid", 14)
    act(game, 1, "pass")
    return game, act(game, 2, "pass")


def test_s11_worked_example_holders_share_one_share_each_however_many_cards():
    """P1 wins at 14; P2 owns two 4s, P4 one 4: P2 and P4 receive 7 each."""
    game, events = holders_of_4()
    event = sold(events)
    assert event["digit"] == 4 and event["holders"] == [1, 3]
    assert event["payments"] == [
        {"from": 0, "to": 1, "amount": 7},
        {"from": 0, "to": 3, "amount": 7},
    ]
    assert game.chips[0] == 2


def test_s11_odd_split_among_holders_leaves_the_rest_to_the_bank():
    game = new_game(3, "red.3", "blue.3", first=0)
    win_at(game, 1, 1)  # red.3 to seat 1 at 1
    act(game, 1, "pass")  # auction 2, seat 1 starts and passes (deferred bonus)
    act(game, 2, "pass")
    event = sold(act(game, 0, "bid", 3))
    assert event["holders"] == [1] and event["payments"] == [{"from": 0, "to": 1, "amount": 3}]


def test_s11_the_winner_never_receives_a_share():
    game = new_game(3, "red.2", "red.0", "green.0", first=0)
    win_at(game, 0, 0)  # seat 0 owns a 2
    act(game, 0, "pass")
    act(game, 1, "bid", 2)  # nobody but seat 0 holds 2 … and seat 1 is the winner
    event = sold(act(game, 2, "pass"))
    assert event["holders"] == [0] and event["payments"] == [{"from": 1, "to": 0, "amount": 2}]


def test_s12_the_lot_lies_in_front_of_the_winner_and_its_digits_bar_their_bids():
    game = new_game(3, "blue.8", "red.2", "green.6", first=0)
    assert game.legal(0)["bid"] == list(range(1, 11))
    win_at(game, 0, 3)
    view = game.view(2)
    assert view["seats"][0]["owned"] == ["blue.8"] and view["seats"][0]["barred"] == [8]
    assert game.legal(0)["bid"] == [1, 2, 3, 4, 5, 6, 7]  # 8 barred; 7 chips left
    assert view["holders"][8] == [[0, 1]]


def test_s13_the_winner_starts_the_next_auction_or_the_start_player_after_s10():
    game = new_game(5, first=4)
    win_at(game, 2, 4)
    assert game.start == 2 and game.to_act() == [2] and game.auction == 2
    win_at(game, 2, 0)
    assert game.start == 2 and game.auction == 3


def test_s19_majority_the_holder_with_most_cards_of_the_digit_takes_the_price():
    game, events = holders_of_4({"payout": "majority"})
    event = sold(events)
    assert event["holders"] == [1]
    assert event["payments"] == [{"from": 0, "to": 1, "amount": 14}]
    assert game.chips[1] == 10 + 2 + 2 + 14  # bonuses of auctions 3 and 4, then the price


def test_s19_majority_tied_holders_split_and_the_rest_goes_to_the_bank():
    game = new_game(4, "red.3", "blue.3", "green.6", "yellow.7", first=0, variant="don")
    win_at(game, 0, 0)  # red.3 free to seat 0
    win_at(game, 1, 1)  # blue.3, green.6 to seat 1
    act(game, 1, "pass")  # auction 3: seats 0 and 1 hold one 3 each
    act(game, 2, "bid", 3)
    act(game, 3, "pass")
    event = sold(act(game, 0, "pass"))
    assert event["holders"] == [0, 1]
    assert [p["amount"] for p in event["payments"]] == [1, 1, 1]
    assert event["payments"][-1]["to"] is None


def test_s19_majority_with_no_holder_pays_everyone_else_as_split_does():
    game = new_game(4, first=0, variant="don")
    act(game, 0, "bid", 9)
    for seat in (1, 2):
        act(game, seat, "pass")
    assert [p["amount"] for p in sold(act(game, 3, "pass"))["payments"]] == [3, 3, 3]


def test_s20_presets_and_variant_objects():
    assert parse_variant("serengeti") == {"payout": "split"} == parse_variant(None)
    assert parse_variant("don") == {"payout": "majority"}
    assert parse_variant({}) == {"payout": "split"}
    assert parse_variant({"payout": "majority"}) == {"payout": "majority"}
    for bad in ("classic", {"payout": "all"}, {"double_payment": "split"}, 3, ["don"]):
        with pytest.raises(ValueError):
            parse_variant(bad)
    info = get_game("serengeti")
    assert info.presets == {"serengeti": {"payout": "split"}, "don": {"payout": "majority"}}
    assert info.default_preset == "serengeti" and set(info.preset_help) == set(info.presets)
    assert new_game(3, variant="don").view(None)["variant"] == {"payout": "majority"}


@pytest.mark.parametrize(("variant", "paid_for_4"), [("serengeti", [1, 3]), ("don", [1])])
def test_s11_s19_the_payout_preview_names_who_each_last_digit_would_pay(variant, paid_for_4):
    game = new_game(
        4, "brown.4", "red.4", "yellow.5", "green.4", "purple.1", "blue.3", first=1, variant=variant
    )
    win_at(game, 1, 0)
    win_at(game, 1, 0)
    win_at(game, 3, 1)  # seat 1: two 4s and a 5; seat 3: a 4, a 1 and a 3
    preview = game.view(0)["payout_preview"]
    assert preview[4] == paid_for_4 and preview[5] == [1] and preview[1] == [3]
    assert preview[0] == [1, 2, 3]  # nobody else holds a 0: everyone else
    assert game.view(3)["payout_preview"][4] == [1]  # seat 3 buying: only seat 1 holds a 4
    assert game.view(None)["payout_preview"] == game.view(game.to_act()[0])["payout_preview"]
    act(game, 3, "pass")
    event = sold(act(game, 0, "bid", 14) + act(game, 1, "pass") + act(game, 2, "pass"))
    assert [p["to"] for p in event["payments"]] == paid_for_4


@pytest.mark.parametrize("amount", [1, 2, 3, 4, 7, 10])
def test_s11_the_hint_says_whom_a_price_pays_as_the_sale_pays_it(amount, monkeypatch):
    """Issue 28 (playtests #11): the hint said a price ending in 1 pays three players, the
    bid line that 1 goes to the bank. S11: each of the three receives 1 // 3 = 0; the
    rest, all of it, goes to the bank. The hint now says what the sale then does."""
    import copy

    from modernart.engine.serengeti import hint

    game = new_game(4, first=0)
    bid = {"type": "bid", "amount": amount}
    monkeypatch.setattr(hint.HeuristicBot, "choose", lambda self, view: bid)
    said = hint.suggest(game.view(0))[1]
    words = said.rsplit("; ", 1)[1].removesuffix(" (S11).")
    sale = copy.deepcopy(game)
    act(sale, 0, "bid", amount)
    for seat in (1, 2, 3):
        events = act(sale, seat, "pass")
    paid = [p for p in sold(events)["payments"] if p.get("to") is not None and p["amount"]]
    if not paid:
        assert words == f"a price of {amount} is too little to share: it goes to the bank"
        assert sold(events)["bank"] == amount
    else:
        share = paid[0]["amount"]
        assert words == f"a price of {amount} pays {share} each to P2, P3, P4".replace(
            "P2, P3, P4", ", ".join(game.view(0)["seats"][p["to"]]["name"] for p in paid)
        )
