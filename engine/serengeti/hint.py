"""Serengeti's hint (`?` at the table): the `hard` bot's action from the player's
own view, and one line saying why. It knows no more than the view."""

from __future__ import annotations

from typing import Any

from .bots import HeuristicBot, lot_points


def suggest(view: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
    """The hard bot's action for this view (None: nothing to decide) and why."""
    bot = HeuristicBot(0)
    action = bot.choose(view)
    if action is None:
        return None, "Nothing to decide now."
    me = view["seats"][view["you"]]
    points = lot_points(me["owned"], view["lot"])
    limit = bot.limit(view)
    worth = f"the lot adds {points} points to yours; worth up to {limit} chips to you"
    if action["type"] == "pass":
        return action, f"Pass: {worth}, less than a bid you may make (S7, S8)."
    amount = action["amount"]
    return action, f"Bid {amount}: {worth}; {payout(view, amount)} (S11)."


def payout(view: dict[str, Any], amount: int) -> str:
    """Whom a price of `amount` pays by S11: `amount // len(paid)` each, the rest to the
    bank; a price smaller than the number of players paid goes to the bank alone."""
    paid = view["payout_preview"][amount % 10]
    share = amount // len(paid) if paid else 0
    if not share:
        return f"a price of {amount} is too little to share: it goes to the bank"
    names = ", ".join(view["seats"][s]["name"] for s in paid)
    each = " each" if len(paid) > 1 else ""
    return f"a price of {amount} pays {share}{each} to {names}"
