"""The value board: artists × rounds of tokens, cards played this round, value now (R20–R23)."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from modernart.engine.modernart.cards import ARTISTS, CARDS_TO_END_ROUND, ROUNDS

from ..lines import LinePanel, columns
from .style import artist_text


def board_lines(view: dict[str, Any]) -> list[Text]:
    """The board as rows of a grid; `values`: a painting's price if the round ended now."""
    current = view.get("round", 1)
    counts = view.get("counts") or {}
    tokens = view.get("tokens") or {}
    values = view.get("values") or {}
    header: list[tuple[Text, int, str]] = [(Text("Artist", style="bold"), 11, "left")]
    for r in range(1, ROUNDS + 1):
        header.append(
            (Text(f"R{r}", style="bold underline" if r == current else "bold"), 2, "right")
        )
    header += [(Text("cards", style="bold"), 5, "left"), (Text("now", style="bold"), 3, "right")]
    rows = [columns(*header)]
    for artist in ARTISTS:
        row: list[tuple[Text, int, str]] = [(artist_text(artist), 11, "left")]
        for r, amount in enumerate(tokens.get(artist, [0] * ROUNDS)):
            token = Text(str(amount) if amount else "·", style="bold" if r + 1 == current else "")
            row.append((token, 2, "right"))
        n = counts.get(artist, 0)
        row.append((Text("■" * n + "·" * (CARDS_TO_END_ROUND - n), style="bold"), 5, "left"))
        value = values.get(artist, 0)
        row.append(
            (Text(str(value) if value else "·", style="bold" if value else "dim"), 3, "right")
        )
        rows.append(columns(*row))
    return rows


class ValueBoard(LinePanel):
    """Redrawn only when tokens, counts, values or the round change."""

    _key: object = None

    def show(self, view: dict[str, Any]) -> None:
        key = (view.get("round"), repr(view.get("tokens")), repr(view.get("counts")))
        key = (*key, repr(view.get("values")))
        if key != self._key:
            self._key = key
            self.set_lines(board_lines(view))
