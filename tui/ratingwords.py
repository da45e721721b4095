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


# Why nobody was rated (`rated.unrated`, docs/protocol.md): server/people/ratingrules.py.
UNRATED_WHY = {
    "weak_bots": "random and easy bots are not rated; normal bots or stronger are",
    "pair_limit": "two players here have played today's rated games together (a pair "
    "counts a few a day)",
    "provisional": "a new player's rating (with ?) moves no one's, and no one here had "
    "more; normal bots or stronger rate you",
}


# Why new players at one table moved alike whatever their places (play-test 2026-12-03:
# every human lost 110, which read as a bug): a provisional rating moves no one's.
PROVISIONAL = " (?: new, rated only against bots and established players, not each other)"


def rating_line(names: Sequence[str], ratings: Sequence[Any], unrated: Any = None) -> str:
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
    if seats:
        new = any(isinstance(c, dict) and c.get("provisional") for c in ratings)
        return "Ratings: " + ", ".join(seats) + (PROVISIONAL if new else "")
    why = UNRATED_WHY.get(unrated) if isinstance(unrated, str) else None
    return f"This game was not rated: {why}." if why else "This game was not rated."


def rated_line(names: Sequence[str], event: dict[str, Any]) -> str:
    """The `rated` event in words."""
    return rating_line(names, event.get("ratings") or [], event.get("unrated"))
