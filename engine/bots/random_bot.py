"""A bot that picks uniformly among its legal action types, with modest amounts."""

from __future__ import annotations

import random
from typing import Any


def choose_from_legal(legal: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A uniformly chosen legal action (None when there is nothing to do)."""
    kinds = [k for k, v in legal.items() if v or v == 0]
    kinds = [k for k in kinds if not (k == "add" and not legal[k])]
    if not kinds:
        return None
    kind = rng.choice(kinds)
    bounds = legal[kind]
    if kind in ("play", "add"):
        return {"type": kind, "card": rng.choice(bounds)}
    if kind in ("bid", "sealed", "price"):
        low, high = bounds
        # Sensible amounts: near the minimum, never the whole purse at once.
        return {"type": kind, "amount": rng.randint(low, min(high, low + 12))}
    return {"type": kind}


class RandomBot:
    """Uniform over legal moves; decides from the view's `legal` only."""

    level = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        return choose_from_legal(view["legal"], self.rng)
