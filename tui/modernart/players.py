"""The players: who is connected, hand sizes, paintings bought this round, whose decision it is."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from ..lines import LinePanel, Paragraph, columns, made_row
from ..presence import seat_status
from ..words import short_name
from .style import paintings

FIXED_COLUMNS = 16  # the markers, on, # and $, with the spaces between all columns


def players_lines(
    view: dict[str, Any], name_width: int = 12, made: dict[str, Text] | None = None
) -> list[Text]:
    """One row per seat; money shows only where the view has it (yours, or all at the end, R27).

    `bought` (this round's purchases, counts per artist) is the last column and wraps
    rather than push the markers off the row, when even short names leave it too little
    room. `made` (if given) keeps each seat's row by all it shows, as Serengeti's
    players do: the turn marker moves with every update, the other seats' rows stay.
    """
    you = view.get("you")
    to_act = set(view.get("to_act") or [])
    lot = view.get("lot")
    running = lot["seller"] if lot else view.get("auctioneer")
    waiting = view.get("status", "playing") == "waiting"
    playing = view.get("status", "playing") == "playing" and not view.get("finished")
    bold = "bold"

    def row(*cells: Paragraph) -> Text:
        mark, auctioneer, name, on, hand, money, bought = cells
        return columns(
            (mark, 1, "left"),
            (auctioneer, 1, "left"),
            (name, name_width, "left"),
            (on, 3, "left"),
            (hand, 2, "right"),
            (money, 3, "right"),
            (bought, 0, "left"),
        )

    header = ("Player", "on", "#", "$", "bought")
    rows = [row("", "", *(Text(h, style=bold) for h in header))]

    def seat_row(seat: int, info: dict[str, Any], acting: bool, runs: bool) -> Text:
        label = short_name(info.get("name", "?"), name_width)
        return row(
            Text("▶", style="bold yellow") if acting else "",
            Text("A", style="bold yellow reverse") if runs else "",
            Text(label, style="bold reverse" if seat == you else bold),
            seat_status(info),
            "" if waiting else str(info.get("hand_size", 0)),
            _money(info.get("money"), waiting),
            paintings(info.get("purchased") or []),
        )

    for seat, info in enumerate(view.get("seats") or []):
        acting = playing and seat in to_act
        runs = playing and seat == running
        key = repr((name_width, seat == you, acting, runs, waiting, info))
        rows.append(made_row(made, key, seat_row, seat, info, acting, runs))
    virtual = view.get("virtual")
    if virtual:
        virtual_runs = playing and view.get("auctioneer") == len(view.get("seats") or [])
        rows.append(
            row(
                "",
                "A" if virtual_runs else "",
                Text("(virtual)", style="italic"),
                "",
                str(virtual.get("hand_size", 0)),
                "",
                "",
            )
        )
    return rows


def _money(money: int | None, waiting: bool) -> Text:
    if money is not None:
        return Text(str(money), style="bold")
    return Text("" if waiting else "?", style="dim")  # R4: hidden until the end


class Players(LinePanel):
    """Redrawn only when something shown changes."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._key: object = None
        self._view: dict[str, Any] = {}
        self._made: dict[str, Text] = {}

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
        self.set_lines(players_lines(self._view, self.name_width, self._made))

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
