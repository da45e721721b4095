"""A list of rows under a header, drawn with Textual's Line API: the lobby's rooms (issue 31).

Textual's `DataTable` renders every visible row again, each cell through Rich, whenever
any cell changes (its caches are keyed by an update count), and lays itself out for a
row added. The server pushes the room list to every session in the lobby when a room is
made, filled, started or ended: with 100 sessions in the lobby, 100 of those frames
(5–35 ms each) at once kept the players' keys waiting behind them (docs/benchmarks.md,
"A room list pushed to the lobby"). A `RowList` draws each row once into a `Strip`, kept
by what the row shows and how (cursor, stripe, the columns' widths); a new list repaints
only the rows whose strips changed, and a frame copies kept strips.

The first column is the cursor's mark ("▶" and a space): the highlighted row is told by
a sign, not only a colour (playtests #5). Enter, or a click on the highlighted row,
selects it; a click on another row highlights it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from .lines import paragraph_key

Cell = Text | str
MARK = "▶"
MAX_KEPT = 512  # row strips kept (a list drawn again from scratch when full)


class RowList(ScrollView, can_focus=True):
    """Rows of cells in columns under a header; `set_rows` repaints only the rows that
    changed. `widths` None: each column as wide as its widest cell, `gap` spaces apart."""

    DEFAULT_CSS = """
    RowList {
        background: $surface;
        color: $foreground;
        height: auto;
        max-height: 100%;
        &:focus {
            background-tint: $foreground 5%;
            & > .rowlist--cursor {
                background: $block-cursor-background;
                color: $block-cursor-foreground;
                text-style: $block-cursor-text-style;
            }
        }
        & > .rowlist--header {
            text-style: bold;
            background: $panel;
            color: $foreground;
        }
        &:ansi > .rowlist--header {
            background: ansi_bright_blue;
            color: ansi_default;
        }
        & > .rowlist--stripe {
            background: $surface-lighten-1 50%;
        }
        &:dark > .rowlist--stripe {
            background: $surface-darken-1 40%;
        }
        & > .rowlist--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "rowlist--header",
        "rowlist--stripe",
        "rowlist--cursor",
    }
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", "Select", show=False),
        Binding("up", "cursor(-1)", "Up", show=False),
        Binding("down", "cursor(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home,ctrl+home", "ends(0)", "First", show=False),
        Binding("end,ctrl+end", "ends(1)", "Last", show=False),
    ]

    class Selected(Message):
        """Enter, or a click, on the highlighted `row`."""

        def __init__(self, row_list: RowList, row: int) -> None:
            super().__init__()
            self.row_list, self.row = row_list, row

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._header: tuple[str, ...] = ()
        self._fixed: tuple[int, ...] | None = None  # widths given (None: the cells')
        self._gap = 1
        self._rows: list[tuple[Cell, ...]] = []
        self._keys: list[tuple[Any, ...]] = []  # each row's `paragraph_key`s
        self._widths: tuple[int, ...] = ()
        self._kept: dict[tuple[Any, ...], Strip] = {}
        self._own_style: Style | None = None
        self.cursor_row = 0

    # -------------------------------------------------------------- content

    @property
    def row_count(self) -> int:
        return len(self._rows)

    def cells_at(self, row: int) -> list[str]:
        """Row `row`'s cells as plain text (what it shows, before any cut to a width)."""
        return [str(cell) for cell in self._rows[row]]

    def set_columns(self, header: Sequence[str], widths: Sequence[int] | None, gap: int) -> None:
        """The columns' names and widths (None: as wide as their cells), `gap` apart."""
        self._header, self._gap = tuple(header), gap
        self._fixed = None if widths is None else tuple(widths)
        self._measure()
        self._resize_virtual()
        self.refresh()

    def set_rows(self, rows: Sequence[Sequence[Cell]], cursor: int | None = None) -> None:
        """Show `rows` (the cursor on row `cursor`, or where it was): the rows drawn as
        before are not drawn again, and only the lines that changed are repainted."""
        before = self._shown_keys()
        self._rows = [tuple(row) for row in rows]
        self._keys = [tuple(paragraph_key(cell) for cell in row) for row in self._rows]
        widths = self._widths
        self._measure()
        if cursor is not None:
            self.cursor_row = cursor
        self._clamp_cursor()
        self._resize_virtual()
        height = self.styles.height
        if len(before) != len(self._rows) and (height is None or height.is_auto):
            self.refresh(layout=True)  # as tall as its rows: laid out again
        elif self._widths != widths:
            self.refresh()
        else:
            self._repaint_changed(before)
        self._keep_cursor_visible()

    def move_cursor(self, row: int) -> None:
        """Highlight row `row` (kept within the rows), scrolled into view."""
        old = self.cursor_row
        self.cursor_row = row
        self._clamp_cursor()
        if self.cursor_row != old:
            self._refresh_row(old)
            self._refresh_row(self.cursor_row)
        self._keep_cursor_visible()

    # -------------------------------------------------------------- keys and mouse

    def action_cursor(self, step: int) -> None:
        self.move_cursor(self.cursor_row + step)

    def action_page(self, step: int) -> None:
        self.move_cursor(self.cursor_row + step * max(1, self._visible_rows()))

    def action_ends(self, last: int) -> None:
        self.move_cursor(len(self._rows) - 1 if last else 0)

    def action_select(self) -> None:
        if self._rows:
            self.post_message(self.Selected(self, self.cursor_row))

    def on_click(self, event: events.Click) -> None:
        line = event.y - self.gutter.top
        if line < 1:  # the header, or the border
            return
        row = self.scroll_offset.y + line - 1
        if 0 <= row < len(self._rows):
            if row == self.cursor_row:
                self.action_select()
            else:
                self.move_cursor(row)

    # -------------------------------------------------------------- drawing

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        if y == 0:
            return self._strip(self._header, ("header", *self._header), "rowlist--header", width)
        row = self.scroll_offset.y + y - 1
        if row >= len(self._rows):
            return Strip.blank(width, self._style(""))
        kind = "rowlist--cursor" if row == self.cursor_row else ""
        if not kind and row % 2:
            kind = "rowlist--stripe"
        mark = MARK if row == self.cursor_row else " "
        return self._strip(self._rows[row], self._keys[row], kind, width, mark)

    def _strip(
        self, cells: Sequence[Cell], keys: tuple[Any, ...], kind: str, width: int, mark: str = " "
    ) -> Strip:
        """A line, from the kept strips when it was drawn before in this style and widths."""
        style = self._style(kind)
        key = (keys, style, mark, self._widths, self._gap, width)
        strip = self._kept.get(key)
        if strip is None:
            if len(self._kept) >= MAX_KEPT:
                self._kept.clear()
            strip = self._kept[key] = self._draw(cells, style, width, mark)
        return strip

    def _style(self, kind: str) -> Style:
        """The line's style: the widget's, or a component's over it. Textual keeps the
        components' (a repaint forgets them: the focus moving restyles the cursor's row
        without telling `notify_style_update`); the widget's own is kept here."""
        if kind:
            return self.get_component_rich_style(kind)
        if self._own_style is None:
            self._own_style = self.rich_style
        return self._own_style

    def _draw(self, cells: Sequence[Cell], style: Style, width: int, mark: str) -> Strip:
        line = Text(mark + " ", end="", no_wrap=True)
        gap = " " * self._gap
        for cell, cell_width in zip(cells, self._widths, strict=False):
            text = Text(cell) if isinstance(cell, str) else cell.copy()
            text.truncate(cell_width, overflow="ellipsis", pad=True)
            line.append_text(text)
            line.append(gap)
        segments = line.render(self.app.console)
        return Strip(Segment.simplify(segments)).crop_extend(0, width, style).apply_style(style)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._own_style = None
        self._kept.clear()

    # -------------------------------------------------------------- geometry

    def _measure(self) -> None:
        if self._fixed is not None:
            self._widths = self._fixed
            return
        columns = zip(self._header, *self._rows, strict=False)  # no rows: the header's 1-tuples
        self._widths = tuple(max(cell_len(str(text)) for text in column) for column in columns)

    def _resize_virtual(self) -> None:
        """The scrollable size for the rows. Textual lays a widget out again for a new
        virtual size (`Widget.virtual_size` is a layout reactive): two thirds of a lobby
        session's CPU for a list with a new room. Only a scroll bar that comes or goes
        needs it; otherwise the size is set without a layout, and the scroll bar's range
        and the scroll offset follow."""
        size = Size(self._line_width(), len(self._rows) + 1)
        if size == self.virtual_size:
            return
        width, height = self.container_size
        bars = (size.width > width, size.height > height)
        if not self.is_mounted or bars != (
            self.show_horizontal_scrollbar,
            self.show_vertical_scrollbar,
        ):
            self.virtual_size = size
            return
        self.set_reactive(RowList.virtual_size, size)
        if bars[1]:
            self.vertical_scrollbar.window_virtual_size = size.height
        self.scroll_to(
            y=min(self.scroll_offset.y, self.max_scroll_y), animate=False, immediate=True
        )

    def _line_width(self) -> int:
        return 2 + sum(self._widths) + self._gap * len(self._widths)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._rows) + 1

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self._line_width()

    def _visible_rows(self) -> int:
        return self.scrollable_content_region.height - 1  # less the header

    def _clamp_cursor(self) -> None:
        self.cursor_row = max(0, min(self.cursor_row, len(self._rows) - 1))

    def _keep_cursor_visible(self) -> None:
        visible = self._visible_rows()
        if visible <= 0:
            return
        top = self.scroll_offset.y
        if self.cursor_row < top:
            self.scroll_to(y=self.cursor_row, animate=False, immediate=True)
        elif self.cursor_row >= top + visible:
            self.scroll_to(y=self.cursor_row - visible + 1, animate=False, immediate=True)

    def _shown_keys(self) -> list[tuple[Any, ...]]:
        """What each row's line shows now: its cells and whether the cursor is on it."""
        return [(*keys, i == self.cursor_row) for i, keys in enumerate(self._keys)]

    def _repaint_changed(self, before: list[tuple[Any, ...]]) -> None:
        after = self._shown_keys()
        for row in range(max(len(before), len(after))):
            if row >= len(before) or row >= len(after) or before[row] != after[row]:
                self._refresh_row(row)

    def _refresh_row(self, row: int) -> None:
        line = row - self.scroll_offset.y + 1
        if line >= 1:  # below the widget's height: clipped
            self.refresh(Region(0, line, self.scrollable_content_region.width, 1))
