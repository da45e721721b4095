"""The value board: artists × rounds of tokens, cards played this round, value now (R20–R23)."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from modernart.engine.modernart.cards import ARTISTS, CARDS_TO_END_ROUND, ROUNDS

from ..quiet import quiet_update
from .style import artist_text


def board_table(view: dict[str, Any]) -> Table:
    """The board as a table; `values`: a painting's price if the round ended now."""
    current = view.get("round", 1)
    counts = view.get("counts") or {}
    tokens = view.get("tokens") or {}
    values = view.get("values") or {}
    table = Table.grid(padding=(0, 1))
    table.add_column("artist", width=11, no_wrap=True)
    for _ in range(ROUNDS):
        table.add_column(justify="right", width=2)
    table.add_column("played", width=5, no_wrap=True)
    table.add_column("now", justify="right", width=3)
    header = [Text("Artist", style="bold")]
    for r in range(1, ROUNDS + 1):
        header.append(Text(f"R{r}", style="bold underline" if r == current else "bold"))
    header += [Text("cards", style="bold"), Text("now", style="bold")]
    table.add_row(*header)
    for artist in ARTISTS:
        row: list[Text] = [artist_text(artist)]
        for r, amount in enumerate(tokens.get(artist, [0] * ROUNDS)):
            row.append(
                Text(str(amount) if amount else "·", style="bold" if r + 1 == current else "")
            )
        n = counts.get(artist, 0)
        row.append(Text("■" * n + "·" * (CARDS_TO_END_ROUND - n), style="bold"))
        value = values.get(artist, 0)
        row.append(Text(str(value) if value else "·", style="bold" if value else "dim"))
        table.add_row(*row)
    return table


class ValueBoard(Static):
    """Redrawn only when tokens, counts, values or the round change."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._key: object = None

    def show(self, view: dict[str, Any]) -> None:
        key = (view.get("round"), repr(view.get("tokens")), repr(view.get("counts")))
        key = (*key, repr(view.get("values")))
        if key == self._key:
            return
        self._key = key
        quiet_update(self, board_table(view))
