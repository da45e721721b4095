"""Serengeti's terms for the expert's review (engine/review.py): losses in points."""

from __future__ import annotations

from typing import Any

from ..review import ReviewTerms

Action = dict[str, Any]


def reason(view: dict[str, Any], action: Action, better: Action | None) -> str | None:
    """S11: what the winner pays goes to the others; a lot passed up may be worth a bid."""
    if better is None:
        return None
    paid, instead = action.get("amount"), better.get("amount", 0)
    if action["type"] == "bid" and isinstance(paid, int) and instead < paid:
        return f"{paid} chips is too much for this lot: what you pay goes to the others"
    if action["type"] == "pass" and better["type"] == "bid":
        return f"this lot was worth a bid of {instead}"
    return None


# Points: the seat's final points less its rivals', a win counted 5 (the expert's score).
TERMS = ReviewTerms(
    unit="points",
    measure="your final points less your rivals', a win counted 5",
    thresholds=(3, 6, 12),
    reason=reason,
)
