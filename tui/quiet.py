"""Showing new content in a `Static` without the work it does not need (issue 16, fourth
session).

`Static.update()` asks for a layout of the whole screen every time (`refresh(layout=True)`):
Textual then arranges every widget again, sends each its size and redraws what moved,
even when the widget keeps its size, as a table's status line, a clock or a one-line
note always do. A game's update calls it for most of a table's lines, so a playing
session laid its screen out about twice an update (docs/decisions/client-performance.md).

`quiet_update(widget, content)` does nothing when the widget already shows that content, a repaint
of the widget alone when the new content takes the room the old one took, and Textual's
`update()` (a layout) only when the widget's size could change.

A Rich table (the players, the value board, a payout grid) is drawn once, at the width the
widget was laid out at, and kept as its lines (`Drawn`; issue 16, fifth session): Textual
otherwise renders it to measure its height and again to draw it, and a table built anew
for every update was never taken as the same. Its lines are compared with the lines
shown: the same lines do nothing, and when as many lines come, only the rows that
changed are repainted (a players table whose one row changed repaints that row). And
its cells (texts) are drawn from a cache of the cells drawn before (`Cell`): most of a
table's cells are the same from one update to the next, and drawing them was most of
the cost of drawing the table.
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table
from rich.text import Text
from textual.content import Content
from textual.geometry import Region
from textual.widgets import Static

from .textual_internals import active_app, column_cells, show_content

_TEXT_FIELDS = ("plain", "_spans", "style", "justify", "overflow", "no_wrap", "end", "tab_size")


def same(old: Any, new: Any) -> bool:
    """Whether `old` and `new` show the same: equal strings, or Rich texts equal in their
    characters, styles and wrapping (Rich's own `==` ignores the whole text's style), or
    tables drawn at one width into the same lines. Other renderables are never taken as
    the same."""
    if isinstance(old, str) or isinstance(new, str):
        return type(old) is type(new) and old == new
    if isinstance(old, Text) and isinstance(new, Text):
        return all(getattr(old, f) == getattr(new, f) for f in _TEXT_FIELDS)
    if isinstance(old, Content) and isinstance(new, Content):
        return old == new
    if isinstance(old, Drawn) and isinstance(new, Drawn):
        return old.width == new.width and old.lines == new.lines
    return False


MAX_CELLS = 4096  # cells drawn remembered per console (the cache starts again when full)
_drawn_cells: WeakKeyDictionary[Console, dict[tuple[Any, ...], Any]] = WeakKeyDictionary()


class Cell:
    """A table's cell (a Rich text or a string) whose drawing and measure are taken from
    the cells drawn before with the same content and options, by the same console."""

    __slots__ = ("content", "key")

    def __init__(self, content: Text | str) -> None:
        self.content = content
        if isinstance(content, str):
            self.key: tuple[Any, ...] = ("str", content)
        else:
            fields = (getattr(content, f) for f in _TEXT_FIELDS if f != "_spans")
            self.key = (*fields, tuple(content.spans))

    def _cached(self, console: Console, options: ConsoleOptions, kind: str, make: Any) -> Any:
        cache = _drawn_cells.setdefault(console, {})
        key = (kind, self.key, options_key(options))
        found = cache.get(key)
        if found is None:
            if len(cache) >= MAX_CELLS:
                cache.clear()
            found = cache[key] = make()
        return found

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        return self._cached(
            console, options, "lines", lambda: list(console.render(self.content, options))
        )

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return self._cached(
            console, options, "measure", lambda: Measurement.get(console, options, self.content)
        )


def options_key(options: ConsoleOptions) -> tuple[Any, ...]:
    """Everything in `options` that may change how a cell is drawn."""
    return (
        options.size,
        options.min_width,
        options.max_width,
        options.max_height,
        options.height,
        options.justify,
        options.overflow,
        options.no_wrap,
        options.highlight,
        options.markup,
        options.is_terminal,
        options.encoding,
        options.legacy_windows,
    )


def cached_cells(table: Table) -> Table:
    """`table` with its text cells drawn through the cache (`Cell`)."""
    for column in table.columns:
        cells = column_cells(column)
        cells[:] = [Cell(cell) if isinstance(cell, (Text, str)) else cell for cell in cells]
    return table


class Drawn:
    """A Rich table drawn once at `width`: its lines, given back whenever it is drawn at
    that width (measured too: a height is a count of lines); at another width (the widget
    was resized meanwhile) the table itself is drawn, as Textual would."""

    def __init__(self, table: Table, width: int) -> None:
        app = active_app.get()
        # What Textual's `RichVisual` asks for (its height too, which tables ignore).
        options = app.console_options.update(highlight=False, width=width)
        segments = app.console.render(cached_cells(table), options)
        self.table, self.width = table, width
        self.lines = list(
            Segment.split_and_crop_lines(segments, width, include_new_lines=False, pad=False)
        )

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if options.max_width != self.width:
            yield from console.render(self.table, options)
            return
        new_line = Segment.line()
        for line in self.lines:
            yield from line
            yield new_line

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.table)


def quiet_update(widget: Static, content: Any) -> None:
    """Show `content` in `widget`, laying the screen out only if the widget's size may
    change, and repainting only a table's changed rows (see the module docstring)."""
    if isinstance(content, Table) and laid_out(widget):
        content = Drawn(content, widget.size.width)
    old = widget.content
    if same(old, content):
        return
    old_visual = widget.visual
    rows = changed_rows(old, content)
    if rows is None:
        widget.update(content, layout=False)
    else:
        show_rows(widget, content, rows)
    if needs_layout(widget, old_visual):
        widget.refresh(layout=True)


def laid_out(widget: Static) -> bool:
    """The widget has been laid out and is shown: its size is known."""
    return widget.is_mounted and widget.display and bool(widget.outer_size.width)


def changed_rows(old: Any, new: Any) -> list[int] | None:
    """The rows where table `new` differs from table `old`, both drawn at one width with
    as many lines (None: not so, the whole widget is to be repainted)."""
    if not (isinstance(old, Drawn) and isinstance(new, Drawn)) or old.width != new.width:
        return None
    if len(old.lines) != len(new.lines):
        return None
    return [y for y, (a, b) in enumerate(zip(old.lines, new.lines, strict=True)) if a != b]


def show_rows(widget: Static, content: Drawn, rows: list[int]) -> None:
    """What `Static.update` does, repainting only `rows` of the widget's content (Textual
    draws the widget's lines again, and the screen redraws only those rows)."""
    show_content(widget, content)
    width = widget.size.width
    widget.refresh(*(Region(0, y, width, 1) for y in rows))


def needs_layout(widget: Static, old_visual: Any) -> bool:
    """Whether `widget`, now showing its new visual, may take another size than with
    `old_visual`: never laid out yet, or its width or height follows its content and the
    new content measures differently. The old content's measure is the size it was laid
    out at (measuring a table renders it), unless a minimum or maximum bounded it."""
    if not laid_out(widget):
        return True
    size, styles = widget.outer_size, widget.styles  # the size of its last layout (Textual's)
    gutter_width, gutter_height = styles.gutter.totals
    width, height = size.width - gutter_width, size.height - gutter_height
    visual = widget.visual
    if styles.width is not None and styles.width.is_auto:
        container = widget.container_size.width
        laid_out_width = width
        if styles.min_width is not None or styles.max_width is not None:
            laid_out_width = old_visual.get_optimal_width(styles, container)
        if visual.get_optimal_width(styles, container) != laid_out_width:
            return True
    if styles.height is not None and styles.height.is_auto:
        if styles.min_height is not None or styles.max_height is not None:
            height = old_visual.get_height(styles, width)
        return visual.get_height(styles, width) != height
    return False
