"""The players: turn and start markers, chips, points, barred digits, cards by tribe."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from ..lines import LinePanel, Paragraph, columns, made_row
from ..presence import seat_status
from ..words import short_name
from .words import by_tribe, digit_list

# The markers, on, chips and pts, with the spaces between all eight columns (the name,
# barred and the cards come on top).
FIXED_COLUMNS = 1 + 1 + 4 + 5 + 3 + 7


def players_lines(
    view: dict[str, Any],
    name_width: int = 10,
    width: int = 0,
    made: dict[str, list[Text]] | None = None,
) -> list[Text]:
    """One row per seat: turn and start markers, name, chips, points, barred digits, cards.
    At `width` (if given) the cards wrap by whole tribes, each further line of them a row
    of its own under the cards column.

    `made` (if given) keeps each seat's rows by all they show: the turn marker moves
    with every update, and building the rows of the seats that did not change again
    was most of the players' time per update."""
    you = view.get("you")
    seats = view.get("seats") or []
    barred = [digit_list(info.get("barred") or []) for info in seats]
    barred_width = min(13, max(6, *map(len, barred))) if barred else 6
    cards_width = width - (FIXED_COLUMNS + name_width + barred_width) if width else 0
    widths = (name_width, barred_width, max(cards_width, 10) if width else 0)
    playing = view.get("status", "playing") == "playing" and not view.get("finished")
    waiting = view.get("status", "playing") == "waiting"
    to_act = set(view.get("to_act") or [])
    passed = set(view.get("passed") or [])
    head = ("", "", "Player", "on", "chips", "pts", "barred", "cards by tribe")
    rows = [_row(widths, *(Text(h, style="bold") for h in head))]
    for seat, info in enumerate(seats):
        marks = (
            seat == you,
            playing and seat in passed,
            playing and seat in to_act,
            playing and seat == view.get("start"),
            waiting,
        )
        key = repr((widths, marks, info))
        rows += made_row(made, key, _seat_rows, info, marks, widths)
    return rows


def _seat_rows(
    info: dict[str, Any], marks: tuple[bool, ...], widths: tuple[int, ...]
) -> list[Text]:
    """A seat's row, and a row under its cards column for each further line of cards."""
    yours, passed, acting, starting, waiting = marks
    name = Text(short_name(info.get("name", "?"), widths[0]))
    name.stylize("bold reverse" if yours else "bold")
    if passed:
        name.stylize("dim")
    chips = info.get("chips")
    cards, *more = by_tribe(info.get("owned") or [], widths[2]).split("\n")
    row = _row(
        widths,
        Text("▶", style="bold yellow") if acting else "",
        Text("S", style="bold yellow reverse") if starting else "",
        name,
        seat_status(info),
        Text(str(chips), style="bold") if chips is not None else Text("" if waiting else "?"),
        "" if waiting else str(info.get("points", 0)),
        Text(digit_list(info.get("barred") or []), style="red"),
        cards,
    )
    return [row, *(_row(widths, *[""] * 7, line) for line in more)]


def _row(widths: tuple[int, ...], *cells: Paragraph) -> Text:
    mark, start, name, on, chips, points, digits, cards = cells
    name_width, barred_width, _ = widths
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
        self._made: dict[str, list[Text]] = {}

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
        self.set_lines(players_lines(self.view, names, width, self._made))

    def on_resize(self) -> None:
        if self.view:
            self._draw()
