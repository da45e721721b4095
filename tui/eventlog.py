"""The event log: what happened, in plain language, plus chat; scrollable from the keyboard."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.widgets import RichLog

SCROLL_HINT = "PgUp/PgDn scroll"


class EventLog(RichLog):
    """Appends lines only; never redraws what is already there.

    While the player has scrolled back, new lines do not yank the view to the end.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(wrap=True, markup=False, max_lines=1000, min_width=20, **kwargs)
        # Whether new lines scroll into view. Only the player's own scrolling changes it:
        # "am I at the end now?" is unreliable while lines are still being laid out.
        self.following = True

    def _add(self, line: Text) -> None:
        self.write(line, scroll_end=self.following)

    def add_chat(self, sender: str, text: str, watching: bool = False) -> None:
        who = f"<{sender} (watching)> " if watching else f"<{sender}> "
        self._add(Text.assemble((who, "italic cyan" if watching else "bold cyan"), text))

    def add_note(self, text: str, style: str = "dim") -> None:
        self._add(Text(text, style=style))

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        if self.following:  # a shrinking log keeps its latest line in view
            self.call_after_refresh(self.scroll_end, animate=False)

    def _follow(self, following: bool) -> None:
        self.following = following
        self.border_subtitle = SCROLL_HINT if following else "reading back · PgDn: latest"

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
