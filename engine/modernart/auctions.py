"""The actions of Modern Art and their auctions (RULES.md R8–R17).

Each handler takes (game, seat, argument, events): `Game.apply` has checked the
seat and the argument's type; a handler checks the rest before it changes
anything, so a refused action (a `RuleError`) leaves the game untouched. Phase
checks are written out in each handler rather than shared: they run on every action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import Illegal, InsufficientFunds, NotYourTurn, TooLow
from ..games import Event
from .cards import ARTIST_OF, CARD_CODES, TYPE_OF
from .phases import BUY, OFFER, ONCE_AROUND, OPEN, PLAY, PRICE, SEALED
from .rounds import begin_turn, end_round, ends_round, next_with_cards

if TYPE_CHECKING:
    from .game import Game

# R16: for each double, the cards that may be added to it (same artist, not a double).
ADDABLE_TO: dict[str, frozenset[str]] = {
    card: frozenset(
        c for c in CARD_CODES if ARTIST_OF[c] == ARTIST_OF[card] and TYPE_OF[c] != "double"
    )
    for card in CARD_CODES
}


def require(g: Game, phase: str, why: str) -> None:
    """Refuse an action outside its phase: `why` says what is not happening now."""
    if g.phase != phase:
        raise Illegal(why)


def play(g: Game, seat: int, card: str, events: list[Event] | None) -> None:
    """R8: the auctioneer plays a card; R18 may end the round at once."""
    require(g, PLAY, "no card can be played now")
    if seat != g.auctioneer:
        raise NotYourTurn(f"it is {g.players[g.auctioneer]}'s turn to play")
    if card not in g.hands[seat]:
        raise Illegal(f"{card} is not in your hand")
    if laid_out(g, seat, card, "played", events):
        return
    g.lot = [card]
    g.seller = seat
    g.original = None
    lot_type = g.lot_type = TYPE_OF[card]
    if lot_type == "double":
        # R16: offered to the auctioneer first, then clockwise to every player.
        g.phase = OFFER
        g.order = [seat, *g.from_left[seat][:-1]]
        g.turn = 0
    else:
        open_auction(g)


def laid_out(g: Game, seat: int, card: str, kind: str, events: list[Event] | None) -> bool:
    """A checked card from the seat's hand to the table (R8, R16), told as `kind`; True if
    it ended the round (R18), which is then scored."""
    g.hands[seat].remove(card)
    g.played.append(card)
    if events is not None:
        events.append({"type": kind, "seat": seat, "card": card})
    if ends_round(g, card):
        end_round(g, seat, events)
        return True
    return False


def add(g: Game, seat: int, card: str, events: list[Event] | None) -> None:
    """R16: the player being offered the double adds a second card."""
    check_offer(g, seat)
    if card not in g.hands[seat]:
        raise Illegal(f"{card} is not in your hand")
    if card not in ADDABLE_TO[g.lot[0]]:
        raise Illegal("the second card must be the same artist and not a double (R16)")
    g.lot.append(card)
    if laid_out(g, seat, card, "added", events):
        return
    if seat != g.seller:  # R16: the adder becomes this auction's auctioneer
        g.original = g.seller
        g.seller = seat
        g.auctioneer = seat
    g.lot_type = TYPE_OF[card]
    open_auction(g)


def decline(g: Game, seat: int, _: None, events: list[Event] | None) -> None:
    """R16: decline to add; when everyone has, the auctioneer takes the double free."""
    check_offer(g, seat)
    if events is not None:
        events.append({"type": "declined", "seat": seat})
    turn = g.turn = g.turn + 1
    if turn == len(g.order):
        give_free(g, events)


def check_offer(g: Game, seat: int) -> None:
    require(g, OFFER, "no double is on offer")
    if seat != g.order[g.turn]:
        raise NotYourTurn(f"the double is offered to {g.players[g.order[g.turn]]}")


def open_auction(g: Game) -> None:
    """Start the auction of the lot by its type (R12–R15)."""
    kind = g.lot_type
    g.high_amount, g.high_seat = 0, None
    if kind == "open":
        g.phase = OPEN
        g.passed = set()
    elif kind == "once_around":
        # R13: from the auctioneer's left, clockwise; the auctioneer last.
        g.phase = ONCE_AROUND
        g.order = list(g.from_left[g.seller])
        g.turn = 0
    elif kind == "sealed":
        g.phase = SEALED
        g.sealed = {}
    else:
        g.phase = PRICE


def bid(g: Game, seat: int, amount: int, events: list[Event] | None) -> None:
    """R12 (open, any time) and R13 (once-around, in turn)."""
    phase = g.phase
    if phase == ONCE_AROUND:
        if seat != g.order[g.turn]:
            raise NotYourTurn(f"it is {g.players[g.order[g.turn]]}'s turn to bid")
    elif phase != OPEN:
        raise Illegal("no open or once-around auction is running")
    low = g.high_amount + 1 if g.high_seat is not None else 1
    if amount < low:
        raise TooLow(f"a bid must be at least {low}")
    money = g.money[seat]
    if amount > money:
        raise InsufficientFunds(f"you have only {money}")
    g.high_amount, g.high_seat = amount, seat
    if events is not None:
        events.append({"type": "bid", "seat": seat, "amount": amount})
    if phase == OPEN:
        passed = g.passed
        passed.discard(seat)
        if len(passed) == g.n - 1:
            sell(g, seat, amount, events)
    else:
        next_bidder(g, events)


def pass_(g: Game, seat: int, _: None, events: list[Event] | None) -> None:
    """R12, R13, R15: pass in an open auction, on a lap's turn or on a fixed price."""
    phase = g.phase
    if phase == OPEN:
        high_seat, passed = g.high_seat, g.passed
        if seat == high_seat:
            raise Illegal("the high bidder may not pass (R12)")
        if seat in passed:
            raise Illegal("you have already passed (R12)")
        passed.add(seat)
        if events is not None:
            events.append({"type": "pass", "seat": seat})
        if high_seat is None:
            if len(passed) == g.n:
                give_free(g, events)
        elif len(passed) == g.n - 1:
            sell(g, high_seat, g.high_amount, events)
    elif phase in (ONCE_AROUND, BUY):
        order, turn = g.order, g.turn
        if seat != order[turn]:
            raise NotYourTurn(f"it is {g.players[order[turn]]}'s turn")
        if events is not None:
            events.append({"type": "pass", "seat": seat})
        if phase == ONCE_AROUND:
            next_bidder(g, events)
        else:
            g.turn = turn + 1
            if turn + 1 == len(order):
                # R15: nobody bought; the auctioneer must buy at the price.
                sell(g, g.seller, g.price, events)
    else:
        raise Illegal("there is nothing to pass on now")


def next_bidder(g: Game, events: list[Event] | None) -> None:
    """R13: one lap; after the auctioneer the highest bid wins."""
    turn = g.turn = g.turn + 1
    if turn == len(g.order):
        hammer(g, events)


def close(g: Game, _seat: int, _: None, events: list[Event] | None) -> None:
    """R12: the hammer falls on an open auction."""
    require(g, OPEN, "no open auction to close")
    hammer(g, events)


def sealed(g: Game, seat: int, amount: int, events: list[Event] | None) -> None:
    """R14: one secret bid each; revealed together; ties to the auctioneer, then clockwise."""
    require(g, SEALED, "no sealed auction is running")
    bids_in = g.sealed
    if seat in bids_in:
        raise Illegal("you have already sealed a bid (R14)")
    if amount < 0:
        raise TooLow("a sealed bid is at least 0")
    money = g.money[seat]
    if amount > money:
        raise InsufficientFunds(f"you have only {money}")
    bids_in[seat] = amount
    if events is not None:
        events.append({"type": "sealed_in", "seat": seat})
    n = g.n
    if len(bids_in) < n:
        return
    bids = list(map(bids_in.__getitem__, g.all_seats))
    if events is not None:
        events.append({"type": "reveal", "bids": bids})
    best = max(bids)
    if best == 0:
        give_free(g, events)
        return
    # The auctioneer first, then clockwise from their left: the first best bid from
    # the auctioneer's seat on, else the first from seat 0.
    try:
        winner = bids.index(best, g.seller)
    except ValueError:
        winner = bids.index(best)
    sell(g, winner, best, events)


def price(g: Game, seat: int, amount: int, events: list[Event] | None) -> None:
    """R15: the auctioneer names a price in [min(1, money), money]."""
    require(g, PRICE, "no fixed price is being set")
    if seat != g.seller:
        raise NotYourTurn(f"{g.players[g.seller]} sets the price")
    money = g.money[seat]
    if amount < min(1, money):
        raise TooLow("the price must be at least 1 (R15)")
    if amount > money:
        raise InsufficientFunds(f"the price may not exceed your money ({money})")
    g.price = amount
    g.phase = BUY
    g.order = list(g.from_left[seat][:-1])  # the others, from the left
    g.turn = 0
    if events is not None:
        events.append({"type": "price", "seat": seat, "amount": amount})


def buy(g: Game, seat: int, _: None, events: list[Event] | None) -> None:
    """R15: the player being asked buys at the fixed price."""
    require(g, BUY, "nothing is for sale at a fixed price")
    if seat != g.order[g.turn]:
        raise NotYourTurn(f"it is {g.players[g.order[g.turn]]}'s turn")
    if g.money[seat] < g.price:
        raise InsufficientFunds(f"you have only {g.money[seat]}")
    sell(g, seat, g.price, events)


# ----------------------------------------------------------- auction results


def sell(g: Game, winner: int, amount: int, events: list[Event] | None) -> None:
    """R10 and R17: the winner pays the seller(s); a seller who wins pays the bank."""
    seller, original = g.seller, g.original
    money = g.money
    money[winner] -= amount
    if original is None or g.variant.double_payment != "split":  # one seller paid
        if amount == 0:
            payments = []
        elif seller == winner:
            payments = [{"from": winner, "to": None, "amount": amount}]
        else:
            money[seller] += amount
            payments = [{"from": winner, "to": seller, "amount": amount}]
    else:
        payments = []
        for to, share in ((original, amount // 2), (seller, amount - amount // 2)):
            if share == 0:
                continue
            if to == winner:
                payments.append({"from": winner, "to": None, "amount": share})
            else:
                money[to] += share
                payments.append({"from": winner, "to": to, "amount": share})
    if events is not None:
        events.append(
            {
                "type": "sold",
                "winner": winner,
                "price": amount,
                "cards": list(g.lot),
                "seller": seller,
                "payments": payments,
            }
        )
    take_lot(g, winner, events)


def hammer(g: Game, events: list[Event] | None) -> None:
    """R10, R12, R13: the lot goes to the high bid, or free to the auctioneer if none."""
    if g.high_seat is None:
        give_free(g, events)
    else:
        sell(g, g.high_seat, g.high_amount, events)


def give_free(g: Game, events: list[Event] | None) -> None:
    """R10/R16: nobody bid; the auctioneer takes the lot for free."""
    if events is not None:
        events.append({"type": "free", "seat": g.seller, "cards": list(g.lot)})
    take_lot(g, g.seller, events)


def take_lot(g: Game, seat: int, events: list[Event] | None) -> None:
    """The lot becomes `seat`'s paintings; the next turn goes left of the seller (R11)."""
    lot, played = g.lot, g.played
    for card in lot:
        played.remove(card)
    g.purchased[seat].extend(lot)
    seller = g.seller
    g.lot, g.lot_type, g.seller, g.original = [], "", -1, None  # rounds.clear_auction
    begin_turn(g, next_with_cards(g, seller), events)
