"""Modern Art's hint (issue 12, `?` at the table): what the `hard` bot would do from
the player's own view, and one line saying why. It knows no more than the view."""

from __future__ import annotations

from typing import Any

from ..cards import ARTIST_NAMES, ARTIST_OF, TYPE_OF
from .heuristic import HeuristicBot, painting_values

TYPE_NAME = {
    "open": "open",
    "once_around": "once around",
    "sealed": "sealed",
    "fixed_price": "fixed price",
    "double": "double",
}


def card_name(code: str) -> str:
    """'Krypto (sealed)': a card in words."""
    return f"{ARTIST_NAMES[ARTIST_OF[code]]} ({TYPE_NAME[TYPE_OF[code]]})"


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
