"""A bot that picks uniformly among its legal action types, with modest amounts."""

from __future__ import annotations

import random
from typing import Any


def choose_from_legal(legal: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A uniformly chosen legal action (None when there is nothing to do)."""
    kinds = [k for k, v in legal.items() if v]  # an empty `add` list: nothing to add
    if not kinds:
        return None
    pick = rng.random
    kind = kinds[int(pick() * len(kinds))]
    bounds = legal[kind]
    if kind in ("play", "add"):
        return {"type": kind, "card": bounds[int(pick() * len(bounds))]}
    if kind in ("bid", "sealed", "price"):
        low, high = bounds
        # Sensible amounts: near the minimum, never the whole purse at once.
        return {"type": kind, "amount": low + int(pick() * (min(high, low + 12) - low + 1))}
    return {"type": kind}


class RandomBot:
    """Uniform over legal moves; decides from the view's `legal` only."""

    level = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        return choose_from_legal(view["legal"], self.rng)
