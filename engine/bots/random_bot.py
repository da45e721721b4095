"""A bot that picks uniformly among its legal action types, with modest amounts."""

from __future__ import annotations

import random
from typing import Any

CARD_KINDS = ("play", "add")
AMOUNT_KINDS = ("bid", "sealed", "price")


def choose_from_legal(legal: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A uniformly chosen legal action type (None when there is nothing to do).

    Cards are chosen uniformly; amounts uniformly from the minimum up to 12
    above it (never the whole purse at once), so games stay sensible.
    """
    kinds = list(legal)
    if "add" in legal and not legal["add"]:  # nothing to add: only decline
        kinds.remove("add")
    if not kinds:
        return None
    pick = rng.random
    kind = kinds[int(pick() * len(kinds))]
    bounds = legal[kind]
    if kind in AMOUNT_KINDS:
        low, high = bounds
        top = high if high < low + 12 else low + 12
        return {"type": kind, "amount": low + int(pick() * (top - low + 1))}
    if kind in CARD_KINDS:
        return {"type": kind, "card": bounds[int(pick() * len(bounds))]}
    return {"type": kind}


class RandomBot:
    """Uniform over legal moves; decides from the view's `legal` only."""

    level = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        return choose_from_legal(view["legal"], self.rng)
