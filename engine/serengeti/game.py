"""The rules of Serengeti (SERENGETI.md S1–S20) as one mutable game state.

`SerengetiGame.apply(action)` checks an action completely before it changes
anything, so a refused action (a `RuleError`) leaves the game untouched.
`legal(seat)` and `view(seat)` are the only ways the state leaves towards a
player; `view` is where secrecy lives: other players' chips until the end
(S3, S18) and the deck order, always.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..actionlog import ActionLog
from ..errors import Illegal, InsufficientFunds, NotYourTurn, TooLow
from ..games import Action, Event, first_seat, seat_players, shuffled_deck
from .cards import (
    AUCTIONS,
    DIGIT_OF,
    EARLY_PASS_BONUS,
    FULL_DECK,
    MOST_CHIPS_BONUS,
    PLAYERS,
    STARTING_CHIPS,
    TRIBE_OF,
    TRIBES,
    is_deck,
    lot_size,
    tribe_points,
)
from .variant import parse_variant

BIDDING = "bidding"
OVER = "over"


class SerengetiGame:
    """One game of Serengeti, from the shuffle (S4) to the scoring (S15–S18)."""

    game_name = "serengeti"

    __slots__ = (
        "actions",
        "auction",
        "chips",
        "decided",
        "deck",
        "deck_pos",
        "digits",
        "finished",
        "first_auctioneer",
        "high_amount",
        "high_seat",
        "lot",
        "n",
        "owned",
        "passed",
        "players",
        "scores",
        "start",
        "start_bonus_due",
        "tiebreak",
        "turn",
        "variant",
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
        self.players = seat_players(players, PLAYERS, "a game needs 3 to 5 players (S2)")
        self.n = n = len(players)
        self.variant: dict[str, str] = parse_variant(variant, n)
        # No generator seeded when both are given (a record's replay): as in Modern Art.
        rng = random.Random(seed) if deck is None or first_auctioneer is None else None
        why = "the deck must be a permutation of the 30 cards of S1"
        self.deck = shuffled_deck(deck, FULL_DECK, is_deck, rng, why)  # S4
        first_auctioneer = first_seat(first_auctioneer, n, rng, "the first start player")
        self.first_auctioneer = first_auctioneer
        self.deck_pos = 0
        self.chips: list[int] = [STARTING_CHIPS] * n  # S3
        self.owned: list[list[str]] = [[] for _ in range(n)]  # S12, in the order won
        self.digits: list[list[int]] = [[0] * 10 for _ in range(n)]  # cards per digit
        self.actions: ActionLog | list[Action] = ActionLog()  # packed (engine/actionlog.py)
        self.winners: list[int] = []
        self.finished = False
        self.scores: list[dict[str, Any]] | None = None
        self.tiebreak = ""
        # The auction in progress.
        self.auction = 0
        self.start = first_auctioneer
        self.lot: list[str] = []
        self.turn: int | None = None
        self.high_amount = 0
        self.high_seat: int | None = None
        self.passed: set[int] = set()
        self.decided: set[int] = set()  # who has bid or passed in this auction (S8)
        self.start_bonus_due = False  # S8: the start player passed first
        self._start_auction(first_auctioneer, [])

    # ------------------------------------------------------------------ facts

    def to_act(self) -> list[int]:
        return [] if self.turn is None else [self.turn]

    def realtime(self) -> bool:
        """Serengeti has no real-time phase: bids go round in turn (S6)."""
        return False

    def barred(self, seat: int) -> list[int]:
        """S7: the digits on cards `seat` owns; no bid of theirs may end in one."""
        return [d for d, count in enumerate(self.digits[seat]) if count]

    def bid_amounts(self, seat: int) -> list[int]:
        """S7: every amount `seat` may bid now, ascending (above the high bid, within
        their chips, not ending in a barred digit); [] if they must pass."""
        low = self.high_amount + 1 if self.high_seat is not None else 1
        digits = self.digits[seat]
        return [b for b in range(low, self.chips[seat] + 1) if not digits[b % 10]]

    def legal(self, seat: int | None) -> dict[str, Any]:
        """`bid`: the list of legal amounts (absent when none); `pass`: true."""
        if seat is None or seat != self.turn:
            return {}
        amounts = self.bid_amounts(seat)
        return {"bid": amounts, "pass": True} if amounts else {"pass": True}

    def tribe_counts(self, seat: int) -> dict[str, int]:
        """How many cards of each tribe `seat` owns (every tribe listed)."""
        counts = dict.fromkeys(TRIBES, 0)
        for card in self.owned[seat]:
            counts[TRIBE_OF[card]] += 1
        return counts

    def points(self, seat: int) -> int:
        """S15: the tribe points of the cards `seat` owns so far."""
        return sum(tribe_points(c) for c in self.tribe_counts(seat).values())

    def holders(self) -> list[list[list[int]]]:
        """For each digit 0–9, `[seat, cards with that digit]` for every seat owning one:
        with the high bid, what a client needs to preview who a price would pay (S11, S19)."""
        return [
            [[s, self.digits[s][d]] for s in range(self.n) if self.digits[s][d]] for d in range(10)
        ]

    def payout_preview(self, winner: int | None) -> list[list[int]]:
        """S11/S19: for each last digit 0–9, the seats a price ending in it would pay if
        `winner` bought the lot (everyone else when no other seat holds the digit)."""
        if winner is None:
            return []
        return [sorted(self._shares(winner, d)[2]) for d in range(10)]

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything `seat` may know (None: a spectator) as plain data; nothing else."""
        you = seat if seat is not None and 0 <= seat < self.n else None
        over = self.finished
        high = None
        if self.high_seat is not None:
            high = {"amount": self.high_amount, "seat": self.high_seat}
        seats = [
            {
                "name": self.players[s],
                "owned": list(self.owned[s]),
                "barred": self.barred(s),
                "points": self.points(s),
                "chips": self.chips[s] if over or s == you else None,
            }
            for s in range(self.n)
        ]
        return {
            "you": you,
            "phase": OVER if over else BIDDING,
            "auction": self.auction,
            "auctions": AUCTIONS,
            "start": self.start,
            "lot": list(self.lot),
            "high": high,
            "to_act": self.to_act(),
            "passed": sorted(self.passed),
            "decided": sorted(self.decided),
            "start_bonus_due": self.start_bonus_due,
            "seats": seats,
            "chips": self.chips[you] if you is not None else None,
            "holders": self.holders(),
            # for you as the buyer; a spectator sees it for the seat in turn
            "payout_preview": self.payout_preview(you if you is not None else self.turn),
            "legal": self.legal(you),
            "deck_left": len(self.deck) - self.deck_pos,
            "variant": dict(self.variant),
            "finished": over,
            "winners": list(self.winners),
            "scores": [dict(s) for s in self.scores] if self.scores is not None else None,
            "tiebreak": self.tiebreak or None,
        }

    # ---------------------------------------------------------------- actions

    def apply(self, action: Action) -> list[Event]:
        """Apply one record action (`bid {amount}` or `pass`, with `seat`) and log it;
        return its events or raise a RuleError, changing nothing."""
        events: list[Event] = []
        self.actions.append(dict(self.step(action, events)))
        return events

    def step(self, action: Action, events: list[Event] | None = None) -> Action:
        """`apply` without the log: the action as the log keeps it (not copied); its events
        go to `events`, None when nobody listens (`Record.played`)."""
        try:
            kind = action["type"]
            handler = ACTIONS[kind]
        except (KeyError, TypeError):  # not a map, no type, or an unknown type
            raise Illegal(f"not a Serengeti action: {action!r}"[:200]) from None
        if self.finished:
            raise Illegal("the game is over (S14)")
        seat = action.get("seat")
        if type(seat) is not int or not 0 <= seat < self.n:
            raise Illegal(f"seat must be a player's seat from 0 to {self.n - 1}")
        if seat != self.turn:
            assert self.turn is not None
            raise NotYourTurn(f"it is {self.players[self.turn]}'s turn (S6)")
        handler(self, seat, action, events)
        return action

    def _bid(self, seat: int, action: Action, events: list[Event] | None) -> None:
        """S7: higher than the high bid (first at least 1), within chips, digit not barred."""
        amount = action.get("amount")
        if type(amount) is not int:
            raise Illegal("a bid needs an integer amount")
        low = self.high_amount + 1 if self.high_seat is not None else 1
        if amount < low:
            raise TooLow(f"a bid must be at least {low} (S7)")
        if amount > self.chips[seat]:
            raise InsufficientFunds(f"you have only {self.chips[seat]} chips (S7)")
        if self.digits[seat][amount % 10]:
            raise Illegal(f"you own a card with a {amount % 10}: no bid may end in it (S7)")
        self.high_amount, self.high_seat = amount, seat
        self.decided.add(seat)
        if events is not None:
            events.append({"type": "bid", "seat": seat, "amount": amount})
        if len(self.passed) == self.n - 1:  # S9: everyone else passed already
            self._sell(seat, amount, events)
        else:
            self._next_turn(seat)

    def _pass(self, seat: int, _action: Action, events: list[Event] | None) -> None:
        """S8: final for this auction; a first-decision pass earns the early-pass bonus."""
        bonus, deferred = 0, False
        if seat not in self.decided:
            if seat == self.start:  # paid at the end, if another player wins the lot
                self.start_bonus_due = deferred = True
            else:
                bonus = EARLY_PASS_BONUS
                self.chips[seat] += bonus
        self.decided.add(seat)
        self.passed.add(seat)
        if events is not None:
            events.append({"type": "pass", "seat": seat, "bonus": bonus, "deferred": deferred})
        if self.high_seat is None:
            if len(self.passed) == self.n:  # S10
                self._give_free(events)
                return
        elif len(self.passed) == self.n - 1:  # S9
            self._sell(self.high_seat, self.high_amount, events)
            return
        self._next_turn(seat)

    def _next_turn(self, seat: int) -> None:
        """S6: the next player clockwise who has not passed."""
        for i in range(1, self.n + 1):
            s = (seat + i) % self.n
            if s not in self.passed:
                self.turn = s
                return

    # ------------------------------------------------------- auction results

    def _shares(self, winner: int, price: int) -> tuple[int, list[int], dict[int, int]]:
        """S11/S19: the price's digit, the paid holders and what each receives."""
        digit = price % 10
        others = [s for s in range(self.n) if s != winner]
        holders = [s for s in others if self.digits[s][digit]]
        if holders and self.variant["payout"] == "majority":
            most = max(self.digits[s][digit] for s in holders)
            holders = [s for s in holders if self.digits[s][digit] == most]
        paid = holders or others
        share = price // len(paid)
        return digit, holders, {s: share for s in paid}

    def _sell(self, winner: int, price: int, events: list[Event] | None) -> None:
        """S9, S11: the winner pays; holders of the digit (or all others) share; the rest
        goes to the bank. A start player who passed first gets the S8 bonus now."""
        digit, holders, shares = self._shares(winner, price)
        chips = self.chips
        chips[winner] -= price
        payments = []
        for s, amount in shares.items():
            if amount:
                chips[s] += amount
                payments.append({"from": winner, "to": s, "amount": amount})
        bank = price - sum(shares.values())
        if bank:
            payments.append({"from": winner, "to": None, "amount": bank})
        if events is not None:
            events.append(
                {
                    "type": "sold",
                    "winner": winner,
                    "price": price,
                    "cards": list(self.lot),
                    "digit": digit,
                    "holders": holders,
                    "payments": payments,
                    "bank": bank,
                }
            )
        if self.start_bonus_due:
            chips[self.start] += EARLY_PASS_BONUS
            if events is not None:
                events.append({"type": "bonus", "seat": self.start, "amount": EARLY_PASS_BONUS})
        self._take_lot(winner, events)

    def _give_free(self, events: list[Event] | None) -> None:
        """S10: nobody bid; the start player takes the lot free (and no S8 bonus)."""
        if events is not None:
            events.append({"type": "free", "seat": self.start, "cards": list(self.lot)})
        self._take_lot(self.start, events)

    def _take_lot(self, seat: int, events: list[Event] | None) -> None:
        """S12: the cards lie in front of `seat`; S13: they start the next auction."""
        digits = self.digits[seat]
        for card in self.lot:
            digits[DIGIT_OF[card]] += 1
        self.owned[seat].extend(self.lot)
        self.lot = []
        if self.auction == AUCTIONS:  # S14
            self._end(events)
        else:
            self._start_auction(seat, events)

    def _start_auction(self, start: int, events: list[Event] | None) -> None:
        """S5, S13: the start player turns up the next auction's cards and acts first (S6)."""
        self.auction += 1
        size = lot_size(self.auction)
        self.lot = list(self.deck[self.deck_pos : self.deck_pos + size])
        self.deck_pos += size
        self.start = self.turn = start
        self.high_amount, self.high_seat = 0, None
        self.passed = set()
        self.decided = set()
        self.start_bonus_due = False
        if events is not None:
            events.append(
                {"type": "auction", "number": self.auction, "start": start, "cards": list(self.lot)}
            )

    def _end(self, events: list[Event] | None) -> None:
        """S15–S18: tribe points, the most-chips bonus, the winners and how ties fell."""
        most = max(self.chips)
        scores = []
        for s in range(self.n):
            counts = self.tribe_counts(s)
            tribes = {t: tribe_points(c) for t, c in counts.items()}
            bonus = MOST_CHIPS_BONUS if self.chips[s] == most else 0
            scores.append(
                {
                    "cards": counts,
                    "tribes": tribes,
                    "tribe_points": sum(tribes.values()),
                    "chips_bonus": bonus,
                    "points": sum(tribes.values()) + bonus,
                    "owned": len(self.owned[s]),
                    "chips": self.chips[s],
                }
            )
        self.winners, self.tiebreak = winners_of(scores)
        self.scores = scores
        self.finished = True
        self.turn = None
        self.passed = set()
        self.decided = set()
        self.high_amount, self.high_seat = 0, None
        if events is not None:
            events.append(
                {
                    "type": "game_end",
                    "chips": list(self.chips),
                    "scores": [dict(s) for s in scores],
                    "winners": list(self.winners),
                    "tiebreak": self.tiebreak,
                }
            )

    # ---------------------------------------------------------------- records

    def cards_in_play(self) -> int:
        """Deck + lot + owned: always 30 (SERENGETI.md invariants)."""
        return len(self.deck) - self.deck_pos + len(self.lot) + sum(map(len, self.owned))


def winners_of(scores: list[dict[str, Any]]) -> tuple[list[int], str]:
    """S17: most points; then most cards; then most chips; then a shared win. Also says
    which step decided: `points`, `cards`, `chips` or `shared`."""
    leaders = list(range(len(scores)))
    for key, step in (("points", "points"), ("owned", "cards"), ("chips", "chips")):
        best = max(scores[s][key] for s in leaders)
        leaders = [s for s in leaders if scores[s][key] == best]
        if len(leaders) == 1:
            return leaders, step
    return leaders, "shared"


ACTIONS = {"bid": SerengetiGame._bid, "pass": SerengetiGame._pass}
