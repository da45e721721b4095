"""A seat's own part of a Modern Art game (its view's SEAT_KEYS) in the game's words:
what the replay viewer's last page reveals (tui/replay.py)."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from modernart.engine.modernart.cards import ARTIST_OF

from ..words import add_line
from .style import artist_style, card_name


def describe_private(view: dict[str, Any]) -> Text:
    """The hand (each card named in its artist's colour), the money and a sealed bid
    laid, of the seat whose `view` this is; one line each."""
    hand = view.get("hand") or []
    text = Text("Hand: ", style="cyan")
    for i, code in enumerate(hand):
        text.append(", " if i else "")
        text.append(card_name(code), style=artist_style(ARTIST_OF[code]))
    if not hand:
        text.append("no cards", style="dim")
    if view.get("money") is not None:
        add_line(text, "Money", f"${view['money']}")
    if view.get("my_sealed") is not None:
        add_line(text, "Sealed bid", str(view["my_sealed"]))
    return text
