"""Art Society's determinization for the shared search (engine/search.py): what a
player knows, worlds sampled to agree with it, and the expert's hooks.

Hidden in a view (A10, hidden information): the piles' order, bid cards before
the reveal, other players' hands and stacks (their white card shows only
before the first round), and which paintings went to an excess pile (only
their number shows). `Seen` keeps what the events and views told: the white
cards, every revealed round of bids, the excess paintings. A world fills the
rest with what the player cannot rule out: each pile is drawn from the
paintings of its shape never seen, unknown bids from the cards a rival may
still have held, a sealed bid already in from its hand.

The expert plays each candidate out to the end of the round and scores the
walls with the engine's own scoring (`ArtSociety.scores`, A23–A27), so it
follows the rules' revision without a copy of them.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from ..search import Searcher, margin_won, unique
from .rules import BID_CARDS, DECOR_OF, WHITE_CARDS, catalogue, cell_index, parse_variant
from .state import BID, OVER, PICK, PLACE, SETUP, ArtSociety
from .wall import Wall

View = dict[str, Any]

START = "start."


class Seen:
    """What one player learnt from the events and its views since the game began."""

    def __init__(self) -> None:
        self.white: dict[int, int] = {}  # seat -> white card (A8)
        self.bids: dict[int, list[int]] = {}  # round -> every seat's bid (A11's reveal)
        self.excess: dict[int, list[str]] = {}  # seat -> excess paintings (A17)
        self.round = 1

    def observe(self, events: Iterable[dict[str, Any]]) -> None:
        for event in events:
            kind = event.get("type")
            if kind == "reveal":
                self.bids[self.round] = list(event["bids"])
            elif kind == "round_end":
                self.round = event["round"] + 1
            elif kind == "excess":
                self.excess.setdefault(event["seat"], []).append(event["code"])

    def observe_view(self, view: View) -> None:
        if view["phase"] == SETUP:
            for s, seat in enumerate(view["seats"]):
                if seat["white"] is not None:
                    self.white[s] = seat["white"]
        if view["bids"] is not None and None not in view["bids"]:
            self.bids[view["round"]] = list(view["bids"])


def sample(view: View, seen: Any, rng: random.Random) -> ArtSociety:
    """A whole game whose `view(you)` is `view` (see the module doc)."""
    me, seats, phase = view["you"], view["seats"], view["phase"]
    n = len(seats)
    known = seen if isinstance(seen, Seen) else Seen()
    house = parse_variant(view["variant"], n)
    paintings = catalogue(house.shapes)
    g = ArtSociety.__new__(ArtSociety)
    g.players = tuple(s["name"] for s in seats)
    g.n = n
    g.house = house
    g.paintings = paintings
    g.walls = [Wall.from_view(house.cols, house.rows, s["wall"]) for s in seats]
    g.assistants = [s["assistant"]["code"] if s["assistant"] else None for s in seats]
    g.lot = [p["code"] for p in view["lot"]]
    g.museum = [p["code"] for p in view["museum"]]
    turn = view["turn"]
    g.picker = turn["seat"] if turn else None
    g.picked = turn["picked"]["code"] if turn and turn["picked"] else None
    g.bonus = turn["bonus"] if turn else 0
    g.multi = turn["multi"] if turn else False
    g.held = turn["held"] if turn else None
    g.prestige = dict(view["prestige"])
    g.decor = list(view["decor"])
    in_use = sum(1 for w in g.walls for t in w.tiles if t.code in DECOR_OF)
    in_use += sum(1 for a in g.assistants if a in DECOR_OF) + (g.held is not None)
    g.decor_lost = sum(house.decor) - sum(g.decor) - in_use
    star_mask = 0
    for star in house.stars:
        star_mask |= 1 << cell_index(star, house.cols, house.rows)  # type: ignore[operator]
    g.star_mask = star_mask
    g.starts = [_start_of(view, s) for s in range(n)]

    # Paintings never seen: the piles and the excess piles share them.
    shown = {t.code for w in g.walls for t in w.tiles} | set(g.lot) | set(g.museum)
    shown |= {a for a in g.assistants if a} | ({g.picked} if g.picked else set())
    excess: list[list[str] | None] = []
    for s, seat in enumerate(seats):
        codes = known.excess.get(s, [])
        excess.append(list(codes) if len(codes) == seat["excess"] else None)
    shown |= {c for codes in excess if codes for c in codes}
    unseen = [c for c in paintings if c not in shown and not c.startswith(START)]
    piles: dict[str, list[str]] = {}
    rest: list[str] = []
    for name, count in view["piles"].items():
        mine = [c for c in unseen if c.split(".")[0] == name]
        rng.shuffle(mine)
        piles[name], extra = mine[:count], mine[count:]
        rest += extra
    rng.shuffle(rest)
    for s, seat in enumerate(seats):
        if excess[s] is None:
            excess[s], rest = rest[: seat["excess"]], rest[seat["excess"] :]
    g.piles = piles  # top of each pile last, as the state keeps them
    g.excess = excess  # type: ignore[assignment]

    # Bid cards: hands, stacks and this round's bids.
    revealed = phase in (PICK, PLACE) or (phase == OVER and bool(view["order"]))
    whites = _whites(view, known, rng)
    hands, stacks = [], []
    for s, seat in enumerate(seats):
        if s == me:
            hands.append(list(view["hand"]))
            stacks.append(list(view["stack"]))
            continue
        played = BID_CARDS - seat["cards"]  # bid cards laid so far, this round's too
        rounds = [known.bids[r][s] for r in sorted(known.bids) if r <= view["round"]]
        rounds = rounds[:played]
        left = [c for c in range(1, BID_CARDS + 1) if c not in rounds]
        rng.shuffle(left)
        hidden, hand = left[: played - len(rounds)], sorted(left[played - len(rounds) :])
        hands.append(hand)
        stacks.append([whites[s], *rounds, *hidden])
    g.hands = hands
    g.stacks = stacks
    if phase == BID:
        g.bids = [
            view["my_bid"] if s == me else (stacks[s][-1] if s in view["bid_in"] else None)
            for s in range(n)
        ]
    elif revealed:
        g.bids = list(view["bids"])
    else:
        g.bids = [None] * n
    g.order = list(view["order"])
    g.pick_index = g.order.index(g.picker) if g.picker is not None and g.order else 0
    g.deck = {
        "piles": {name: list(reversed(p)) for name, p in piles.items()},
        "starts": [c[len(START) :] for c in g.starts],
        "white": whites,
    }
    g.first_auctioneer = whites.index(min(whites))
    g.round = view["round"]
    g.phase = phase
    g.auctioneer = view["auctioneer"]
    g.full_round = any(w.full for w in g.walls)  # A19: a wall fills only in its round's end
    g.finished = phase == OVER
    g.winners = list(view["winners"])
    g.actions = []
    return g


def _start_of(view: View, seat: int) -> str:
    """A seat's starting painting (A7): shown before it hangs, then on its wall."""
    entry = view["seats"][seat]
    if entry["start"] is not None:
        return entry["start"]["code"]
    return next(t["code"] for t in entry["wall"] if t["code"].startswith(START))


def _whites(view: View, known: Seen, rng: random.Random) -> list[int]:
    """Every seat's white card (A8): the player's own, those seen, the rest drawn."""
    me = view["you"]
    shown = [seat["white"] for seat in view["seats"]]  # before the first round (A8)
    whites = [w if w is not None else known.white.get(s) for s, w in enumerate(shown)]
    whites[me] = view["stack"][0]
    left = [c for c in WHITE_CARDS if c not in whites]
    rng.shuffle(left)
    return [w if w is not None else left.pop() for w in whites]


def clone(game: ArtSociety) -> ArtSociety:
    """A copy that shares nothing mutable with `game` (faster than deepcopy)."""
    c = ArtSociety.__new__(ArtSociety)
    c.__dict__.update(game.__dict__)
    walls = []
    for wall in game.walls:
        copy = Wall.__new__(Wall)
        copy.cols, copy.rows, copy.full_mask = wall.cols, wall.rows, wall.full_mask
        copy.occ, copy.grid, copy.tiles = wall.occ, list(wall.grid), list(wall.tiles)
        walls.append(copy)
    c.walls = walls
    c.piles = {name: list(p) for name, p in game.piles.items()}
    c.hands = [list(h) for h in game.hands]
    c.stacks = [list(s) for s in game.stacks]
    c.excess = [list(e) for e in game.excess]
    c.prestige = dict(game.prestige)
    for name in ("museum", "decor", "assistants", "lot", "bids", "order", "winners"):
        setattr(c, name, list(getattr(game, name)))
    c.actions = []
    return c


def candidates(view: View, incumbent: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The hard bot's choice, and for a bid (A10) four cards across the hand, for a
    pick (A12) every painting of the lot. Placements are the hard bot's own: playouts to
    the round's end cannot see what a spot does to the wall's later rounds, and
    searching them lost games (docs/decisions/bots.md)."""
    legal = view["legal"]
    out: list[dict[str, Any]] = [incumbent] if incumbent else []
    if "bid" in legal:
        cards = sorted(legal["bid"])
        picks = {cards[round(q * (len(cards) - 1))] for q in (0.0, 0.33, 0.67, 1.0)}
        out += [{"type": "bid", "card": c} for c in sorted(picks)]
    if "pick" in legal:
        out += [{"type": "pick", "painting": c} for c in legal["pick"]]
    return unique(out)


# What a bid card still in hand is worth at the round's end, in points: it will buy
# a better place in the order of a later round (A11).
CARD_WORTH = 0.3


def score_margin(game: ArtSociety, me: int) -> float:
    """The engine's scores (A23–A28) less the rivals', with the bid cards still held."""
    scores = game.scores()
    points = [
        sc["total"] + (0 if game.finished else CARD_WORTH * sum(game.hands[s]) / BID_CARDS)
        for s, sc in enumerate(scores)
    ]
    return margin_won(points, me, game.winners if game.finished else [])


SEARCHER = Searcher(
    sample=sample,
    seen=Seen,
    candidates=candidates,
    evaluate=score_margin,
    horizon=lambda game: game.round,
    copy=clone,
)
