"""A game's `rated` event (issue 18) in words, for the table's log."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def _change(change: dict[str, Any]) -> str:
    """ "1562 (+62)", a provisional rating with a "?" (issue 33)."""
    after, before = change.get("after"), change.get("before")
    delta = after - before if isinstance(after, int) and isinstance(before, int) else 0
    mark = "?" if change.get("provisional") else ""
    return f"{after}{mark} ({delta:+d})"


def rating_line(names: Sequence[str], ratings: Sequence[Any]) -> str:
    """ "Ratings: Ann 1562 (+62), Bob 1450 (-50) · bot levels: hard 1650 (+3)". A bot
    level has one rating, which all its bots share (docs/decisions/28-lobby.md): it is
    told once per level and named as the level's, not as a seat's (three hard bots
    showed the same "+109" each, and a winning bot's "+3" looked like its own game's)."""
    seats, levels = [], {}
    for seat, change in enumerate(ratings):
        if not isinstance(change, dict):
            continue
        level = change.get("level")
        if isinstance(level, str):
            levels.setdefault(level, _change(change))
            continue
        name = names[seat] if seat < len(names) else "?"
        seats.append(f"{name} {_change(change)}")
    if levels:
        told = ", ".join(f"{level} {change}" for level, change in levels.items())
        seats.append(f"bot levels (one rating each): {told}")
    return "Ratings: " + ", ".join(seats) if seats else "This game was not rated."
