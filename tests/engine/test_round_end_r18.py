"""R18 the end of a round: an artist's 5th card, or a card that empties every hand."""

from collections import Counter

import pytest
from engine_helpers import (
    act,
    cyclic,
    new_game,
    of_type,
    one,
    play_through,
    run_plays,
    scripted_game,
)

from modernart.engine.modernart import ARTISTS, FULL_DECK

FOUR_KRYPTO = ["krypto.open", "krypto.once_around", "krypto.sealed", "krypto.open"]


def four_played(n: int = 4, extra: tuple[list[str], ...] = ()):
    """Seats 0..3 each take a krypto card free; then seat 0 is to play."""
    hands = [[card] for card in FOUR_KRYPTO]
    for seat, cards in enumerate(extra):
        hands[seat] += cards
    g = new_game(hands[:n] if n == 4 else hands, avoid=["krypto"])
    for seat, card in enumerate(FOUR_KRYPTO):
        play_through(g, seat % g.n, card)
    assert g.view(None)["counts"]["krypto"] == 4 and g.round == 1
    return g


def test_r18_the_5th_card_of_an_artist_ends_the_round_and_is_not_auctioned():
    g = four_played(extra=(["krypto.fixed_price"],))
    events = act(g, 0, "play", "krypto.fixed_price")
    assert [e["type"] for e in events] == ["played", "round_end", "round_start"]
    end = one(events, "round_end")
    assert end["round"] == 1 and end["counts"]["krypto"] == 5
    assert not of_type(events, "sold") and not of_type(events, "free")
    assert g.round == 2 and g.phase == "play" and g.auctioneer == 1
    assert all(seat["purchased"] == [] for seat in g.view(None)["seats"])
    assert g.view(None)["counts"] == dict.fromkeys(ARTISTS, 0)
    assert g.cards_in_play() == 70


def test_r18_a_double_as_the_5th_card_ends_the_round_before_any_second_card():
    g = four_played(extra=(["krypto.double", "krypto.open"],))
    events = act(g, 0, "play", "krypto.double")
    assert [e["type"] for e in events] == ["played", "round_end", "round_start"]
    assert g.phase == "play" and g.round == 2 and g.auctioneer == 1
    assert "krypto.open" in g.view(0)["hand"]


@pytest.mark.parametrize("adder", [0, 2])
def test_r18_a_double_whose_second_card_is_the_5th_auctions_neither(adder):
    # Three krypto taken free, then seat 3 plays a double (4th); `adder` adds the 5th.
    hands = [["krypto.open"], ["krypto.sealed"], ["krypto.once_around"], ["krypto.double"]]
    hands[adder].append("krypto.fixed_price")
    g = new_game(hands, avoid=["krypto"])
    for seat in range(3):
        play_through(g, seat, hands[seat][0])
    act(g, 3, "play", "krypto.double")
    for seat in [3, 0, 1, 2][: [3, 0, 1, 2].index(adder)]:
        act(g, seat, "decline")
    events = act(g, adder, "add", "krypto.fixed_price")
    assert [e["type"] for e in events] == ["added", "round_end", "round_start"]
    assert one(events, "round_end")["counts"]["krypto"] == 5
    # the adder played the card that ended the round (R7)
    assert one(events, "round_start")["auctioneer"] == (adder + 1) % 4
    purchased = [p for seat in g.view(None)["seats"] for p in seat["purchased"]]
    assert purchased == []
    assert g.cards_in_play() == 70


def test_r18_r20_free_and_auctioned_cards_count_towards_the_5th():
    g = four_played(extra=(["yoko.open"],))
    act(g, 0, "play", "yoko.open")
    act(g, 1, "bid", 3)
    act(g, None, "close")
    assert g.view(None)["counts"] == {**dict.fromkeys(ARTISTS, 0), "krypto": 4, "yoko": 1}


# ------------------------------------------------------------------------
# A whole scripted 4-player game in which seat 3 empties its hand by adding
# to its own doubles, so round 4 skips it, and round 4 ends by running out.


def _pools() -> dict[str, list[str]]:
    order = ("open", "once_around", "sealed", "double", "fixed_price")
    pool = Counter(FULL_DECK)
    return {a: [f"{a}.{t}" for t in order for _ in range(pool[f"{a}.{t}"])] for a in ARTISTS}


def run_out_script(double_end: bool = False):
    """Rounds 1–3 of 21 cards each (first auctioneer 2), then 5 cards in round 4.

    With `double_end`, round 4's last turn is seat 0's double to which seat 1
    adds its last card.
    """
    pools = _pools()

    def take(artist: str, card: str | None = None) -> str:
        card = card or pools[artist][0]
        pools[artist].remove(card)
        return card

    def singles(counts: dict[str, int]) -> list[str]:
        out: list[str] = []
        while any(counts.values()):
            for artist in ARTISTS:
                if counts.get(artist):
                    counts[artist] -= 1
                    out.append(take(artist))
        return out

    kr_pair = (take("krypto", "krypto.double"), take("krypto", "krypto.open"))
    kg_pair = (take("karl_gitter", "karl_gitter.double"), take("karl_gitter", "karl_gitter.open"))
    r1_singles = singles(
        {"lite_metal": 4, "yoko": 4, "christin_p": 4, "karl_gitter": 2, "krypto": 2}
    )
    r1 = [r1_singles[0], kr_pair, *r1_singles[1:4], kg_pair, *r1_singles[4:], take("yoko")]
    four_each = dict.fromkeys(ARTISTS, 4)
    r2 = [*singles(dict(four_each)), take("christin_p")]
    r3 = [*singles(dict(four_each)), take("christin_p")]
    plays = cyclic(4, 2, [r1, r2, r3])
    assert len(plays) == 19 + 21 + 21 and plays[-1][1] == 2
    if double_end:
        double = take("krypto", "krypto.double")
        r4 = [take("krypto"), take("karl_gitter"), take("krypto"), double, take("krypto")]
        return plays + [(4, seat, card) for seat, card in zip([0, 1, 2, 0, 1], r4, strict=True)]
    r4 = ["krypto", "karl_gitter", "krypto", "karl_gitter", "krypto"]
    plays += [(4, seat, take(a)) for seat, a in zip([0, 1, 2, 0, 1], r4, strict=True)]
    return plays


def test_r07_r11_r18_round_4_skips_an_empty_hand_and_ends_when_every_hand_is_empty():
    plays = run_out_script()
    g = scripted_game(4, plays, first=2)
    events = run_plays(g, [p for p in plays if p[0] < 4])
    assert g.round == 4 and g.view(None)["deck_left"] == 2
    assert [s["hand_size"] for s in g.view(None)["seats"]] == [2, 2, 1, 0]
    # R7: round 3 ended with seat 2; seat 3 has no cards, so seat 0 starts
    assert of_type(events, "round_start")[-1] == {
        "type": "round_start",
        "round": 4,
        "auctioneer": 0,
    }
    r4 = [p for p in plays if p[0] == 4]
    for (_, seat, card), next_seat in zip(r4[:-1], [1, 2, 0, 1], strict=True):
        play_through(g, seat, card)
        assert g.auctioneer == next_seat  # R11: seat 3 is skipped
    assert g.legal(3) == {} and g.view(3)["hand"] == []
    events = act(g, 1, "play", r4[-1][2])
    assert [e["type"] for e in events] == ["played", "round_end", "game_end"]
    end = one(events, "round_end")
    assert end["counts"] == {**dict.fromkeys(ARTISTS, 0), "krypto": 3, "karl_gitter": 2}
    assert end["ranking"] == ["krypto", "karl_gitter"]
    assert end["tokens"] == {"krypto": 30, "karl_gitter": 20}
    assert g.finished and g.cards_in_play() == 70


def test_r18_a_double_and_an_added_card_that_empty_every_hand_are_not_auctioned():
    plays = run_out_script(double_end=True)
    g = scripted_game(4, plays, first=2)
    run_plays(g, plays[:-2])
    assert [s["hand_size"] for s in g.view(None)["seats"]] == [1, 1, 0, 0]
    (_, _, double), (_, _, last) = plays[-2:]
    act(g, 0, "play", double)  # seat 0's last card; seat 1 still holds one
    assert g.phase == "offer"
    act(g, 0, "decline")
    assert g.legal(1) == {"add": [last], "decline": True}
    events = act(g, 1, "add", last)
    assert [e["type"] for e in events] == ["added", "round_end", "game_end"]
    end = one(events, "round_end")
    assert end["counts"]["krypto"] == 4  # not a 5th card: the hands ran out
    assert not of_type(events, "sold") and not of_type(events, "free")
    assert all(double not in s["purchased"] for s in g.view(None)["seats"])
    assert g.finished and g.cards_in_play() == 70
