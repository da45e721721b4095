"""A `DataTable` whose rows are drawn whole when a column widens to fit them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual.widgets import DataTable
from textual.widgets.data_table import RowKey


class FittedTable(DataTable[Any]):
    """A `DataTable` that redraws its rows when a column widens.

    Textual's `DataTable` widens its columns for rows added and cells updated when it is
    next idle (`_update_dimensions`, which `_update_column_widths` asks for), but keeps
    the rows it rendered before at the old widths: its caches are keyed by an update
    count that widening does not change. A frame drawn between the change and that idle
    moment (a busy session) kept showing "playin" for "playing" until the next change
    (tests/tui/test_lobby.py; docs/decisions/lobby-list.md).
    Every table whose rows come after its first frame (the lobby's, the people's) needs
    this."""

    _widths: tuple[int, ...] = ()  # the columns' widths the cached rows were drawn at

    def _update_dimensions(self, new_rows: Iterable[RowKey]) -> None:
        if not self._labelled_row_exists:
            # Rows drawn since `clear` were cached without their labels (a table cleared
            # has none until this runs): the lobby lost its cursor's mark on a resize.
            self._row_renderable_cache.clear()
        super()._update_dimensions(new_rows)
        widths = tuple(column.content_width for column in self.columns.values())
        if widths != self._widths:  # a list pushed with the same widths repaints nothing more
            self._widths = widths
            self._clear_caches()
            self.refresh()
