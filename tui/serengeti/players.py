"""The players: turn and start markers, chips, points, barred digits, cards by tribe."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from ..lines import LinePanel, Paragraph, columns
from ..presence import seat_status
from ..words import short_name
from .words import by_tribe, digit_list

# The markers, on, chips and pts, with the spaces between all eight columns (the name,
# barred and the cards come on top).
FIXED_COLUMNS = 1 + 1 + 4 + 5 + 3 + 7


def players_lines(view: dict[str, Any], name_width: int = 10, width: int = 0) -> list[Text]:
    """One row per seat: turn and start markers, name, chips, points, barred digits, cards.
    At `width` (if given) the cards wrap by whole tribes, each further line of them a row
    of its own under the cards column."""
    you = view.get("you")
    seats = view.get("seats") or []
    barred = [digit_list(info.get("barred") or []) for info in seats]
    barred_width = min(13, max(6, *map(len, barred))) if barred else 6
    cards_width = width - (FIXED_COLUMNS + name_width + barred_width) if width else 0
    playing = view.get("status", "playing") == "playing" and not view.get("finished")
    waiting = view.get("status", "playing") == "waiting"
    to_act = set(view.get("to_act") or [])

    def row(*cells: Paragraph) -> Text:
        mark, start, name, on, chips, points, digits, cards = cells
        return columns(
            (mark, 1, "left"),
            (start, 1, "left"),
            (name, name_width, "left"),
            (on, 4, "left"),  # "away", "left"
            (chips, 5, "right"),
            (points, 3, "right"),
            (digits, barred_width, "left"),
            (cards, 0, "left"),
        )

    head = ("", "", "Player", "on", "chips", "pts", "barred", "cards by tribe")
    rows = [row(*(Text(h, style="bold") for h in head))]
    passed = set(view.get("passed") or [])
    for seat, info in enumerate(seats):
        name = Text(short_name(info.get("name", "?"), name_width))
        name.stylize("bold reverse" if seat == you else "bold")
        if seat in passed and playing:
            name.stylize("dim")
        chips = info.get("chips")
        cards, *more = by_tribe(
            info.get("owned") or [], max(cards_width, 10) if width else 0
        ).split("\n")
        rows.append(
            row(
                Text("▶", style="bold yellow") if playing and seat in to_act else "",
                Text("S", style="bold yellow reverse")
                if playing and seat == view.get("start")
                else "",
                name,
                seat_status(info),
                Text(str(chips), style="bold")
                if chips is not None
                else Text("" if waiting else "?"),
                "" if waiting else str(info.get("points", 0)),
                Text(barred[seat], style="red"),
                cards,
            )
        )
        rows += [row(*[""] * 7, line) for line in more]
    return rows


class SerengetiPlayers(LinePanel):
    """The players' rows, built again only when something they show changes (most
    updates change a bid, not the players), and then only the rows that changed are
    repainted."""

    SHOWN = ("seats", "you", "status", "finished", "to_act", "start", "passed")

    DEFAULT_CSS = """
    SerengetiPlayers { height: auto; border: round ansi_bright_black; padding: 0 1;
                       border-title-color: ansi_bright_white; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.view: dict[str, Any] = {}
        self._key = ""

    def show(self, view: dict[str, Any]) -> None:
        self.view = view
        self._draw()

    def _draw(self) -> None:
        width = self.content_size.width
        key = repr([width, *(self.view.get(k) for k in self.SHOWN)])
        if key == self._key:
            return
        self._key = key
        # Names get what the cards leave: a player may own a dozen cards in six tribes.
        names = max(8, min(20, width - 66)) if width else 10
        self.set_lines(players_lines(self.view, names, width))

    def on_resize(self) -> None:
        if self.view:
            self._draw()
