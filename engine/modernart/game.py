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
from collections.abc import Callable, Sequence
from typing import Any

from ..actionlog import ActionLog
from ..errors import Illegal
from ..games import Action, Event, first_seat, seat_players, shuffled_deck
from . import auctions
from .cards import ARTISTS, CARD, DEAL, FULL_DECK, ROUNDS, STARTING_MONEY, TOKENS, is_deck
from .phases import BUY, CLOCKWISE, OFFER, ONCE_AROUND, OPEN, OVER, PLAY, PRICE, SEALED
from .rounds import begin_turn, deal, ranking
from .variant import Variant, parse_variant


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
        # A record's replay gives the deck and the first auctioneer: then no generator is
        # seeded (from the OS when `seed` is None, a twentieth of a replay's time).
        rng = random.Random(seed) if deck is None or first_auctioneer is None else None
        why = "the deck must be a permutation of the 70 cards of R3"
        # The deck's cards as the game's own strings (cards.CARD), whoever gave them.
        self.deck = tuple(map(CARD.__getitem__, shuffled_deck(deck, FULL_DECK, is_deck, rng, why)))
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

        deal(self)
        begin_turn(self, first_auctioneer, [])

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
        addable = auctions.ADDABLE_TO[self.lot[0]]
        return [c for c in dict.fromkeys(self.hands[seat]) if c in addable]

    def values(self) -> dict[str, int]:
        """What a painting of each artist would sell for if the round ended now (R21–R23)."""
        out = dict.fromkeys(ARTISTS, 0)
        for place, artist in enumerate(ranking(self)[: len(TOKENS)]):
            out[artist] = sum(self.tokens[artist]) + TOKENS[place]
        return out

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
        """Apply one RECORD.md action and log it; return its events or raise a RuleError.

        Everything is checked before anything changes, so an error leaves the
        game exactly as it was. The handlers are in engine/modernart/auctions.py.
        """
        events: list[Event] = []
        self.actions.append(dict(self.step(action, events)))
        return events

    def step(self, action: Action, events: list[Event] | None = None) -> Action:
        """`apply` without the log: return the action as the log keeps it, not copied.

        Its events go to `events`; None when nobody listens (a record's replay). Building
        events and copying each action into the log were a fifth of a replay (issue 31):
        `Record.played` keeps the record's own actions as the log.
        """
        try:
            kind = action["type"]
            field, handler = ACTIONS[kind]
        except (KeyError, TypeError):  # not a map, no type, or an unknown type
            raise Illegal(f"not an action: {action!r}"[:200]) from None
        if self.finished:
            raise Illegal("the game is over (R25)")
        if kind == "close":  # the hammer (R12) is nobody's action: no seat, nothing else
            handler(self, -1, None, events)
            return {"type": "close"}
        try:  # subscripts, not `get`: this runs for every action of every replay
            seat = action["seat"]
        except KeyError:
            seat = None
        if type(seat) is not int or not 0 <= seat < self.n:
            raise Illegal(f"seat must be a player's seat from 0 to {self.n - 1}")
        if field is None:
            handler(self, seat, None, events)
        else:
            try:
                argument = action[field]
            except KeyError:
                argument = None
            if field == "amount":
                if type(argument) is not int:
                    raise Illegal(f"{kind} needs an integer amount")
            else:
                try:
                    argument = CARD[argument]  # a card code (R3), as the game's own string
                except (KeyError, TypeError):  # not one, or not even hashable
                    raise Illegal(f"{argument!r} is not a card code (R3)") from None
            handler(self, seat, argument, events)
        return action

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
# and the handler (engine/modernart/auctions.py) that applies it as
# (game, seat, argument, events), `events` None when nobody listens.
ACTIONS: dict[str, tuple[str | None, Callable[[Game, int, Any, list[Event] | None], None]]] = {
    "play": ("card", auctions.play),
    "add": ("card", auctions.add),
    "decline": (None, auctions.decline),
    "bid": ("amount", auctions.bid),
    "pass": (None, auctions.pass_),
    "sealed": ("amount", auctions.sealed),
    "price": ("amount", auctions.price),
    "buy": (None, auctions.buy),
    "close": (None, auctions.close),
}
