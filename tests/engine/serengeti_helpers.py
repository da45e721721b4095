"""Drivers for the Serengeti engine tests: decks in the order lots are turned up, and
short ways to walk a game to the situation under test."""

from __future__ import annotations

from typing import Any

from modernart.engine.serengeti.cards import FULL_DECK
from modernart.engine.serengeti.game import SerengetiGame

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve")


def deck_of(*top: str) -> list[str]:
    """A 30-card deck (S1) whose first cards are `top`, in that order; the rest in table order.

    Lots are turned from the top (S5): auction 1 takes top[0], auction 2 the next two, …
    """
    assert len(set(top)) == len(top) and set(top) <= set(FULL_DECK)
    return [*top, *(c for c in FULL_DECK if c not in top)]


def new_game(n: int = 4, *top: str, first: int = 0, variant: object = None) -> SerengetiGame:
    return SerengetiGame(list(NAMES[:n]), variant, deck_of(*top), first_auctioneer=first)


def act(game: SerengetiGame, seat: int, kind: str, amount: int | None = None) -> list[dict]:
    action: dict[str, Any] = {"type": kind, "seat": seat}
    if amount is not None:
        action["amount"] = amount
    return game.apply(action)


def win_at(game: SerengetiGame, winner: int, price: int | None = None) -> list[dict]:
    """The current auction ends with `winner` buying at `price` (None: their lowest legal
    bid; 0: nobody bids and the start player takes it free, S10); everyone else passes
    when their turn comes."""
    events: list[dict] = []
    auction = game.auction
    while game.auction == auction and not game.finished:
        seat = game.to_act()[0]
        if seat == winner and price != 0 and game.high_seat != winner:
            amount = game.bid_amounts(seat)[0] if price is None else price
            events += act(game, seat, "bid", amount)
        else:
            events += act(game, seat, "pass")
    return events


def snapshot(game: SerengetiGame) -> Any:
    """Everything a game holds, to check that a refused action changed nothing."""
    return (
        game.view(None),
        [game.view(s) for s in range(game.n)],
        list(game.chips),
        list(game.actions),
        sorted(game.passed),
        sorted(game.decided),
        game.start_bonus_due,
        game.deck_pos,
    )
