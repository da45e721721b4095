"""Determinization for the expert bot: what one player knows, and whole games
sampled to agree with it.

`PublicMemory` keeps what the public events tell (RECORD.md events as the
engine returns them, or PROTOCOL.md `update` events): every card that has
left a hand face up, and every player's money, which is hidden in views but
follows exactly from the public payments (R4, R10, R17, R24). Fed views
only, it still remembers the cards they showed.

`sample_world(view, memory, rng)` builds a `Game` whose `view(you)` equals
the given view: the hidden parts (other hands, the virtual hand, the deck's
rest, sealed bids already in, and money if the memory cannot tell) are drawn
from what the player cannot rule out. It reads nothing but its arguments.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

from ..cards import CARD_ORDER, COPIES, DECK_SIZE, STARTING_MONEY
from ..game import Game
from ..phases import BUY, CLOCKWISE, OFFER, ONCE_AROUND, SEALED
from ..variant import parse_variant


class PublicMemory:
    """What the public events since the game's start tell one player."""

    def __init__(self) -> None:
        self.gone: Counter[str] = Counter()  # cards played, added or turned, ever
        self.money: dict[int, int] = {}  # seat -> money, for seats seen in events
        self.events = 0
        # Without events: cards seen face up in views, summed over past rounds,
        # and this round's (a card stays in sight until the round ends).
        self.shown: Counter[str] = Counter()
        self.shown_round: tuple[int, Counter[str]] = (0, Counter())

    def observe_view(self, view: dict[str, Any]) -> None:
        """Remember the cards a view shows face up: once seen they are out of every
        hidden place for good, so even a bot given no events rules them out later."""
        round_no, seen = self.shown_round
        if view["round"] < round_no:  # a new game
            self.shown = Counter()
        elif view["round"] > round_no:
            self.shown += seen
        else:
            self.shown_round = (round_no, seen | visible_cards(view))
            return
        self.shown_round = (view["round"], visible_cards(view))

    def seen_cards(self, trusted: bool) -> Counter[str]:
        """Cards known to have left the hands: from events if `trusted`, and views."""
        seen = self.shown + self.shown_round[1]
        return seen | self.gone if trusted else seen

    def observe(self, events: Iterable[dict[str, Any]]) -> None:
        """Take in events in order; unknown event types are ignored."""
        for event in events:
            self.events += 1
            kind = event.get("type")
            if kind in ("played", "added", "turned"):
                self.gone[event["card"]] += 1
            elif kind == "sold":
                for pay in event["payments"]:
                    self._earn(pay["from"], -pay["amount"])
                    if pay["to"] is not None:
                        self._earn(pay["to"], pay["amount"])
            elif kind == "round_end":
                for seat, amount in enumerate(event["sales"]):
                    self._earn(seat, amount)

    def _earn(self, seat: int, amount: int) -> None:
        self.money[seat] = self.money.get(seat, STARTING_MONEY) + amount

    def money_of(self, seat: int) -> int:
        return self.money.get(seat, STARTING_MONEY)

    def agrees_with(self, view: dict[str, Any]) -> bool:
        """True if the memory can be trusted for this view: it has seen every event
        since the start (checked as far as the view allows: own money, cards)."""
        if not self.events or self.money_of(view["you"]) != view["money"]:
            return False
        return not (visible_cards(view) - self.gone)


def visible_cards(view: dict[str, Any]) -> Counter[str]:
    """Cards the view shows face up this round: bought, on the table, turned (R29)."""
    seen: Counter[str] = Counter()
    for seat in view["seats"]:
        seen.update(seat["purchased"])
    if view["lot"]:
        seen.update(view["lot"]["cards"])
    if view["virtual"]:
        seen.update(view["virtual"]["turned"])
    return seen


def unseen_cards(
    view: dict[str, Any], memory: PublicMemory | None, trusted: bool = False
) -> Counter[str]:
    """Cards the player has never seen: other hands, the virtual hand, the deck's
    rest and (without every event) some cards discarded in earlier rounds."""
    known = visible_cards(view)
    if memory is not None:
        known |= memory.seen_cards(trusted)
    known.update(view["hand"])
    return Counter(COPIES) - known


def sample_world(
    view: dict[str, Any],
    memory: PublicMemory | None,
    rng: random.Random,
    sealed_guess: Any = None,
) -> Game:
    """A whole game consistent with `view` (and with `memory` when it agrees).

    `sealed_guess(world, seat) -> int` guesses a sealed bid already in (R14);
    by default a share of the bidder's money drawn at random.
    """
    me = view["you"]
    seats = view["seats"]
    n = len(seats)
    trusted = memory if memory is not None and memory.agrees_with(view) else None
    g = Game.__new__(Game)
    g.players = tuple(s["name"] for s in seats)
    g.n = n
    g.all_seats = tuple(range(n))
    g.from_left = CLOCKWISE[n]
    g.variant = parse_variant(view["variant"], n)
    virtual = view["virtual"]
    g.hands_count = n + 1 if virtual is not None else n
    g.virtual = n if virtual is not None else None
    g.after = CLOCKWISE[g.hands_count]
    g.first_auctioneer = view["auctioneer"]
    g.round = view["round"]
    g.tokens = {a: list(t) for a, t in view["tokens"].items()}
    g.counts = dict(view["counts"])
    g.purchased = [list(s["purchased"]) for s in seats]
    g.turned = list(virtual["turned"]) if virtual is not None else []
    lot = view["lot"]
    g.lot = list(lot["cards"]) if lot else []
    g.lot_type = lot["type"] if lot else ""
    g.seller = lot["seller"] if lot else -1
    g.original = lot["original"] if lot else None
    g.played = g.turned + g.lot
    g.phase = view["phase"]
    g.finished = view["finished"]
    g.winners = list(view["winners"])
    g.auctioneer = view["auctioneer"]
    high = view["high"]
    g.high_amount, g.high_seat = (high["amount"], high["seat"]) if high else (0, None)
    g.passed = set(view["passed"])
    g.price = view["price"] or 0
    g.actions = []
    g.order, g.turn = _turn_order(g, view)

    # Money: exact from the memory, else a guess (every rival as rich as me),
    # never below what the view shows a rival has bid.
    money = [trusted.money_of(s) if trusted else view["money"] for s in range(n)]
    money[me] = view["money"]
    if g.high_seat is not None:
        money[g.high_seat] = max(money[g.high_seat], g.high_amount)
    g.money = money

    # Hidden cards: other hands, then the virtual hand, then the deck's rest.
    pool = list(unseen_cards(view, memory, trusted is not None).elements())
    rng.shuffle(pool)
    hands: list[list[str]] = []
    for s in range(g.hands_count):
        if s == me:
            hands.append(list(view["hand"]))
            continue
        size = seats[s]["hand_size"] if s < n else virtual["hand_size"]
        hand, pool = pool[:size], pool[size:]
        if s < n:
            hand.sort(key=CARD_ORDER.__getitem__)
        hands.append(hand)
    g.hands = hands
    left = view["deck_left"]
    future = pool[:left]
    dealt = list((Counter(COPIES) - Counter(future)).elements())
    g.deck = tuple(dealt + future)
    g.deck_pos = DECK_SIZE - left
    g.discarded = (
        DECK_SIZE - left - sum(map(len, hands)) - len(g.played) - sum(map(len, g.purchased))
    )
    g.sealed = {}
    if g.phase == SEALED:
        if view["my_sealed"] is not None:
            g.sealed[me] = view["my_sealed"]
        for s in view["sealed_in"]:
            if s != me:
                guess = sealed_guess(g, s) if sealed_guess else rng.randint(0, money[s] // 3)
                g.sealed[s] = max(0, min(money[s], guess))
    return g


def _turn_order(g: Game, view: dict[str, Any]) -> tuple[list[int], int]:
    """The turn order of an offer (R16), a lap (R13) or a fixed price (R15), and whose
    turn it is in it, from the view's public facts."""
    phase = g.phase
    if phase == OFFER:
        order = list(view["offer_order"])
    elif phase == ONCE_AROUND:
        order = list(g.from_left[g.seller])
    elif phase == BUY:
        order = list(g.from_left[g.seller][:-1])
    else:
        return [], 0
    return order, order.index(view["to_act"][0])


def clone(game: Game) -> Game:
    """A copy of `game` that shares nothing mutable with it (faster than deepcopy)."""
    c = Game.__new__(Game)
    for name in Game.__slots__:
        setattr(c, name, getattr(game, name))
    c.hands = [list(h) for h in game.hands]
    c.money = list(game.money)
    c.purchased = [list(p) for p in game.purchased]
    c.played = list(game.played)
    c.counts = dict(game.counts)
    c.tokens = {a: list(t) for a, t in game.tokens.items()}
    c.turned = list(game.turned)
    c.actions = []
    c.winners = list(game.winners)
    c.lot = list(game.lot)
    c.order = list(game.order)
    c.passed = set(game.passed)
    c.sealed = dict(game.sealed)
    return c
