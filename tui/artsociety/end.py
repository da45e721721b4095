"""Art Society's end screen (A23–A28, each player's score broken down) and its F1 help."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from modernart.engine.artsociety.rules import House

from .look import GENRES, genre_text

KEYS = """
## Keys at the Art Society table
- **Arrows** move the cursor: the ghost of the tile you place, the bid card,
  the painting to pick, the shape to add to the lot. **Enter** does it.
- The ghost is green where the tile may go and red where it may not; the
  panel says why (off the wall, overlapping, touching no tile).
- **Tab** another tile to place (the assistant's), **r** turns a decor piece,
  **a** gives the tile to the assistant, **x** museum exchange, **e** excess
  (only when the painting fits nowhere), **1 2 3** take decor from a frame
  bonus, **n** no decor, **l** lose the decor piece, **d** done (keep the
  assistant's tile), **⌫** undo a chosen shape.
- **w** shows each other wall full size in turn; **PgUp/PgDn** the event log;
  **t** chat; **L** leave; **Ctrl+Q** quit; **?** a hint: what the hard bot
  would do from your view, and why (if the room allows hints).
- On the wall: `[L]` a landscape in frame 1, `(P)` portrait frame 2, `{S}`
  still life frame 3, `<C>` city frame 4; `+2` a 2-shield decor; struck
  labels are in a faux pas (score 0); `>` marks the eyeline rows, `*` the
  star cells.
- In lists, `val 4` is a painting's value (width + height − 1), `f2` its frame.
- **Other walls** are mini-maps: each character is one column of two cells (its top
  half the upper cell, its bottom half the lower one) in the genre's colour,
  magenta for decor; `excess 1` under a wall counts paintings that fitted nowhere
  (−3 each at the end).
- The **Museum** line gives each genre's prestige and the multiplier it scores at
  now (`P 2→×3`: portraits, prestige 2, ×3); **Decor left** the pieces per size.
- Your **white card** (in the bid cards' title) breaks ties between equal bids (A8).
- After the game, **e** shows the final scores again.
"""


def house_rules(house: House | None = None) -> str:
    """The house rules of this game (ARTSOCIETY.md), as settings of the `house` variant."""
    h = house or House()
    shapes = ", ".join(f"{w}×{hh}: {n}" for w, hh, n in h.shapes)
    lines = [
        "## House rules where the printed rules were unavailable",
        "Each is a setting of the `house` variant (a verified value replaces it):",
        f"- wall {h.cols} × {h.rows}; eyeline rows {', '.join(map(str, h.eyeline))}; "
        f"star cells {', '.join(h.stars)} (A2)",
        f"- paintings (value = width + height − 1): {shapes} (A3)",
        f"- decor pieces of 1, 2, 3 shields: {', '.join(map(str, h.decor))} (A4)",
        f"- multipliers for ranks 1–4: {', '.join(f'×{m}' for m in h.multipliers)} (A23)",
        f"- eyeline bonus: the multiplier {h.eyeline_bonus} more time(s) (A25)",
        f"- −{h.excess_penalty} per excess painting, −{h.empty_penalty} per empty cell, "
        f"+{h.full_bonus} for a full wall (A27)",
        f"- museum exchange: {'same genre' if h.exchange == 'same' else 'any genre'} (A16)",
    ]
    return "\n".join(lines) + "\n"


KEYS_HELP = house_rules() + KEYS


def score_table(
    scores: Sequence[dict[str, Any]], names: Sequence[str], winners: Sequence[int]
) -> Table:
    """One column per player, one row per part of the score (A23–A27), the total last."""
    table = Table(box=None, padding=(0, 1), show_edge=False)
    table.add_column("", header_style="bold")
    for seat, name in enumerate(names):
        mark = " ★" if seat in winners else ""
        table.add_column(f"{name[:10]}{mark}", justify="right", header_style="bold")
    for genre in GENRES:
        row: list[Text | str] = [genre_text(genre)]
        for sc in scores:
            part = sc["paintings"][genre]
            row.append(f"{part['count']}×{part['multiplier']}={part['points']}")
        table.add_row(*row)
    rows = (
        ("faux pas (scored 0)", "faux_pas"),
        ("eyeline", "eyeline"),
        ("decor shields", "shields"),
        ("excess", "excess"),
        ("empty cells", "empty"),
        ("full wall", "full"),
    )
    for label, key in rows:
        table.add_row(label, *(str(sc.get(key, 0)) for sc in scores))
    table.add_row(
        Text("total", style="bold"), *(Text(str(sc["total"]), style="bold") for sc in scores)
    )
    return table


def table_width(table: Table) -> int:
    """The width a table takes when nothing limits it (all its columns in full)."""
    console = Console(width=500)
    return Measurement.get(console, console.options, table).maximum


class ArtSocietyEnd(ModalScreen[str | None]):
    DEFAULT_CSS = """
    ArtSocietyEnd {
        align: center middle;
    }
    #as-end {
        width: auto;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: round ansi_yellow;
        padding: 0 1;
        background: ansi_default;
    }
    #as-end > Static {
        width: auto;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter", "close", "Back to the table"),
        Binding("s", "choose('save')", "Save record"),
        Binding("q", "choose('quit')", "Quit"),
    ]

    def __init__(self, event: dict[str, Any], names: Sequence[str], view: dict[str, Any]) -> None:
        super().__init__()
        self.event = event
        self.names = list(names)
        self.you = view.get("you")

    def compose(self) -> ComposeResult:
        winners = self.event.get("winners") or []
        names = ["You" if s == self.you else n for s, n in enumerate(self.names)]
        who = " and ".join(names[s] for s in winners) or "nobody"
        with Vertical(id="as-end"):
            verb = "wins" if len(winners) == 1 and who != "You" else "win"
            yield Static(Text(f"Game over: {who} {verb}", style="bold yellow"))
            table = score_table(self.event.get("scores") or [], names, winners)
            shown = Static(table)
            shown.styles.width = table_width(table)  # `auto` measures a Table too narrow
            yield shown
            yield Static(
                Text("Enter: back to the table · s: save the record · q: quit", style="dim")
            )

    def on_mount(self) -> None:
        self.query_one("#as-end").border_title = "Final scores"

    def action_close(self) -> None:
        self.dismiss(None)

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)  # the table saves or quits (GameTable.after_game_over)
