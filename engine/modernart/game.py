"""The rules of Modern Art (RULES.md R1–R30) as one mutable game state.

`Game.apply(action)` validates an action completely before it changes
anything, so a refused action (a `RuleError`) leaves the game untouched.
`Game.legal(seat)` and `Game.view(seat)` are the only ways the state leaves
towards a player; `view` is where secrecy lives (R4, R14).

Turn positions: seats 0..n-1 are the players; with the virtual player (R29)
position n is its hand, sitting between seat n-1 and seat 0.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..actionlog import ActionLog
from ..errors import Illegal, InsufficientFunds, NotYourTurn, TooLow
from ..games import Action, Event, first_seat, seat_players, shuffled_deck
from .cards import (
    ARTIST_OF,
    ARTISTS,
    CARD_CODES,
    CARD_ORDER,
    CARDS_TO_END_ROUND,
    DEAL,
    FULL_DECK,
    ROUNDS,
    STARTING_MONEY,
    TOKENS,
    TYPE_OF,
    is_card,
    is_deck,
)
from .variant import Variant, parse_variant

# Phases of a turn.
PLAY = "play"  # the auctioneer must play a card (R8)
OFFER = "offer"  # a double is on offer for a second card (R16)
OPEN = "open"  # R12
ONCE_AROUND = "once_around"  # R13
SEALED = "sealed"  # R14
PRICE = "price"  # fixed price: the auctioneer names it (R15)
BUY = "buy"  # fixed price: the others buy or pass in turn (R15)
OVER = "over"  # R25


# R16: for each double, the cards that may be added to it (same artist, not a double).
ADDABLE_TO: dict[str, frozenset[str]] = {
    card: frozenset(
        c for c in CARD_CODES if ARTIST_OF[c] == ARTIST_OF[card] and TYPE_OF[c] != "double"
    )
    for card in CARD_CODES
}

# CLOCKWISE[count][p]: around a table of `count` turn positions, every position
# clockwise from p's left, p itself last. Built once: games only look orders up.
CLOCKWISE: dict[int, tuple[tuple[int, ...], ...]] = {
    count: tuple(tuple((p + i) % count for i in range(1, count + 1)) for p in range(count))
    for count in DEAL
}


class Game:
    """One game of Modern Art, from the deal to R25's end."""

    game_name = "modernart"  # its name in the registry (engine/games.py)

    # Slots: attribute access is on every action's hot path (docs/benchmarks.md, "Engine").
    __slots__ = (
        "actions",
        "after",
        "all_seats",
        "auctioneer",
        "counts",
        "deck",
        "deck_pos",
        "discarded",
        "finished",
        "first_auctioneer",
        "from_left",
        "hands",
        "hands_count",
        "high_amount",
        "high_seat",
        "lot",
        "lot_type",
        "money",
        "n",
        "order",
        "original",
        "passed",
        "phase",
        "played",
        "players",
        "price",
        "purchased",
        "round",
        "sealed",
        "seller",
        "tokens",
        "turn",
        "turned",
        "variant",
        "virtual",
        "winners",
    )

    def __init__(
        self,
        players: Sequence[str],
        variant: object = None,
        deck: Sequence[str] | None = None,
        seed: int | str | None = None,
        first_auctioneer: int | None = None,
    ) -> None:
        self.players = seat_players(players, DEAL, "a game needs 3 to 5 players (R5)")
        self.n = n = len(players)
        self.all_seats: tuple[int, ...] = tuple(range(n))
        # from_left[s]: every player clockwise from s's left, s last (R13, R15, R16).
        self.from_left = CLOCKWISE[n]
        self.variant: Variant = parse_variant(variant, n)
        rng = random.Random(seed)
        why = "the deck must be a permutation of the 70 cards of R3"
        self.deck = shuffled_deck(deck, FULL_DECK, is_deck, rng, why)
        first_auctioneer = first_seat(first_auctioneer, n, rng, "first_auctioneer")
        self.first_auctioneer = first_auctioneer
        # With the virtual player there is one more hand, dealt as for n+1 (R29).
        self.hands_count = n + 1 if self.variant.virtual_player else n
        self.virtual: int | None = n if self.variant.virtual_player else None
        # after[p]: every turn position clockwise from p's left, p last (R7, R11, R29).
        self.after = CLOCKWISE[self.hands_count]

        self.deck_pos = 0
        self.hands: list[list[str]] = [[] for _ in range(self.hands_count)]
        self.money: list[int] = [STARTING_MONEY] * n
        self.purchased: list[list[str]] = [[] for _ in range(n)]
        self.played: list[str] = []  # on the table this round and not bought
        self.discarded = 0
        self.counts: dict[str, int] = dict.fromkeys(ARTISTS, 0)
        self.tokens: dict[str, list[int]] = {a: [0] * ROUNDS for a in ARTISTS}
        self.round = 1
        self.turned: list[str] = []  # the virtual player's cards this round
        self.actions: ActionLog | list[Action] = ActionLog()  # packed (engine/actionlog.py)
        self.winners: list[int] = []

        # The turn and its auction.
        self.phase = PLAY
        # True once the phase is OVER (R25). A plain attribute rather than a
        # property: game loops test it before every action.
        self.finished = False
        self.auctioneer = first_auctioneer  # whose turn it is to play (R8, R11)
        self.lot: list[str] = []
        self.lot_type = ""
        self.seller = -1  # who runs this auction (R16: the adder, once added)
        self.original: int | None = None  # R16/R17: first auctioneer when another added
        self.order: list[int] = []  # offer / once-around / buy order
        self.turn = 0  # index into order
        self.high_amount = 0
        self.high_seat: int | None = None
        self.passed: set[int] = set()
        self.sealed: dict[int, int] = {}
        self.price = 0

        self._deal()
        self._begin_turn(first_auctioneer, [])

    # ------------------------------------------------------------------ facts

    def to_act(self) -> list[int]:
        """Seats whose decision the game is waiting for now."""
        # Phases are tested most frequent first: this runs before every action.
        phase = self.phase
        if phase == OPEN:
            high_seat, passed = self.high_seat, self.passed
            return [s for s in self.all_seats if s != high_seat and s not in passed]
        if phase == PLAY:
            return [self.auctioneer]
        if phase == SEALED:
            sealed = self.sealed
            return [s for s in self.all_seats if s not in sealed]
        if phase == PRICE:
            return [self.seller]
        if phase == OVER:
            return []
        return [self.order[self.turn]]  # OFFER, ONCE_AROUND, BUY: one seat in turn

    def realtime(self) -> bool:
        """R12: an open auction runs on the server's clock (its hammer is `close`)."""
        return self.phase == OPEN

    def legal(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may send now, with bounds (PROTOCOL.md `legal`)."""
        if seat is None or not 0 <= seat < self.n:
            return {}
        phase = self.phase
        money = self.money[seat]
        if phase == OPEN:
            high_seat = self.high_seat
            low = self.high_amount + 1 if high_seat is not None else 1
            if seat == high_seat or seat in self.passed:  # R12: they may bid, not pass
                return {"bid": [low, money]} if money >= low else {}
            return {"bid": [low, money], "pass": True} if money >= low else {"pass": True}
        if phase == PLAY:
            if seat == self.auctioneer:
                return {"play": list(dict.fromkeys(self.hands[seat]))}  # hands are sorted
            return {}
        if phase == SEALED:
            return {} if seat in self.sealed else {"sealed": [0, money]}
        if phase == PRICE:
            return {"price": [min(1, money), money]} if seat == self.seller else {}
        if phase == OVER or seat != self.order[self.turn]:
            return {}
        if phase == OFFER:
            return {"add": self._addable(seat), "decline": True}
        if phase == ONCE_AROUND:
            low = self.high_amount + 1 if self.high_seat is not None else 1
            return {"bid": [low, money], "pass": True} if money >= low else {"pass": True}
        # BUY
        return {"buy": True, "pass": True} if money >= self.price else {"pass": True}

    def _addable(self, seat: int) -> list[str]:
        """R16: cards of the double's artist that are not doubles (a sorted hand keeps order)."""
        addable = ADDABLE_TO[self.lot[0]]
        return [c for c in dict.fromkeys(self.hands[seat]) if c in addable]

    def values(self) -> dict[str, int]:
        """What a painting of each artist would sell for if the round ended now (R21–R23)."""
        ranking = self._ranking()
        out = dict.fromkeys(ARTISTS, 0)
        for place, artist in enumerate(ranking[: len(TOKENS)]):
            out[artist] = sum(self.tokens[artist]) + TOKENS[place]
        return out

    def _ranking(self) -> list[str]:
        """R21: artists with cards played this round, most first, ties by board order."""
        counts = self.counts
        played = [a for a in ARTISTS if counts[a]]
        return sorted(played, key=lambda a: -counts[a])  # stable: board order breaks ties

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything `seat` may know (None: a spectator) as plain data; nothing else."""
        you = seat if seat is not None and 0 <= seat < self.n else None
        over = self.phase == OVER
        auction = self.phase in (OPEN, ONCE_AROUND, SEALED, PRICE, BUY, OFFER)
        lot = None
        if auction:
            lot = {
                "cards": list(self.lot),
                "type": self.lot_type,
                "seller": self.seller,
                "original": self.original,
            }
        high = None
        if self.phase in (OPEN, ONCE_AROUND) and self.high_seat is not None:
            high = {"amount": self.high_amount, "seat": self.high_seat}
        seats = [
            {
                "name": self.players[s],
                "hand_size": len(self.hands[s]),
                "purchased": list(self.purchased[s]),
                "money": self.money[s] if over or s == you else None,
            }
            for s in range(self.n)
        ]
        view: dict[str, Any] = {
            "you": you,
            "round": self.round,
            "phase": self.phase,
            "auctioneer": self.auctioneer,
            "lot": lot,
            "high": high,
            "price": self.price if self.phase == BUY else None,
            "to_act": self.to_act(),
            "tokens": {a: list(t) for a, t in self.tokens.items()},
            "counts": dict(self.counts),
            "values": self.values(),
            "seats": seats,
            "hand": list(self.hands[you]) if you is not None else [],
            "money": self.money[you] if you is not None else None,
            "legal": self.legal(you),
            "passed": sorted(self.passed) if self.phase == OPEN else [],
            "sealed_in": sorted(self.sealed) if self.phase == SEALED else [],
            "my_sealed": self.sealed.get(you) if self.phase == SEALED else None,
            "offer_order": list(self.order) if self.phase == OFFER else [],
            "virtual": (
                {"hand_size": len(self.hands[self.virtual]), "turned": list(self.turned)}
                if self.virtual is not None
                else None
            ),
            "deck_left": len(self.deck) - self.deck_pos,
            "variant": self.variant.to_dict(),
            "finished": over,
            "winners": list(self.winners),
        }
        return view

    # ---------------------------------------------------------------- actions

    def apply(self, action: Action) -> list[Event]:
        """Apply one RECORD.md action; return its events or raise a RuleError.

        Everything is checked before anything changes, so an error leaves the
        game exactly as it was.
        """
        try:
            kind = action["type"]
            field, handler = ACTIONS[kind]
        except (KeyError, TypeError):  # not a map, no type, or an unknown type
            raise Illegal(f"not an action: {action!r}"[:200]) from None
        if self.finished:
            raise Illegal("the game is over (R25)")
        events: list[Event] = []
        if kind == "close":  # the hammer (R12) is nobody's action: no seat, nothing else
            handler(self, -1, None, events)
            self.actions.append({"type": "close"})
            return events
        seat = action.get("seat")
        if type(seat) is not int or not 0 <= seat < self.n:
            raise Illegal(f"seat must be a player's seat from 0 to {self.n - 1}")
        argument = None
        if field is not None:
            argument = action.get(field)
            if field == "amount":
                if type(argument) is not int:
                    raise Illegal(f"{kind} needs an integer amount")
            elif not is_card(argument):
                raise Illegal(f"{argument!r} is not a card code (R3)")
        handler(self, seat, argument, events)
        self.actions.append(dict(action))
        return events

    def _require(self, phase: str, why: str) -> None:
        """Refuse, saying `why`, an action that belongs to another phase."""
        if self.phase != phase:
            raise Illegal(why)

    def _play(self, seat: int, card: str, events: list[Event]) -> None:
        """R8: the auctioneer plays a card; R18 may end the round at once."""
        self._require(PLAY, "no card can be played now")
        if seat != self.auctioneer:
            raise NotYourTurn(f"it is {self.players[self.auctioneer]}'s turn to play")
        hand = self.hands[seat]
        if card not in hand:
            raise Illegal(f"{card} is not in your hand")
        hand.remove(card)
        self.played.append(card)
        events.append({"type": "played", "seat": seat, "card": card})
        if self._ends_round(card):
            self._end_round(seat, events)
            return
        self.lot = [card]
        self.seller = seat
        self.original = None
        lot_type = self.lot_type = TYPE_OF[card]
        if lot_type == "double":
            # R16: offered to the auctioneer first, then clockwise to every player.
            self.phase = OFFER
            self.order = [seat, *self.from_left[seat][:-1]]
            self.turn = 0
        else:
            self._open_auction()

    def _ends_round(self, card: str) -> bool:
        """R18: count the card; True if it is an artist's 5th or every hand is empty."""
        counts = self.counts
        artist = ARTIST_OF[card]
        counts[artist] += 1
        return counts[artist] >= CARDS_TO_END_ROUND or not any(self.hands)

    def _add(self, seat: int, card: str, events: list[Event]) -> None:
        """R16: the player being offered the double adds a second card."""
        self._check_offer(seat)
        hand = self.hands[seat]
        if card not in hand:
            raise Illegal(f"{card} is not in your hand")
        if card not in ADDABLE_TO[self.lot[0]]:
            raise Illegal("the second card must be the same artist and not a double (R16)")
        hand.remove(card)
        self.played.append(card)
        self.lot.append(card)
        events.append({"type": "added", "seat": seat, "card": card})
        if self._ends_round(card):
            self._end_round(seat, events)
            return
        if seat != self.seller:  # R16: the adder becomes this auction's auctioneer
            self.original = self.seller
            self.seller = seat
            self.auctioneer = seat
        self.lot_type = TYPE_OF[card]
        self._open_auction()

    def _decline(self, seat: int, _: None, events: list[Event]) -> None:
        """R16: decline to add; when everyone has, the auctioneer takes the double free."""
        self._check_offer(seat)
        events.append({"type": "declined", "seat": seat})
        turn = self.turn = self.turn + 1
        if turn == len(self.order):
            self._give_free(events)

    def _check_offer(self, seat: int) -> None:
        self._require(OFFER, "no double is on offer")
        if seat != self.order[self.turn]:
            raise NotYourTurn(f"the double is offered to {self.players[self.order[self.turn]]}")

    def _open_auction(self) -> None:
        """Start the auction of the lot by its type (R12–R15)."""
        kind = self.lot_type
        self.high_amount, self.high_seat = 0, None
        if kind == "open":
            self.phase = OPEN
            self.passed = set()
        elif kind == "once_around":
            # R13: from the auctioneer's left, clockwise; the auctioneer last.
            self.phase = ONCE_AROUND
            self.order = list(self.from_left[self.seller])
            self.turn = 0
        elif kind == "sealed":
            self.phase = SEALED
            self.sealed = {}
        else:
            self.phase = PRICE

    def _bid(self, seat: int, amount: int, events: list[Event]) -> None:
        """R12 (open, any time) and R13 (once-around, in turn)."""
        phase = self.phase
        if phase == ONCE_AROUND:
            if seat != self.order[self.turn]:
                raise NotYourTurn(f"it is {self.players[self.order[self.turn]]}'s turn to bid")
        elif phase != OPEN:
            raise Illegal("no open or once-around auction is running")
        low = self.high_amount + 1 if self.high_seat is not None else 1
        if amount < low:
            raise TooLow(f"a bid must be at least {low}")
        money = self.money[seat]
        if amount > money:
            raise InsufficientFunds(f"you have only {money}")
        self.high_amount, self.high_seat = amount, seat
        events.append({"type": "bid", "seat": seat, "amount": amount})
        if phase == OPEN:
            passed = self.passed
            passed.discard(seat)
            if len(passed) == self.n - 1:
                self._sell(seat, amount, events)
        else:
            self._next_bidder(events)

    def _pass(self, seat: int, _: None, events: list[Event]) -> None:
        phase = self.phase
        if phase == OPEN:
            high_seat, passed = self.high_seat, self.passed
            if seat == high_seat:
                raise Illegal("the high bidder may not pass (R12)")
            if seat in passed:
                raise Illegal("you have already passed (R12)")
            passed.add(seat)
            events.append({"type": "pass", "seat": seat})
            if high_seat is None:
                if len(passed) == self.n:
                    self._give_free(events)
            elif len(passed) == self.n - 1:
                self._sell(high_seat, self.high_amount, events)
        elif phase in (ONCE_AROUND, BUY):
            order, turn = self.order, self.turn
            if seat != order[turn]:
                raise NotYourTurn(f"it is {self.players[order[turn]]}'s turn")
            events.append({"type": "pass", "seat": seat})
            if phase == ONCE_AROUND:
                self._next_bidder(events)
            else:
                self.turn = turn + 1
                if turn + 1 == len(order):
                    # R15: nobody bought; the auctioneer must buy at the price.
                    self._sell(self.seller, self.price, events)
        else:
            raise Illegal("there is nothing to pass on now")

    def _next_bidder(self, events: list[Event]) -> None:
        """R13: one lap; after the auctioneer the highest bid wins."""
        self.turn += 1
        if self.turn == len(self.order):
            self._hammer(events)

    def _close(self, _seat: int, _: None, events: list[Event]) -> None:
        """R12: the hammer falls on an open auction."""
        self._require(OPEN, "no open auction to close")
        self._hammer(events)

    def _sealed(self, seat: int, amount: int, events: list[Event]) -> None:
        """R14: one secret bid each; revealed together; ties to the auctioneer, then clockwise."""
        self._require(SEALED, "no sealed auction is running")
        sealed = self.sealed
        if seat in sealed:
            raise Illegal("you have already sealed a bid (R14)")
        if amount < 0:
            raise TooLow("a sealed bid is at least 0")
        money = self.money[seat]
        if amount > money:
            raise InsufficientFunds(f"you have only {money}")
        sealed[seat] = amount
        events.append({"type": "sealed_in", "seat": seat})
        if len(sealed) < self.n:
            return
        bids = [sealed[s] for s in self.all_seats]
        events.append({"type": "reveal", "bids": bids})
        best = max(bids)
        if best == 0:
            self._give_free(events)
            return
        # The auctioneer first, then clockwise from their left.
        for i in range(self.n):
            s = (self.seller + i) % self.n
            if bids[s] == best:
                self._sell(s, best, events)
                return

    def _price(self, seat: int, amount: int, events: list[Event]) -> None:
        """R15: the auctioneer names a price in [min(1, money), money]."""
        self._require(PRICE, "no fixed price is being set")
        if seat != self.seller:
            raise NotYourTurn(f"{self.players[self.seller]} sets the price")
        money = self.money[seat]
        if amount < min(1, money):
            raise TooLow("the price must be at least 1 (R15)")
        if amount > money:
            raise InsufficientFunds(f"the price may not exceed your money ({money})")
        self.price = amount
        self.phase = BUY
        self.order = list(self.from_left[seat][:-1])  # the others, from the left
        self.turn = 0
        events.append({"type": "price", "seat": seat, "amount": amount})

    def _buy(self, seat: int, _: None, events: list[Event]) -> None:
        """R15: the player being asked buys at the fixed price."""
        self._require(BUY, "nothing is for sale at a fixed price")
        if seat != self.order[self.turn]:
            raise NotYourTurn(f"it is {self.players[self.order[self.turn]]}'s turn")
        if self.money[seat] < self.price:
            raise InsufficientFunds(f"you have only {self.money[seat]}")
        self._sell(seat, self.price, events)

    # ------------------------------------------------------- auction results

    def _sell(self, winner: int, price: int, events: list[Event]) -> None:
        """R10 and R17: the winner pays the seller(s); a seller who wins pays the bank."""
        seller, original = self.seller, self.original
        if original is not None and self.variant.double_payment == "split":
            shares: tuple[tuple[int, int], ...] = (
                (original, price // 2),
                (seller, price - price // 2),
            )
        else:
            shares = ((seller, price),)
        money = self.money
        money[winner] -= price
        payments = []
        for to, amount in shares:
            if amount == 0:
                continue
            if to == winner:
                payments.append({"from": winner, "to": None, "amount": amount})
            else:
                money[to] += amount
                payments.append({"from": winner, "to": to, "amount": amount})
        events.append(
            {
                "type": "sold",
                "winner": winner,
                "price": price,
                "cards": list(self.lot),
                "seller": seller,
                "payments": payments,
            }
        )
        self._take_lot(winner, events)

    def _hammer(self, events: list[Event]) -> None:
        """R10, R12, R13: the lot goes to the high bid, or free to the auctioneer if none."""
        if self.high_seat is None:
            return self._give_free(events)
        self._sell(self.high_seat, self.high_amount, events)

    def _give_free(self, events: list[Event]) -> None:
        """R10/R16: nobody bid; the auctioneer takes the lot for free."""
        events.append({"type": "free", "seat": self.seller, "cards": list(self.lot)})
        self._take_lot(self.seller, events)

    def _take_lot(self, seat: int, events: list[Event]) -> None:
        """The lot becomes `seat`'s paintings; the next turn goes left of the seller (R11)."""
        lot, played = self.lot, self.played
        for card in lot:
            played.remove(card)
        self.purchased[seat].extend(lot)
        seller = self.seller
        self._clear_auction()
        self._begin_turn(self._next_with_cards(seller), events)

    def _clear_auction(self) -> None:
        """No lot on the table. The bidding state is reset when an auction opens."""
        self.lot = []
        self.lot_type = ""
        self.seller = -1
        self.original = None

    # ------------------------------------------------------ turns and rounds

    def _next_with_cards(self, position: int) -> int | None:
        """R7/R11: the next turn position left of `position` with cards in hand."""
        hands = self.hands
        for p in self.after[position]:
            if hands[p]:
                return p
        return None

    def _begin_turn(self, position: int | None, events: list[Event]) -> None:
        """Hand the turn to `position`; the virtual player turns its card at once (R29)."""
        if position is None:  # no cards anywhere: only at the start of round 4
            self._end_round(None, events)
            return
        self.phase = PLAY
        self.auctioneer = position
        if position == self.virtual:
            self._virtual_turn(events)

    def _virtual_turn(self, events: list[Event]) -> None:
        """R29: turn up the oldest card; it is not auctioned but counts for R18/R20."""
        card = self.hands[self.virtual].pop(0)
        self.played.append(card)
        self.turned.append(card)
        events.append({"type": "turned", "card": card})
        if self._ends_round(card):
            self._end_round(self.virtual, events)
        else:
            self._begin_turn(self._next_with_cards(self.virtual), events)

    def _end_round(self, ended_by: int | None, events: list[Event]) -> None:
        """R20–R24 scoring; then R25 or the next round (R6, R7)."""
        r = self.round - 1
        ranking = self._ranking()
        scored = ranking[: len(TOKENS)]  # R22: the top three take this round's tokens
        tokens = self.tokens
        values = dict.fromkeys(ARTISTS, 0)  # R23: 0 outside this round's top three
        for place, artist in enumerate(scored):
            tokens[artist][r] = TOKENS[place]
            values[artist] = sum(tokens[artist])  # R23: with the tokens of earlier rounds
        sales = [sum([values[ARTIST_OF[c]] for c in bought]) for bought in self.purchased]
        money = self.money
        for s, amount in enumerate(sales):
            money[s] += amount
        events.append(
            {
                "type": "round_end",
                "round": self.round,
                "counts": dict(self.counts),
                "ranking": ranking,
                "tokens": {a: tokens[a][r] for a in scored},
                "values": values,
                "sales": sales,
            }
        )
        self.discarded += len(self.played) + sum(map(len, self.purchased))
        self.played = []
        self.turned = []
        self.purchased = [[] for _ in range(self.n)]
        self.counts = dict.fromkeys(ARTISTS, 0)
        self._clear_auction()
        if self.round == ROUNDS:
            best = max(self.money)
            self.winners = [s for s in range(self.n) if self.money[s] == best]
            self.phase = OVER
            self.finished = True
            events.append({"type": "game_end", "money": list(self.money), "winners": self.winners})
            return
        self.round += 1
        self._deal()
        start = self._next_with_cards(ended_by) if ended_by is not None else None
        events.append({"type": "round_start", "round": self.round, "auctioneer": start})
        self._begin_turn(start, events)

    def _deal(self) -> None:
        """R6: seat 0 takes the next k cards, then seat 1, …; the virtual hand last.

        Players' hands are kept sorted (artist, then type) for `legal` and views.
        """
        k = DEAL[self.hands_count][self.round - 1]
        for position, hand in enumerate(self.hands):
            hand.extend(self.deck[self.deck_pos : self.deck_pos + k])
            self.deck_pos += k
            if position != self.virtual:  # the virtual hand keeps its dealing order (R29)
                hand.sort(key=CARD_ORDER.__getitem__)

    # ---------------------------------------------------------------- records

    def cards_in_play(self) -> int:
        """Deck + hands + table + purchased + discarded: always 70 (R3)."""
        return (
            len(self.deck)
            - self.deck_pos
            + sum(len(h) for h in self.hands)
            + len(self.played)
            + sum(len(b) for b in self.purchased)
            + self.discarded
        )


# Each action type (RECORD.md): the field it carries besides `type` and `seat`,
# and the Game method that applies it as (game, seat, argument, events).
ACTIONS = {
    "play": ("card", Game._play),
    "add": ("card", Game._add),
    "decline": (None, Game._decline),
    "bid": ("amount", Game._bid),
    "pass": (None, Game._pass),
    "sealed": ("amount", Game._sealed),
    "price": ("amount", Game._price),
    "buy": (None, Game._buy),
    "close": (None, Game._close),
}
