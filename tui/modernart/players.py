"""The players: who is connected, hand sizes, paintings bought this round, whose decision it is."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from ..presence import seat_status
from ..quiet import quiet_update
from ..words import short_name
from .style import paintings

FIXED_COLUMNS = 16  # the markers, on, # and $, with the spaces between all columns


def players_table(view: dict[str, Any], name_width: int = 12) -> Table:
    """One row per seat; money shows only where the view has it (yours, or all at the end, R27).

    `bought` (this round's purchases, counts per artist) wraps rather than push
    the markers off the row, when even short names leave it too little room.
    """
    you = view.get("you")
    to_act = set(view.get("to_act") or [])
    lot = view.get("lot")
    running = lot["seller"] if lot else view.get("auctioneer")
    waiting = view.get("status", "playing") == "waiting"
    playing = view.get("status", "playing") == "playing" and not view.get("finished")
    table = Table.grid(padding=(0, 1))
    table.add_column(width=1, no_wrap=True)  # decision marker
    table.add_column(width=1, no_wrap=True)  # auctioneer marker
    table.add_column(width=name_width, no_wrap=True)
    table.add_column(width=3, no_wrap=True)
    table.add_column(justify="right", width=2, no_wrap=True)
    table.add_column(justify="right", width=3, no_wrap=True)
    table.add_column(min_width=7)
    table.add_row(
        "",
        "",
        Text("Player", style="bold"),
        Text("on", style="bold"),
        Text("#", style="bold"),
        Text("$", style="bold"),
        Text("bought", style="bold"),
    )
    for seat, info in enumerate(view.get("seats") or []):
        label = short_name(info.get("name", "?"), name_width)
        name = Text(label, style="bold reverse" if seat == you else "bold")
        status = seat_status(info)
        money = info.get("money")
        acting = playing and seat in to_act
        table.add_row(
            Text("▶", style="bold yellow") if acting else "",
            Text("A", style="bold yellow reverse") if playing and seat == running else "",
            name,
            status,
            "" if waiting else str(info.get("hand_size", 0)),
            _money(money, waiting),
            paintings(info.get("purchased") or []),
        )
    virtual = view.get("virtual")
    if virtual:
        table.add_row(
            "",
            "A" if playing and view.get("auctioneer") == len(view.get("seats") or []) else "",
            Text("(virtual)", style="italic"),
            "",
            str(virtual.get("hand_size", 0)),
            "",
            "",
        )
    return table


def _money(money: int | None, waiting: bool) -> Text:
    if money is not None:
        return Text(str(money), style="bold")
    return Text("" if waiting else "?", style="dim")  # R4: hidden until the end


class Players(Static):
    """Redrawn only when something shown changes."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._key: object = None
        self._view: dict[str, Any] = {}

    def show(self, view: dict[str, Any]) -> None:
        keys = ("seats", "to_act", "auctioneer", "lot", "status", "finished", "virtual", "you")
        key = repr([view.get(k) for k in keys])
        if key == self._key:
            return
        self._key = key
        self._view = view
        self._draw()

    def _draw(self) -> None:
        # Names get what the fixed columns leave, so wide terminals show them whole.
        quiet_update(self, players_table(self._view, self.name_width))

    @property
    def name_width(self) -> int:
        """What the fixed columns leave, less the longest `bought`, so that it keeps one row
        at 80 columns (names shrink to 6 cells first)."""
        width = self.content_size.width
        if not width:
            return 10
        bought = max(
            (len(paintings(s.get("purchased") or [])) for s in self._view.get("seats") or []),
            default=0,
        )
        return max(6, min(20, max(10, width - 29), width - FIXED_COLUMNS - bought))

    def on_resize(self) -> None:
        if self._view:
            self._draw()
