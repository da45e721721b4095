"""The end screen: the scoring broken down (S15–S17), the winners and the tie-break."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.widgets import Static

from modernart.engine.serengeti.cards import TRIBES

from ..dialog import Dialog
from ..rematch import DIALOG_KEYS, GAME_OVER_BINDINGS, RematchLine
from ..words import short_name, winners_line
from .words import TIEBREAK_WORDS, TRIBE_SHORT, TRIBE_STYLE


def score_table(event: dict[str, Any], names: list[str]) -> Table:
    """S15–S17 broken down: each tribe's cards → points, the tribe sum, the most-chips
    bonus, the total, and the tie-breaks' cards and chips."""
    table = Table(box=None, padding=(0, 1), collapse_padding=True, show_edge=False)
    table.add_column("Player", no_wrap=True, max_width=10)
    for tribe in TRIBES:
        table.add_column(Text(TRIBE_SHORT[tribe], style=TRIBE_STYLE[tribe]), justify="right")
    for title in ("tribes", "+3", "total", "cards", "chips"):
        table.add_column(title, justify="right", header_style="bold", no_wrap=True)
    winners = set(event.get("winners") or [])
    for seat, score in enumerate(event.get("scores") or []):
        cards, tribes = score.get("cards") or {}, score.get("tribes") or {}
        cells = [
            Text(f"{cards.get(t, 0)}→{tribes.get(t, 0)}") if cards.get(t) else Text("·", "dim")
            for t in TRIBES
        ]
        name = Text(short_name(names[seat] if seat < len(names) else "?", 10))
        name.stylize("bold yellow" if seat in winners else "")
        table.add_row(
            name,
            *cells,
            str(score.get("tribe_points", 0)),
            f"+{score['chips_bonus']}" if score.get("chips_bonus") else "·",
            Text(str(score.get("points", 0)), style="bold"),
            str(score.get("owned", 0)),
            str(score.get("chips", 0)),
        )
    return table


class SerengetiOver(Dialog[str]):
    """The scoring broken down (S15–S17), the winners and how a tie was broken."""

    BINDINGS: ClassVar[list[BindingType]] = GAME_OVER_BINDINGS

    def __init__(self, event: dict[str, Any], names: list[str]) -> None:
        super().__init__()
        self.event, self.names = event, names

    def compose(self) -> ComposeResult:
        winners = [self.names[s] for s in self.event.get("winners") or [] if s < len(self.names)]
        tie = TIEBREAK_WORDS.get(self.event.get("tiebreak") or "points", "")
        with Vertical(id="dialog"):
            yield Static(
                Text(f"Game over — {winners_line(winners)}!", style="bold yellow"),
                classes="title",
            )
            yield Static(Text(f"Decided by {tie}.", style="italic"))
            yield Static(score_table(self.event, self.names))
            yield Static(
                Text(
                    "Each tribe: n cards → 1+2+…+n points. +3: most chips left (S16). "
                    "Ties: most cards, then most chips (S17).",
                    style="dim",
                )
            )
            yield RematchLine()
            yield Static(Text(DIALOG_KEYS, style="dim"), classes="hint")

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)
