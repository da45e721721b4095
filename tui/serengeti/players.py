"""The players: turn and start markers, chips, points, barred digits, cards by tribe."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from ..presence import seat_status
from ..quiet import quiet_update
from ..words import short_name
from .words import by_tribe, digit_list


def players_table(view: dict[str, Any], name_width: int = 10, width: int = 0) -> Table:
    """One row per seat: turn and start markers, name, chips, points, barred digits, cards.
    At `width` (if given) the cards wrap by whole tribes."""
    you = view.get("you")
    seats = view.get("seats") or []
    barred = [digit_list(info.get("barred") or []) for info in seats]
    barred_width = min(13, max(6, *map(len, barred))) if barred else 6
    # the columns before the cards, and a space between each two of the eight
    cards_width = width - (1 + 1 + name_width + 4 + 5 + 3 + barred_width + 7) if width else 0
    playing = view.get("status", "playing") == "playing" and not view.get("finished")
    waiting = view.get("status", "playing") == "waiting"
    to_act = set(view.get("to_act") or [])
    table = Table.grid(padding=(0, 1))
    table.add_column(width=1, no_wrap=True)
    table.add_column(width=1, no_wrap=True)
    table.add_column(width=name_width, no_wrap=True)
    table.add_column(width=4, no_wrap=True)  # "away", "left"
    table.add_column(justify="right", width=5, no_wrap=True)
    table.add_column(justify="right", width=3, no_wrap=True)
    table.add_column(width=barred_width)
    table.add_column(min_width=10)
    head = ("", "", "Player", "on", "chips", "pts", "barred", "cards by tribe")
    table.add_row(*(Text(h, style="bold") for h in head))
    passed = set(view.get("passed") or [])
    for seat, info in enumerate(seats):
        name = Text(short_name(info.get("name", "?"), name_width))
        name.stylize("bold reverse" if seat == you else "bold")
        if seat in passed and playing:
            name.stylize("dim")
        chips = info.get("chips")
        table.add_row(
            Text("▶", style="bold yellow") if playing and seat in to_act else "",
            Text("S", style="bold yellow reverse") if playing and seat == view.get("start") else "",
            name,
            seat_status(info),
            Text(str(chips), style="bold") if chips is not None else Text("" if waiting else "?"),
            "" if waiting else str(info.get("points", 0)),
            Text(barred[seat], style="red"),
            by_tribe(info.get("owned") or [], max(cards_width, 10) if width else 0),
        )
    return table


class SerengetiPlayers(Static):
    DEFAULT_CSS = """
    SerengetiPlayers { height: auto; border: round ansi_bright_black; padding: 0 1;
                       border-title-color: ansi_bright_white; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.view: dict[str, Any] = {}

    def show(self, view: dict[str, Any]) -> None:
        self.view = view
        self._draw()

    def _draw(self) -> None:
        width = self.content_size.width
        # Names get what the cards leave: a player may own a dozen cards in six tribes.
        names = max(8, min(20, width - 66)) if width else 10
        quiet_update(self, players_table(self.view, names, width))

    def on_resize(self) -> None:
        if self.view:
            self._draw()
