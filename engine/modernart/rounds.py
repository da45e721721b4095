"""Turns, rounds and scoring of Modern Art (RULES.md R6, R7, R11, R18–R25, R29).

Functions of the one mutable `Game` (engine/modernart/game.py), called by the
auctions (engine/modernart/auctions.py) once an action has been checked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..games import Event
from .cards import ARTIST_OF, ARTISTS, CARD_ORDER, CARDS_TO_END_ROUND, DEAL, ROUNDS, TOKENS
from .phases import OVER, PLAY

if TYPE_CHECKING:
    from .game import Game


def ranking(g: Game) -> list[str]:
    """R21: artists with cards played this round, most first, ties by board order."""
    counts = g.counts
    played = [a for a in ARTISTS if counts[a]]
    return sorted(played, key=lambda a: -counts[a])  # stable: board order breaks ties


def ends_round(g: Game, card: str) -> bool:
    """R18: count the card; True if it is an artist's 5th or every hand is empty."""
    counts = g.counts
    artist = ARTIST_OF[card]
    counts[artist] += 1
    return counts[artist] >= CARDS_TO_END_ROUND or not any(g.hands)


def clear_auction(g: Game) -> None:
    """No lot on the table. The bidding state is reset when an auction opens."""
    g.lot = []
    g.lot_type = ""
    g.seller = -1
    g.original = None


def next_with_cards(g: Game, position: int) -> int | None:
    """R7/R11: the next turn position left of `position` with cards in hand."""
    hands = g.hands
    for p in g.after[position]:
        if hands[p]:
            return p
    return None


def begin_turn(g: Game, position: int | None, events: list[Event] | None) -> None:
    """Hand the turn to `position`; the virtual player turns its card at once (R29)."""
    if position is None:  # no cards anywhere: only at the start of round 4
        end_round(g, None, events)
        return
    g.phase = PLAY
    g.auctioneer = position
    if position == g.virtual:
        virtual_turn(g, events)


def virtual_turn(g: Game, events: list[Event] | None) -> None:
    """R29: turn up the oldest card; it is not auctioned but counts for R18/R20."""
    virtual = g.virtual
    card = g.hands[virtual].pop(0)  # type: ignore[index]  # only called with one
    g.played.append(card)
    g.turned.append(card)
    if events is not None:
        events.append({"type": "turned", "card": card})
    if ends_round(g, card):
        end_round(g, virtual, events)
    else:
        begin_turn(g, next_with_cards(g, virtual), events)


def end_round(g: Game, ended_by: int | None, events: list[Event] | None) -> None:
    """R20–R24 scoring; then R25 or the next round (R6, R7)."""
    r = g.round - 1
    ranked = ranking(g)
    scored = ranked[: len(TOKENS)]  # R22: the top three take this round's tokens
    tokens = g.tokens
    values = dict.fromkeys(ARTISTS, 0)  # R23: 0 outside this round's top three
    for place, artist in enumerate(scored):
        tokens[artist][r] = TOKENS[place]
        values[artist] = sum(tokens[artist])  # R23: with the tokens of earlier rounds
    sales = [sum([values[ARTIST_OF[c]] for c in bought]) for bought in g.purchased]
    money = g.money
    for s, amount in enumerate(sales):
        money[s] += amount
    if events is not None:
        events.append(
            {
                "type": "round_end",
                "round": g.round,
                "counts": dict(g.counts),
                "ranking": ranked,
                "tokens": {a: tokens[a][r] for a in scored},
                "values": values,
                "sales": sales,
            }
        )
    g.discarded += len(g.played) + sum(map(len, g.purchased))
    g.played = []
    g.turned = []
    g.purchased = [[] for _ in range(g.n)]
    g.counts = dict.fromkeys(ARTISTS, 0)
    clear_auction(g)
    if g.round == ROUNDS:
        best = max(money)
        g.winners = [s for s in range(g.n) if money[s] == best]
        g.phase = OVER
        g.finished = True
        if events is not None:
            events.append({"type": "game_end", "money": list(money), "winners": g.winners})
        return
    g.round += 1
    deal(g)
    start = next_with_cards(g, ended_by) if ended_by is not None else None
    if events is not None:
        events.append({"type": "round_start", "round": g.round, "auctioneer": start})
    begin_turn(g, start, events)


def deal(g: Game) -> None:
    """R6: seat 0 takes the next k cards, then seat 1, …; the virtual hand last.

    Players' hands are kept sorted (artist, then type) for `legal` and views.
    """
    k = DEAL[g.hands_count][g.round - 1]
    deck, virtual = g.deck, g.virtual
    for position, hand in enumerate(g.hands):
        hand.extend(deck[g.deck_pos : g.deck_pos + k])
        g.deck_pos += k
        if position != virtual:  # the virtual hand keeps its dealing order (R29)
            hand.sort(key=CARD_ORDER.__getitem__)
