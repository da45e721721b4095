"""A seat's own part of an Art Society game in the game's words: what the replay viewer's
last page reveals (tui/replay.py)."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from ..words import add_line


def describe_private(view: dict[str, Any]) -> Text:
    """The bid cards left in hand, the white card that breaks ties (A8: the bottom of the
    stack) and a bid card laid face down, of the seat whose `view` this is."""
    hand = view.get("hand") or []
    text = Text("Bid cards left: ", style="cyan")
    text.append(" ".join(map(str, hand)) if hand else "none")
    stack = view.get("stack") or []
    if stack:
        add_line(text, "White card", f"{stack[0]} (breaks tied bids, A8)")
    if view.get("my_bid") is not None:
        add_line(text, "Bid card laid", str(view["my_bid"]))
    return text
