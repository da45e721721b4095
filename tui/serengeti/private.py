"""A seat's own part of a Serengeti game in the game's words: what the replay viewer's
last page reveals (tui/replay.py). Only the chips are a seat's own (S3); its payout
preview says what a lot in auction would pay, which no finished game has."""

from __future__ import annotations

from typing import Any

from rich.text import Text


def describe_private(view: dict[str, Any]) -> Text:
    """The chips of the seat whose `view` this is."""
    text = Text("Chips: ", style="cyan")
    chips = view.get("chips")
    text.append("?" if chips is None else str(chips))
    return text
