"""A bot that picks uniformly among its legal action types, with modest amounts."""

from __future__ import annotations

import random
from typing import Any

from ...bots import LegalBot

# What each legal action type carries besides its type: an amount (drawn from
# the legal bounds) or a card (drawn from the legal list). Other types: nothing.
AMOUNT, CARD = "amount", "card"
ARGUMENT_OF = {"bid": AMOUNT, "sealed": AMOUNT, "price": AMOUNT, "play": CARD, "add": CARD}


def choose_from_legal(legal: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A uniformly chosen legal action type (None when there is nothing to do).

    Cards are chosen uniformly; amounts uniformly from the minimum up to 12
    above it (never the whole purse at once), so games stay sensible.
    """
    kinds = [*legal]
    if "add" in legal and not legal["add"]:  # nothing to add: only decline
        kinds.remove("add")
    if not kinds:
        return None
    kind = kinds[int(rng.random() * len(kinds))]
    argument = ARGUMENT_OF.get(kind)
    if argument is None:
        return {"type": kind}
    if argument is AMOUNT:
        low, high = legal[kind]
        top = high if high < low + 12 else low + 12
        return {"type": kind, "amount": low + int(rng.random() * (top - low + 1))}
    cards = legal[kind]
    return {"type": kind, "card": cards[int(rng.random() * len(cards))]}


class RandomBot(LegalBot):
    """Uniform over legal moves; decides from the view's `legal` only."""

    level = "random"

    def decide(self, view: dict[str, Any], legal: dict[str, Any]) -> dict[str, Any] | None:
        return choose_from_legal(legal, self.rng)
