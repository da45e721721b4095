"""The review's page in the replay viewer (key r): how it was measured, a sparkline a
player of its expected result over the game, and its three costliest decisions; Enter
on one goes to that step (the dialog is dismissed with the viewer's step)."""

from __future__ import annotations

import textwrap
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from .dialog import Dialog
from .reviewmarks import STYLE, SYMBOL, Marks, action_words
from .sparkline import sparkline

NAME = 12  # a name's columns (the dialog's 70: a name, its chart, "-43 → +122")
CHART = 40  # a sparkline's columns
ROW = 42  # a costly decision's columns after its mark (a scroll bar beside); more go under it
MARK = 26  # the columns before them: "   step 122 ?? blunder    "


def _signed(value: float) -> str:
    return f"{value:+.0f}"


def header(marks: Marks) -> Text:
    """The review's own honesty: what the chart shows, its worlds and its noise."""
    review = marks.review
    worlds = review["worlds"]
    text = Text.assemble(
        ("The expert's review", "bold yellow"),
        (
            f" · {worlds} world{'s' if worlds != 1 else ''} a decision"
            f" · marks past {review['noise']:g}× spread",
            "dim",
        ),
        "\n",
        f"Chart, a bar a decision: {review['measure']}, in {marks.unit}",
    )
    return text


def option_rows(marks: Marks, names: list[str]) -> list[Option]:
    """A player's chart line (not selectable), then its costliest decisions."""
    charts = {seat: marks.expected(seat) for seat in range(len(names))}
    every = [v for values in charts.values() for v in values]
    low, high = (min(every), max(every)) if every else (0.0, 0.0)
    rows = []
    for seat, name in enumerate(names):
        values = charts[seat]
        line = Text(f"{name[:NAME]:<{NAME}} ", style="bold")
        if values:
            line.append(sparkline(values, CHART, low, high), style="green")
            line.append(f" {_signed(values[0])} → {_signed(values[-1])}", style="dim")
        else:
            line.append("nothing to weigh", style="dim")
        rows.append(Option(line, disabled=True))
        costly = marks.costliest(seat)
        if not costly:
            rows.append(Option(Text("   nothing marked", style="dim"), disabled=True))
        for d in costly:
            mark = d["mark"]
            words = action_words(marks.review["game"], d["action"])
            rows.append(
                Option(
                    Text.assemble(
                        f"   step {d['step'] + 1:>3} ",
                        (f"{SYMBOL[mark]:<2} {mark:<10}", STYLE[mark]),
                        " ",
                        f"\n{' ' * MARK}".join(
                            textwrap.wrap(f"−{d['loss']:.0f} {marks.unit}, {words}", ROW)
                        ),
                    ),
                    id=str(d["step"] + 1),
                )
            )
    return rows


class ReviewList(Dialog[int | None]):
    """Dismissed with the viewer step to go to, or None (Escape)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,r,q", "close", "Close")]

    def __init__(self, marks: Marks, names: list[str]) -> None:
        super().__init__()
        self.marks = marks
        self.names = names

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="review"):
            yield Static(header(self.marks))
            yield OptionList(*option_rows(self.marks, self.names), id="review-list")
            keys = "↑↓ a decision · Enter: go to its step · Escape: back"
            yield Static(Text(keys, style="dim"))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id or 0))

    def action_close(self) -> None:
        self.dismiss(None)
