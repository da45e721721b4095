"""Serengeti's determinization for the shared search (engine/search.py): what a
player knows, worlds sampled to agree with it, and the expert's hooks.

Hidden in a view (S3, S18): other players' chips and the deck's order. Chips
follow exactly from the public events (S8's pass bonus, S11's payments);
`ChipLedger` keeps them. A world takes them from the ledger when it has seen
every event (its own chips agree), else guesses each rival as rich as the
player, never below a rival's high bid; the cards not yet turned up are
shuffled into the deck's rest.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from ..search import Searcher, margin_won, unique
from .cards import DIGIT_OF, FULL_DECK, STARTING_CHIPS
from .game import OVER, SerengetiGame
from .variant import parse_variant

View = dict[str, Any]


class ChipLedger:
    """Every seat's chips, from the public events since the game's start."""

    def __init__(self) -> None:
        self.chips: dict[int, int] = {}
        self.events = 0

    def observe(self, events: Iterable[dict[str, Any]]) -> None:
        for event in events:
            self.events += 1
            kind = event.get("type")
            if kind == "pass" and event["bonus"]:
                self._earn(event["seat"], event["bonus"])
            elif kind == "bonus":
                self._earn(event["seat"], event["amount"])
            elif kind == "sold":
                for pay in event["payments"]:
                    self._earn(pay["from"], -pay["amount"])
                    if pay["to"] is not None:
                        self._earn(pay["to"], pay["amount"])

    def observe_view(self, view: View) -> None:
        pass  # a view shows only the player's own chips

    def _earn(self, seat: int, amount: int) -> None:
        self.chips[seat] = self.chips.get(seat, STARTING_CHIPS) + amount

    def chips_of(self, seat: int) -> int:
        return self.chips.get(seat, STARTING_CHIPS)

    def agrees_with(self, view: View) -> bool:
        """True if it has seen events and the player's own chips match."""
        return bool(self.events) and self.chips_of(view["you"]) == view["chips"]


def sample(view: View, seen: Any, rng: random.Random) -> SerengetiGame:
    """A whole game whose `view(you)` is `view`: rivals' chips from the ledger (or a
    guess), the cards never seen shuffled into the deck's rest."""
    me, seats = view["you"], view["seats"]
    n = len(seats)
    g = SerengetiGame.__new__(SerengetiGame)
    g.players = tuple(s["name"] for s in seats)
    g.n = n
    g.variant = parse_variant(view["variant"], n)
    trusted = isinstance(seen, ChipLedger) and seen.agrees_with(view)
    chips = [seen.chips_of(s) if trusted else view["chips"] for s in range(n)]
    chips[me] = view["chips"]
    high = view["high"]
    if high is not None:
        chips[high["seat"]] = max(chips[high["seat"]], high["amount"])
    g.chips = chips
    g.owned = [list(s["owned"]) for s in seats]
    g.digits = [[0] * 10 for _ in range(n)]
    for s, owned in enumerate(g.owned):
        for card in owned:
            g.digits[s][DIGIT_OF[card]] += 1
    shown = {c for owned in g.owned for c in owned} | set(view["lot"])
    future = [c for c in FULL_DECK if c not in shown]
    rng.shuffle(future)
    turned = [c for owned in g.owned for c in owned] + list(view["lot"])
    g.deck = tuple(turned + future)
    g.deck_pos = len(turned)
    g.actions = []
    g.winners = list(view["winners"])
    g.finished = view["phase"] == OVER
    g.scores = None
    g.tiebreak = ""
    g.first_auctioneer = 0  # a record's fact, not a rule's: worlds keep no record
    g.auction = view["auction"]
    g.start = view["start"]
    g.lot = list(view["lot"])
    g.turn = view["to_act"][0] if view["to_act"] else None
    g.high_amount, g.high_seat = (high["amount"], high["seat"]) if high else (0, None)
    g.passed = set(view["passed"])
    g.decided = set(view["decided"])
    g.start_bonus_due = view["start_bonus_due"]
    return g


def clone(game: SerengetiGame) -> SerengetiGame:
    """A copy that shares nothing mutable with `game` (faster than deepcopy)."""
    c = SerengetiGame.__new__(SerengetiGame)
    for name in SerengetiGame.__slots__:
        setattr(c, name, getattr(game, name))
    c.chips = list(game.chips)
    c.owned = [list(o) for o in game.owned]
    c.digits = [list(d) for d in game.digits]
    c.actions = []
    c.winners = list(game.winners)
    c.lot = list(game.lot)
    c.passed = set(game.passed)
    c.decided = set(game.decided)
    return c


def candidates(view: View, incumbent: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The hard bot's choice, pass, the four lowest legal bids and two higher ones."""
    out: list[dict[str, Any]] = [incumbent] if incumbent else []
    out.append({"type": "pass"})
    amounts = view["legal"].get("bid", [])
    picks = amounts[:4] + amounts[4:12:4]
    out += [{"type": "bid", "amount": a} for a in picks]
    return unique(out)


def points_margin(game: SerengetiGame, me: int) -> float:
    """The final points (S15, S16) less the rivals', and a win (S17) worth 5 points."""
    assert game.scores is not None
    points = [s["points"] for s in game.scores]
    return margin_won(points, me, game.winners)


SEARCHER = Searcher(
    sample=sample,
    seen=ChipLedger,
    candidates=candidates,
    evaluate=points_margin,
    copy=clone,
)
