"""The others' small walls drawn as `columns()` rows (tui/artsociety/others.py, issue 31)
look as the Rich grid they replace drew them: the same cells, in the same styles, when
the blocks fit and when a held assistant's line makes them too wide and they are
narrowed and wrapped."""

from __future__ import annotations

import itertools

from rich.console import Console
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from modernart.tui.artsociety.look import mini_text
from modernart.tui.artsociety.others import grid_rows

LAYOUT = {"cols": 10, "rows": 10, "eyeline": [5, 6]}
WALL = [{"cell": "A1", "w": 2, "h": 3, "genre": "city", "frame": "f2", "value": 3}]


def block(name: str, assistant: bool) -> Text:
    text = Text("▶", style="bold yellow")
    text.append(f"{name}\n", style="bold")
    text.append_text(mini_text(LAYOUT, WALL))
    text.append("\n57 pts", "bold")
    text.append(" ex2", style="bold red")
    if assistant:
        text.append("\nassistant ")
        text.append("(C)", style="bright_white on blue")
    return text


def cells(lines: list[list[Segment]], width: int) -> list[list[tuple[str, object]]]:
    """Each row's cells, as (character, style), padded with blanks to `width`."""
    out = []
    for line in lines:
        row = [(ch, seg.style or None) for seg in line for ch in seg.text]
        out.append(row + [(" ", None)] * (width - len(row)))
    return out


def rich_grid(blocks: list[Text], console: Console, width: int) -> list[list[Segment]]:
    grid = Table.grid(padding=(0, 1))
    for _ in blocks:
        grid.add_column()
    grid.add_row(*blocks)
    return console.render_lines(grid, console.options.update(width=width), pad=False)


def test_the_rows_are_the_rich_grids_cells_for_every_mix_of_assistants_and_widths() -> None:
    console = Console(width=120, color_system="truecolor")
    for count, width in itertools.product((1, 2, 3), (20, 27, 34, 40, 60)):
        for held in itertools.product((False, True), repeat=count):
            blocks = [block(name, a) for name, a in zip(("Bob", "Cy", "Dee"), held, strict=False)]
            ours = [
                console.render_lines(row, console.options.update(width=width), pad=False)[0]
                for row in grid_rows(blocks, width, console)
            ]
            theirs = rich_grid(blocks, console, width)
            assert cells(ours, width) == cells(theirs, width), (held, width)


def test_no_blocks_and_no_width_draw_no_rows() -> None:
    console = Console(width=40)
    assert grid_rows([], 34, console) == []
    assert grid_rows([block("Bob", False)], 0, console) == []
