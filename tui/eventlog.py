"""The event log: what happened, in plain language, plus chat; scrollable from the keyboard."""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Iterator
from typing import Any, Self

from rich.text import Text
from textual import events
from textual.geometry import Region
from textual.widgets import RichLog

from .words import count

SCROLL_HINT = "PgUp/PgDn scroll"
LATEST_KEY = "End"  # the table's key back to the latest line while reading back


MAX_ENTRIES = 1000


class EventLog(RichLog):
    """Appends lines; only the last one may be redrawn (a run of shouts, `replace_last`),
    and a new width wraps every line again.

    While the player has scrolled back, new lines do not yank the view to the end.
    """

    _writing = False  # inside `write`: see `refresh`

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(wrap=True, markup=False, max_lines=None, min_width=20, **kwargs)
        # Whether new lines scroll into view. Only the player's own scrolling changes it:
        # "am I at the end now?" is unreliable while lines are still being laid out.
        self.following = True
        self.border_subtitle = SCROLL_HINT  # while following; reading back says so instead
        self.unseen = 0  # entries written while the player read back (said in the subtitle)
        self.entries: deque[Text] = deque(maxlen=MAX_ENTRIES)  # what was written, unwrapped
        self._last_rows = 0  # how many rows the last entry took (0: not known)
        self._wrapped_at = 0  # the width the lines were wrapped to
        self._suffix = ""
        # What the last line tells, while it may grow (`replace_last`): Modern Art's
        # run of shouts (tui/modernart/log.py); anything else written ends it.
        self.run: list[str] | None = None

    @property
    def suffixed(self) -> bool:
        """Lines are written with a suffix now (a stand-in's move): none may grow."""
        return bool(self._suffix)

    @contextlib.contextmanager
    def appending(self, suffix: str) -> Iterator[None]:
        """Lines written inside end with `suffix` (" for you": a stand-in's move)."""
        self._suffix = suffix
        try:
            yield
        finally:
            self._suffix = ""

    def _add(self, line: Text) -> None:
        if self._suffix:
            line = line.copy()
            line.append(self._suffix)
        self.run = None
        self.entries.append(line)
        if not self.following:  # say that news came, rather than yank the view (#8)
            self.unseen += 1
            self._follow(False)
        self._write(line)
        if len(self.entries) == MAX_ENTRIES and len(self.lines) > 4 * MAX_ENTRIES:
            self._rewrap()  # the oldest entries' rows go too

    def _write(self, line: Text) -> None:
        before = len(self.lines)
        self._writing = True
        try:
            self.write(line, scroll_end=False)
        finally:
            self._writing = False
        if self.following and self._scrolls_on():
            # Now, not after the next frame as `write` would: one frame draws the new
            # line and the scroll (a second one drew the log again, issue 31).
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        elif self.following:
            self.call_after_refresh(self._end_if_following)  # the new rows laid out first
        self._last_rows = len(self.lines) - before if self._size_known else 0
        if self._size_known:
            self._wrapped_at = self.scrollable_content_region.width

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Self:
        """A line written into a log that scrolls already changes only its scroll bar: its
        own lines and scroll bar are redrawn, and the screen is not laid out again
        (`RichLog.write` sets `virtual_size`, which asks for a layout of the whole screen
        on every line: issue 16, fourth session)."""
        if layout and not recompose and self._writing and self._scrolls_on():
            super().refresh(*regions, repaint=repaint)
            self._scroll_update(self.virtual_size)
            return self
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def _scrolls_on(self) -> bool:
        """The log shows its vertical scroll bar and keeps it with its new lines, and needs
        no horizontal one: its place on the screen stays."""
        if not self.show_vertical_scrollbar or self.show_horizontal_scrollbar:
            return False
        room = self.container_size  # its size less its border and padding (Textual's)
        width = room.width - self.scrollbar_size_vertical
        return self.virtual_size.height > room.height and self.virtual_size.width <= width

    def replace_last(self, line: Text) -> None:
        """Redraw the last entry as `line` (a run of shouts growing)."""
        if not self.entries or not self._last_rows:
            self._add(line)
            return
        rows = self._last_rows
        del self.lines[-rows:]
        self._line_cache.clear()
        self.entries[-1] = line
        self._write(line)
        if self._last_rows == rows and self.is_vertical_scroll_end:
            # As many rows as before, at the foot of the log: nothing moved, so only they
            # are repainted (a shout's update repainted every row: issue 31). A region is
            # relative to the content, below the border.
            top = len(self.lines) - rows - self.scroll_offset.y
            self.refresh(Region(0, top, self.scrollable_content_region.width, rows))
        else:
            self.refresh()

    def _rewrap(self) -> None:
        """Wrap every entry again to the log's width (after a resize)."""
        self.clear()
        for line in self.entries:
            self._write(line)
        if self.following:
            self.scroll_end(animate=False, immediate=True)

    def add_chat(self, sender: str, text: str, watching: bool = False) -> None:
        who = f"<{sender} (watching)> " if watching else f"<{sender}> "
        self._add(Text.assemble((who, "italic cyan" if watching else "bold cyan"), text))

    def add_note(self, text: str, style: str = "dim") -> None:
        self._add(Text(text, style=style))

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        width = self.scrollable_content_region.width
        if self._size_known and self._wrapped_at and width != self._wrapped_at:
            self._rewrap()
        if self.following:  # a shrinking log keeps its latest line in view
            self.call_after_refresh(self._end_if_following)

    def _end_if_following(self) -> None:
        """To the latest line after a refresh, unless the player has scrolled back since it
        was asked for: Textual's deferred `scroll_end` ran regardless, and a PgUp pressed
        just after lines came was undone (tests/tui/test_table_life.py failed 1 run in 3)."""
        if self.following:
            self.scroll_end(animate=False, immediate=True, x_axis=False)

    def _follow(self, following: bool) -> None:
        self.following = following
        if following:
            self.unseen = 0
            self.border_subtitle = SCROLL_HINT
            return
        news = f" · {count(self.unseen, 'new line')} below" if self.unseen else ""
        self.border_subtitle = f"reading back{news} · {LATEST_KEY}: latest"

    def latest(self) -> None:
        """Back to the latest line, following new ones again (the table's End)."""
        self.scroll_end(animate=False, immediate=True)
        self._follow(True)

    def page(self, pages: int) -> None:
        """Scroll by whole pages (PgUp/PgDn); reaching the end follows new lines again."""
        if pages < 0:
            self.scroll_page_up(animate=False)
            self._follow(self.max_scroll_y == 0)
        else:
            at_end = self.scroll_y + self.scrollable_content_region.height >= self.max_scroll_y
            self.scroll_page_down(animate=False)
            self._follow(at_end or self.is_vertical_scroll_end)

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        self._follow(False)

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        self.call_after_refresh(lambda: self._follow(self.is_vertical_scroll_end))
