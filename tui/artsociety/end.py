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
from textual.widgets import Static

from modernart.engine.artsociety.rules import EXCESS_TO_END, House
from modernart.engine.artsociety.wall import Wall

from ..dialog import Dialog
from ..rematch import DIALOG_KEYS, RematchLine
from . import values
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
- **w** shows each other wall full size in turn; **PgUp/PgDn** the event log (**End** the latest);
  **t** chat; **L** leave; **Ctrl+Q** quit; **?** a hint: what the hard bot
  would do from your view, and why (if the room allows hints).
- On the wall: `[L]` a landscape in frame 1, `(P)` portrait frame 2, `{S}`
  still life frame 3, `<C>` city frame 4; `+2` a 2-shield decor; struck
  labels are in a faux pas (score 0); `>` marks the eyeline rows, `*` the
  star cells.
- In lists, `val 4` is a painting's value (width + height − 1), `f2` its frame.
- **Other walls** are mini-maps: each character is one column of two cells (its top
  half the upper cell, its bottom half the lower one) in the genre's colour,
  magenta for decor; under it the score, and `ex1` counts the paintings that
  fitted nowhere ({excess} each at the end).
- The **Museum** line gives each genre's prestige and the multiplier it scores at
  now (`P 2→×{second}`: portraits, prestige 2, ×{second}); **Decor** the pieces left
  of each size: `+1` is 1×1 (1 shield), `+2` 2×1 (2 shields), `+3` 3×1 (3 shields),
  and **r** turns a piece upright (1×2, 1×3) before it is hung (A4); **in museum**
  the paintings nobody picked (A20).
- Your **white card** (in the bid cards' title) breaks ties between equal bids (A8).
- After the game, **e** shows the final scores again.
"""


def house_rules(house: House) -> str:
    """This game's house rules and scoring values (ARTSOCIETY.md), as its variant's settings."""
    h = house
    shapes = ", ".join(f"{w}×{hh}: {n}" for w, hh, n in h.shapes)
    lines = [
        "## House rules where the printed rules were unavailable",
        "Each is a setting of this game's variant (a verified value replaces it):",
        f"- wall {h.cols} × {h.rows}; eyeline rows {', '.join(map(str, h.eyeline))}; "
        f"star cells {', '.join(h.stars)} (A2)",
        f"- paintings (value = width + height − 1): {shapes} (A3)",
        f"- decor pieces 1×1, 2×1, 3×1 (1, 2, 3 shields; turned: 1×2, 1×3): "
        f"{', '.join(map(str, h.decor))} (A4)",
        f"- frame bonus: M matching frames bring {values.frame_bonus(h, 'M')} (A18)"
        + (", smaller pieces only when that size has run out" if h.frame_bonus == "exact" else ""),
        f"- multipliers for ranks 1–4: {', '.join(f'×{m}' for m in h.multipliers)} (A23)",
        f"- eyeline: a scoring painting of a first-ranked genre scores {values.eyeline(h)} (A25)",
        f"- {', '.join(values.end_costs(h))} (A27)",
        f"- museum exchange: {'same genre' if h.exchange == 'same' else 'any genre'} (A16)",
    ]
    return "\n".join(lines) + "\n"


def keys_help(variant: object = None) -> str:
    """F1's Art Society part: the house rules of the room's variant, then the table's keys."""
    house = values.house_of(variant)
    keys = KEYS.replace("{excess}", f"−{house.excess_penalty}")
    return house_rules(house) + keys.replace("{second}", str(house.multipliers[1]))


def score_rows(house: House, scores: Sequence[dict[str, Any]]) -> list[tuple[str, str]]:
    """The end screen's rows after the genres: (label with the variant's value, score key).
    A part this variant does not score (revision 2's empty cells, revision 1's corners) is
    left out unless a score has it."""
    rows = [
        ("faux pas", "faux_pas", True),
        (f"eyeline ({values.eyeline(house)})", "eyeline", True),
        ("decor shields", "shields", True),
        (f"excess (−{house.excess_penalty} each)", "excess", True),
        (f"empty cells (−{house.empty_penalty} each)", "empty", house.empty_penalty),
        (f"empty corners (−{house.corner_penalty} each)", "corners", house.corner_penalty),
        (f"full wall (+{house.full_bonus})", "full", True),
    ]
    return [(label, key) for label, key, shown in rows if shown or any(s.get(key) for s in scores)]


def why_it_ended(view: dict[str, Any], names: Sequence[str]) -> str:
    """A22 in words from the final view: which of the ends came ("Bob's wall is full").
    The `game_end` event does not say; the view shows each end's cause."""
    seats = view.get("seats") or []
    layout = view.get("wall") or {}
    cols, rows = layout.get("cols", 10), layout.get("rows", 10)
    reasons = []
    for seat, info in enumerate(seats):
        name = names[seat] if seat < len(names) else "?"
        you = name == "You"  # "You" begins the sentence only: "…; you have 2 excess …"
        if Wall.from_view(cols, rows, info.get("wall") or []).full:
            whose = ("Your" if not reasons else "your") if you else f"{name}'s"
            reasons.append(f"{whose} wall is full")
        if (info.get("excess") or 0) >= EXCESS_TO_END:
            who = ("You have" if not reasons else "you have") if you else f"{name} has"
            reasons.append(f"{who} {info['excess']} excess paintings")
    if not view.get("hand") and view.get("you") is not None:
        reasons.append("every bid card has been played")
    piles = view.get("piles")
    if isinstance(piles, dict) and not any(piles.values()):
        reasons.append("no painting is left for another lot")
    return ("Ended: " + "; ".join(reasons) + " (A22).") if reasons else ""


def score_table(
    scores: Sequence[dict[str, Any]],
    names: Sequence[str],
    winners: Sequence[int],
    house: House,
) -> Table:
    """One column per player, one row per part of the score (A23–A27), the total last."""
    table = Table(box=None, padding=(0, 1), show_edge=False)
    table.add_column("", header_style="bold")
    for seat, name in enumerate(names):
        mark = " ★" if seat in winners else ""
        # A name is text, never markup (issue 21): a Table parses markup in strings.
        table.add_column(Text(f"{name[:10]}{mark}"), justify="right", header_style="bold")
    for genre in GENRES:
        row: list[Text | str] = [genre_text(genre)]
        for sc in scores:
            part = sc["paintings"][genre]
            row.append(f"{part['count']}×{part['multiplier']}={part['points']}")
        table.add_row(*row)
    for label, key in score_rows(house, scores):
        # Faux pas are paintings, not points: counted as the genres' rows are, ×0.
        shown = "{}×0=0" if key == "faux_pas" else "{}"
        table.add_row(label, *(shown.format(sc.get(key, 0)) for sc in scores))
    table.add_row(
        Text("total", style="bold"), *(Text(str(sc["total"]), style="bold") for sc in scores)
    )
    return table


def table_width(table: Table) -> int:
    """The width a table takes when nothing limits it (all its columns in full)."""
    console = Console(width=500)
    return Measurement.get(console, console.options, table).maximum


class ArtSocietyEnd(Dialog[str | None]):
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
        Binding("a", "app.review_here", "Review"),  # over the dialog (tui/reviewing.py)
        Binding("R,r", "choose('rematch')", "Rematch"),
        Binding("D,d", "choose('decline')", "Decline"),
        Binding("q", "choose('quit')", "Quit"),
    ]

    def __init__(self, event: dict[str, Any], names: Sequence[str], view: dict[str, Any]) -> None:
        super().__init__()
        self.event = event
        self.names = list(names)
        self.you = view.get("you")
        self.view = view
        self.house = values.house_of(view.get("variant"))

    def compose(self) -> ComposeResult:
        winners = self.event.get("winners") or []
        names = ["You" if s == self.you else n for s, n in enumerate(self.names)]
        who = " and ".join(names[s] for s in winners) or "nobody"
        with Vertical(id="as-end"):
            verb = "wins" if len(winners) == 1 and who != "You" else "win"
            yield Static(Text(f"Game over: {who} {verb}", style="bold yellow"))
            table = score_table(self.event.get("scores") or [], names, winners, self.house)
            width = table_width(table)
            why = why_it_ended(self.view, names)
            if why:
                reason = Static(Text(why), id="as-end-why")
                reason.styles.width = width  # wrapped to the table's width, never wider
                yield reason
            shown = Static(table)
            shown.styles.width = width  # `auto` measures a Table too narrow
            yield shown
            yield RematchLine()
            yield Static(Text(DIALOG_KEYS, style="dim"))

    def on_mount(self) -> None:
        self.query_one("#as-end").border_title = "Final scores"

    def action_close(self) -> None:
        self.dismiss(None)

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)  # the table saves or quits (GameTable.after_game_over)
