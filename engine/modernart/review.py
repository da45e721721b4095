"""Modern Art's terms for the expert's review (engine/review.py): losses in money."""

from __future__ import annotations

from typing import Any

from ..review import ReviewTerms
from .bots.heuristic import painting_values
from .cards import ARTIST_NAMES, ARTIST_OF

Action = dict[str, Any]

ROUND_END = 5  # R18: the fifth card of one artist played this round ends the round


def reason(view: dict[str, Any], action: Action, better: Action | None) -> str | None:
    """R18: a card that ends the round is not sold; a price past what the lot is worth."""
    card = action.get("card")
    if action["type"] in ("play", "add") and card in ARTIST_OF:
        artist = ARTIST_OF[card]
        if view["counts"].get(artist, 0) + 1 >= ROUND_END:
            name = ARTIST_NAMES[artist]
            return f"this {name} is the 5th: the round ends and it sells for nothing"
    amount = action.get("amount")
    if action["type"] in ("bid", "sealed") and view["lot"] and isinstance(amount, int):
        values = painting_values(view)
        worth = round(sum(values[ARTIST_OF[c]] for c in view["lot"]["cards"]))
        if amount > worth:
            return f"{amount} is more than these paintings are worth to you (about {worth})"
    return None


# Money: the seat's money less its rivals' at the round's end (the expert's own score).
TERMS = ReviewTerms(
    unit="money",
    measure="your money less your rivals' at the round's end",
    thresholds=(5, 15, 30),
    reason=reason,
)
