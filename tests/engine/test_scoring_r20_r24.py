"""R20–R24 scoring: counts, ranking with board-order ties, cumulative tokens, sales."""

from collections import Counter

from engine_helpers import cyclic, new_game, of_type, one, play_through, run_plays, scripted_game

from modernart.engine.modernart import ARTISTS, FULL_DECK

LM, YO, CP, KG, KR = ARTISTS


class Cards:
    """Draws cards of an artist that can be auctioned free (no fixed price)."""

    def __init__(self) -> None:
        self.left = Counter(FULL_DECK)

    def __call__(self, artist: str) -> str:
        for kind in ("open", "once_around", "sealed", "double"):
            card = f"{artist}.{kind}"
            if self.left[card]:
                self.left[card] -= 1
                return card
        raise AssertionError(f"no more free-auctionable {artist} cards")


def r24_example_script():
    """RULES.md's example: Krypto 1st in round 1, 3rd in round 2, 4th in round 3, 2nd in round 4."""
    c = Cards()
    r1 = [c(LM), c(YO), c(KR), c(KR), c(KR), c(KR), c(KR)]  # KR 5, LM 1, YO 1
    r2 = [c(YO), c(LM), c(KR), c(YO), c(LM), c(KR), c(YO), c(LM), c(LM), c(LM)]  # LM 5 YO 3 KR 2
    r3 = [c(CP), c(YO), c(KR), c(KG), c(CP), c(YO), c(KG), c(KG), c(KG), c(KG)]  # KG 5 YO 2 CP 2
    r4 = [c(KR), c(KG), c(KR), c(KG), c(KG), c(KG), c(KG)]  # KG 5 KR 2
    return cyclic(4, 0, [r1, r2, r3, r4])


def test_r20_r24_tokens_accumulate_and_artists_outside_the_top_three_sell_for_0():
    plays = r24_example_script()
    g = scripted_game(4, plays)
    events = run_plays(g, plays)
    ends = of_type(events, "round_end")
    assert [e["round"] for e in ends] == [1, 2, 3, 4]
    assert [e["ranking"] for e in ends] == [
        [KR, LM, YO],  # R21: LM and YO tied on 1, board order puts LM first
        [LM, YO, KR],
        [KG, YO, CP, KR],  # YO and CP tied on 2: YO first; KR 4th
        [KG, KR],
    ]
    assert [e["tokens"] for e in ends] == [
        {KR: 30, LM: 20, YO: 10},
        {LM: 30, YO: 20, KR: 10},
        {KG: 30, YO: 20, CP: 10},
        {KG: 30, KR: 20},
    ]
    # R23 / the R24 example: Krypto sells for 30, 40, 0, 60
    assert [e["values"][KR] for e in ends] == [30, 40, 0, 60]
    assert [e["values"][LM] for e in ends] == [20, 50, 0, 0]  # LM not in round 3's top three
    assert [e["values"][YO] for e in ends] == [10, 30, 50, 0]
    assert [e["values"][KG] for e in ends] == [0, 0, 30, 60]
    assert g.tokens == {
        LM: [20, 30, 0, 0],
        YO: [10, 20, 20, 0],
        CP: [0, 0, 10, 0],
        KG: [0, 0, 30, 30],
        KR: [30, 10, 0, 20],
    }
    # R24: each seat sells what it took this round (every auction here went free)
    for r, end in enumerate(ends, start=1):
        expected = [0, 0, 0, 0]
        round_plays = [p for p in plays if p[0] == r][:-1]  # the ending card is not sold
        for _, seat, card in round_plays:
            expected[seat] += end["values"][card.split(".")[0]]
        assert end["sales"] == expected, r
    total = [100 + sum(e["sales"][s] for e in ends) for s in range(4)]
    assert g.money == total
    assert one(events, "game_end")["money"] == total


def test_r24_purchases_are_discarded_and_hands_kept_after_scoring():
    c = Cards()
    plays = cyclic(3, 0, [[c(KR), c(KR), c(KR), c(KR), c(KR)]])
    g = scripted_game(3, plays, avoid=[KR])
    hands = {s: sorted(g.view(s)["hand"]) for s in range(3)}
    events = run_plays(g, plays)
    end = one(events, "round_end")
    assert end["ranking"] == [KR] and end["tokens"] == {KR: 30}  # R22: fewer than three
    assert end["values"] == {**dict.fromkeys(ARTISTS, 0), KR: 30}
    assert end["sales"] == [60, 30, 30]  # seat 0 took two, 1 and 2 one each
    assert g.money == [160, 130, 130]
    for s in range(3):
        view = g.view(s)
        assert view["seats"][s]["purchased"] == []
        kept = list(hands[s])
        for _, seat, card in plays:
            if seat == s:
                kept.remove(card)
        assert not Counter(kept) - Counter(view["hand"])  # R24: cards in hand are kept
        assert len(view["hand"]) == len(kept) + 6  # plus round 2's deal (R6)
    assert g.cards_in_play() == 70


def test_r21_r22_two_artists_only_get_two_tokens():
    c = Cards()
    plays = cyclic(4, 1, [[c(YO), c(KR), c(KR), c(KR), c(KR), c(KR)]])
    g = scripted_game(4, plays, first=1)
    end = one(run_plays(g, plays), "round_end")
    assert end["ranking"] == [KR, YO] and end["tokens"] == {KR: 30, YO: 20}
    assert g.tokens[LM] == [0, 0, 0, 0]


def test_r21_ties_are_broken_by_board_order_not_by_play_order():
    c = Cards()
    # KR, KG, CP, YO, LM two each (played in reverse board order), then CP 3rd, 4th and 5th.
    turns = [c(KR), c(KG), c(CP), c(YO), c(LM), c(KR), c(KG), c(CP), c(YO), c(LM)]
    turns += [c(CP), c(CP), c(CP)]
    plays = cyclic(5, 0, [turns])
    g = scripted_game(5, plays)
    end = one(run_plays(g, plays), "round_end")
    assert end["ranking"] == [CP, LM, YO, KG, KR]
    assert end["tokens"] == {CP: 30, LM: 20, YO: 10}
    assert end["values"][KG] == 0 and end["values"][KR] == 0


def test_r23_values_in_the_view_show_what_a_painting_would_sell_for_now():
    g = new_game([[c] for c in ("krypto.open", "yoko.open", "krypto.sealed")], avoid=[KR, YO])
    play_through(g, 0, "krypto.open")
    assert g.view(None)["values"] == {**dict.fromkeys(ARTISTS, 0), KR: 30}
    play_through(g, 1, "yoko.open")
    # tied on one card each: board order puts Yoko first (R21)
    assert g.view(2)["values"] == {**dict.fromkeys(ARTISTS, 0), YO: 30, KR: 20}
