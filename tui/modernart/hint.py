"""The hint key (issue 12): what the `hard` bot would do from your own view, and why.

Computed in the client from the view the server sent you (nothing else: a hint
knows no more than you do). A room's host may turn hints off for everyone
(`options.hints: false`); the table then hides the key and refuses it.
"""

from __future__ import annotations

from typing import Any

from modernart.engine.modernart.bots.heuristic import HeuristicBot, painting_values
from modernart.engine.modernart.cards import ARTIST_NAMES, ARTIST_OF

from .style import card_name


def suggest(view: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
    """The hard bot's action for this view (None: nothing to decide) and one line
    saying what it is and why."""
    action = HeuristicBot(0).choose(view)
    if action is None:
        return None, "Nothing to decide now."
    values = painting_values(view)
    kind = action["type"]
    if kind == "play":
        artist = ARTIST_OF[action["card"]]
        # The bot's projection, not the board's "now" (the price if the round ended now).
        return action, (
            f"Play {card_name(action['card'])}: projected end-of-round value of a "
            f"{ARTIST_NAMES[artist]} painting about ${values[artist]:.0f}."
        )
    worth = sum(values[ARTIST_OF[c]] for c in (view.get("lot") or {}).get("cards") or [])
    about = f"the lot's projected end-of-round value is about ${worth:.0f}"
    if kind == "add":
        return action, f"Add {card_name(action['card'])} to the double: {about}."
    if kind == "decline":
        return action, f"Decline: adding your card would sell it with this lot; {about}."
    if kind in ("bid", "sealed", "price"):
        verb = {"bid": "Bid", "sealed": "Bid (sealed)", "price": "Ask"}[kind]
        return action, f"{verb} ${action['amount']}: {about}."
    if kind == "buy":
        return action, f"Buy at ${view.get('price')}: {about}."
    return action, f"Pass: {about}, less than it would cost."
