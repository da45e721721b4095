"""A panel of text drawn with Textual's Line API: what a game's table shows as lines (issue 31).

A `Static` given new content renders it whole: Textual turns the text into its own
content, measures it, and, when its size may change, lays the whole screen out again,
which then redraws every widget. A game's update does that for most of a table's lines
(docs/decisions/client-performance.md). A `LinePanel` keeps its content as paragraphs
(Rich texts, a line or more each), each drawn once into rows of cells (`Strip`s) at the
panel's width and kept; a new content draws only the paragraphs it has not drawn before,
compares the rows with the rows shown, and repaints the rows that changed, nothing else.

A panel with a fixed height (CSS) is never laid out by a change of content: rows past
its height are not shown. With `height: auto` it is as tall as its rows within its
`min-height` and `max-height`, and laid out only when that height changes (a new seat in
a table, not a new bid).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget

Paragraph = Text | str
_TEXT_FIELDS = ("plain", "style", "justify", "overflow", "no_wrap", "end")
MAX_DRAWN = 32  # paragraphs drawn kept per panel, the least recently used let go
MAX_MADE = 256  # rows kept by `made_row` per panel (it starts again when full)
Made = TypeVar("Made")


def paragraph_key(paragraph: Paragraph) -> tuple[Any, ...]:
    """What a paragraph shows: its characters, spans and how it wraps (two Rich texts
    equal in all of these draw the same cells)."""
    if isinstance(paragraph, str):
        return ("str", paragraph)
    fields = tuple(getattr(paragraph, field) for field in _TEXT_FIELDS)
    return (*fields, tuple(paragraph.spans))


class LinePanel(Widget):
    """Paragraphs of text drawn as cached rows; `set_lines` repaints only the rows that changed."""

    DEFAULT_CSS = """
    LinePanel {
        height: auto;
    }
    """

    def __init__(self, *paragraphs: Paragraph, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._paragraphs: list[Paragraph] = list(paragraphs)
        self._keys = [paragraph_key(p) for p in self._paragraphs]
        self._drawn: dict[tuple[Any, ...], list[Strip]] = {}  # (key, width) -> its rows
        self._rows: list[Strip] = []
        self._rows_width = -1  # the width `_rows` were drawn at (-1: not drawn)
        self._style: Style | None = None  # the widget's style (None: to be worked out)
        self._styled: dict[int, Strip] = {}  # row -> drawn with the style, for `_styled_for`
        self._styled_for: list[Strip] | None = None

    @property
    def content(self) -> Paragraph:
        """What is shown, as a `Static`'s `content` gives it: the one paragraph, or all of
        them as one text."""
        if len(self._paragraphs) == 1:
            return self._paragraphs[0]
        return Text("\n").join(Text(p) if isinstance(p, str) else p for p in self._paragraphs)

    @property
    def text(self) -> str:
        """The rows as plain text, one per line (what the panel shows, untruncated)."""
        return "\n".join(strip.text.rstrip() for strip in self.rows(self._width()))

    def set_lines(self, paragraphs: Sequence[Paragraph] | Paragraph) -> None:
        """Show `paragraphs` (or one paragraph: an empty one is a blank row, as in a
        `Static`): nothing happens if they are the ones shown; otherwise the rows that
        changed are repainted, and the panel is laid out only if its size follows its
        content and changed."""
        if isinstance(paragraphs, (str, Text)):
            paragraphs = [paragraphs]
        keys = [paragraph_key(p) for p in paragraphs]
        if keys == self._keys:
            return
        follows = self._width_follows()
        natural = self._natural_width() if follows else 0
        self._paragraphs, self._keys = list(paragraphs), keys
        if follows and self._natural_width() != natural:
            self._rows_width = -1
            self.refresh(layout=True)
            return
        width = self._width()
        if width <= 0 or not self.is_mounted:  # not laid out yet: drawn when it is
            self._rows_width = -1
            self.refresh(layout=self._height_follows())
            return
        old = self._rows if self._rows_width == width else None
        self._rows_width = -1
        new = self.rows(width)
        if self._height_follows() and self._height(len(new)) != self.size.height:
            self.refresh(layout=True)
        elif old is None:
            self.refresh()
        else:
            changed = [
                Region(0, y, width, 1)
                for y in range(max(len(old), len(new)))
                if y >= len(old) or y >= len(new) or old[y] != new[y]
            ]
            if changed:
                self.refresh(*changed)

    def forget(self) -> None:
        """Draw every paragraph again at the next repaint (a full redraw, for tests)."""
        self._drawn.clear()
        self._rows_width = -1
        self.refresh()

    # ------------------------------------------------------------- drawing

    def _width(self) -> int:
        return self.content_size.width

    def _height_follows(self) -> bool:
        height = self.styles.height
        return height is None or height.is_auto

    def _height(self, rows: int) -> int:
        """How tall `rows` rows make a panel whose height follows them: its rows within
        its `min-height` and `max-height` (in cells, less the border and padding)."""
        styles = self.styles
        gutter = styles.gutter.height if styles.box_sizing == "border-box" else 0
        if styles.min_height is not None and styles.min_height.is_cells:
            rows = max(rows, int(styles.min_height.value) - gutter)
        if styles.max_height is not None and styles.max_height.is_cells:
            rows = min(rows, int(styles.max_height.value) - gutter)
        return rows

    def rows(self, width: int) -> list[Strip]:
        """The rows of the paragraphs at `width`, drawn from the cache where it can."""
        if width == self._rows_width:
            return self._rows
        kept = self._drawn
        rows: list[Strip] = []
        for key, paragraph in zip(self._keys, self._paragraphs, strict=True):
            drawn = kept.pop((key, width), None)  # put back last: the newest used last
            if drawn is None:
                drawn = self._draw_paragraph(paragraph, width)
            kept[(key, width)] = drawn
            rows += drawn
        for _ in range(len(kept) - MAX_DRAWN):
            del kept[next(iter(kept))]  # the least recently used
        self._rows, self._rows_width = rows, width
        return rows

    def _draw_paragraph(self, paragraph: Paragraph, width: int) -> list[Strip]:
        """One paragraph's rows at `width`, as a `Static` would wrap it."""
        if width <= 0:
            return []
        console = self.app.console
        options = self.app.console_options.update(width=width, highlight=False, height=None)
        lines = console.render_lines(paragraph, options, pad=False)
        return [Strip(Segment.simplify(line)).simplify() for line in lines]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.rows(width))

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self._natural_width() if self._width_follows() else container.width

    def _width_follows(self) -> bool:
        width = self.styles.width
        return width is not None and width.is_auto

    def _natural_width(self) -> int:
        """The widest line of the paragraphs, in cells (a `width: auto` panel's width)."""
        lines = (line for p in self._paragraphs for line in str(p).split("\n"))
        return max(map(cell_len, lines), default=0)

    def render_line(self, y: int) -> Strip:
        width = self._width()
        rows = self.rows(width)
        if self._styled_for is not rows:  # new rows: each styled again when drawn
            self._styled, self._styled_for = {}, rows
        strip = self._styled.get(y)
        if strip is None:
            if self._style is None:  # the widget's own style, worked out once
                self._style = self.rich_style
            style = self._style
            strip = Strip.blank(width, style)
            if y < len(rows):
                strip = rows[y].crop_extend(0, width, style).apply_style(style)
            self._styled[y] = strip
        return strip

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._style, self._styled_for = None, None


def columns(*cells: tuple[Paragraph, int, str]) -> Text:
    """One row of a grid: each cell `(text, width, justify)` cut or padded to `width`
    cells ("left" or "right"), one space between cells; the last cell keeps its length
    when its width is 0 (a table's last column that takes what is left)."""
    row = Text(no_wrap=False)
    last = len(cells) - 1
    for i, (cell, width, justify) in enumerate(cells):
        text = Text(cell) if isinstance(cell, str) else cell.copy()
        if i:
            row.append(" ")
        if width or i != last:
            text.truncate(width, overflow="crop")
            gap = max(0, width - text.cell_len)
            if justify == "right":  # the padding unstyled, as a grid pads a cell
                text = Text.assemble(" " * gap, text)
            else:
                text.pad_right(gap)
        row.append_text(text)
    return row


def made_row(made: dict[str, Made] | None, key: str, make: Callable[..., Made], *args: Any) -> Made:
    """`make(*args)`, or what it made before for `key` when `made` keeps a panel's rows by
    all they show (a players' table: the turn marker moves every update, the other rows
    stay; issue 31). `made` starts again when full."""
    if made is None:
        return make(*args)
    row = made.get(key)
    if row is None:
        if len(made) >= MAX_MADE:
            made.clear()
        row = made[key] = make(*args)
    return row
