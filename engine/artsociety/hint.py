"""Art Society's hint (`?` at the table): the `hard` bot's action from the player's
own view, and one line saying why. It knows no more than the view."""

from __future__ import annotations

from typing import Any

from .bots import Board, HeuristicBot


def suggest(view: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
    """The hard bot's action for this view (None: nothing to decide) and why."""
    action = HeuristicBot(0).choose(view)
    if action is None:
        return None, "Nothing to decide now."
    kind = action["type"]
    if kind == "bid":
        board = Board(view)
        worth = sorted((board.painting_worth(p["code"]) for p in view["lot"]), reverse=True)
        return action, (
            f"Bid {action['card']}: the lot's best painting is worth about {worth[0]:.0f} "
            f"points on your wall, the average one {sum(worth) / len(worth):.0f} (A10, A11)."
        )
    if kind == "pick":
        code = action["painting"]
        worth = Board(view).painting_worth(code)
        return action, f"Take {code}: about {worth:.0f} points where it fits best (A12)."
    if kind == "place" and action["tile"] == "start":
        return action, (
            f"Hang your starting painting at {action['cell']}: near the middle, on a star, "
            "so the wall can grow every way (A7)."
        )
    if kind == "place":
        return action, (
            f"Hang the {action['tile']} tile at {action['cell']}: the most points now "
            "(multiplier, no faux pas, eyeline, frames, a snug fit; A13, A23–A26)."
        )
    if kind == "shapes":
        return action, f"Offer {', '.join(action['shapes'])}: the shapes that fit your wall (A9)."
    if kind == "decor":
        return action, f"Take a {action['size']}-shield decor piece: the biggest that fits (A18)."
    reasons = {
        "assist": "give it to your assistant: it earns little on the wall now (A15)",
        "done": "keep the assistant's tile for a better spot later (A15)",
        "excess": "it cannot be hung; the excess pile costs least here (A17)",
        "exchange": "swap it for a museum painting that fits (A16)",
        "decline": "no decor piece fits your wall (A18)",
        "discard": "the decor piece fits nowhere (A18)",
    }
    return action, f"{kind.capitalize()}: {reasons.get(kind, 'the safe move')}."
