"""The other players' small walls side by side, each seat's block a column (issue 31).

They were a Rich `Table.grid(padding=(0, 1))` shown in a `Static`: built anew on every
update, measured and drawn whole, and laid out with the screen. `OtherWalls` is a
`LinePanel` of fixed height (CSS) whose rows are built from the blocks with `columns()`,
so an update repaints only the rows that changed and lays nothing out. The columns are
as wide as Rich made them, so that the panel looks as it did: a block is as wide as its
widest line; blocks too wide for the panel (a held assistant's "assistant [L]" beside
two others, at 80 columns) are narrowed as Rich narrows a grid's columns, the widest
first, and their lines wrapped at that width.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.text import Text

from ..lines import LinePanel, columns


def reduce(total: int, ratios: list[int], maximums: list[int], values: list[int]) -> list[int]:
    """`values` less `total` shared by `ratios`, none by more than its maximum (Rich's
    `ratio_reduce`, with its rounding, so that the widths are Rich's to the cell)."""
    ratios = [ratio if most else 0 for ratio, most in zip(ratios, maximums, strict=True)]
    left, weight, out = total, sum(ratios), []
    for ratio, most, value in zip(ratios, maximums, values, strict=True):
        if ratio and weight > 0:
            cut = min(most, round(ratio * left / weight))
            out.append(value - cut)
            left, weight = left - cut, weight - ratio
        else:
            out.append(value)
    return out


def fit(widths: list[int], room: int) -> list[int]:
    """Column widths (each with the space after it but the last's) narrowed to `room`
    as Rich narrows a grid's: the widest toward the next widest, then all evenly."""
    while (excess := sum(widths) - room) > 0:
        widest = max(widths)
        second = max((w for w in widths if w != widest), default=0)
        ratios = [int(w == widest) for w in widths]
        if widest == second:
            break
        widths = reduce(excess, ratios, [min(excess, widest - second)] * len(widths), widths)
    if (excess := sum(widths) - room) > 0:
        widths = reduce(excess, [1] * len(widths), widths, widths)
    return widths


def grid_rows(blocks: Sequence[Text], width: int, console: Console) -> list[Text]:
    """The blocks side by side in `width` cells, one space between them, as rows (none
    before the panel has a width: it draws them when it gets one)."""
    if not blocks or width <= 0:
        return []
    last = len(blocks) - 1
    split = [list(block.split("\n")) for block in blocks]
    natural = [max(line.cell_len for line in lines) or 1 for lines in split]
    gaps = [int(i != last) for i in range(len(blocks))]
    sizes = [n + gap for n, gap in zip(natural, gaps, strict=True)]
    if sum(sizes) > width:
        sizes = fit(sizes, width)
    cells = [max(size - gap, 0) for size, gap in zip(sizes, gaps, strict=True)]
    wrapped = [  # only a narrowed block is wrapped (as Rich wraps and cuts a cell)
        lines
        if cell >= full
        else list(block.wrap(console, cell, justify="left", overflow="ellipsis"))
        for block, lines, cell, full in zip(blocks, split, cells, natural, strict=True)
    ]
    height = max(len(lines) for lines in wrapped)
    padded = [lines + [Text()] * (height - len(lines)) for lines in wrapped]
    return [
        columns(*((lines[y], cell, "left") for lines, cell in zip(padded, cells, strict=True)))
        for y in range(height)
    ]


class OtherWalls(LinePanel):
    """The blocks, drawn again into rows when the panel's width changes."""

    _blocks: Sequence[Text] = ()

    def show(self, blocks: Sequence[Text]) -> None:
        self._blocks = blocks
        self._draw()

    def _draw(self) -> None:
        self.set_lines(grid_rows(self._blocks, self.content_size.width, self.app.console))

    def on_resize(self) -> None:
        self._draw()
