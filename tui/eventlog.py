"""The event log: what happened, in plain language, plus chat; scrollable from the keyboard."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.widgets import RichLog

from .narrate import mark_round_enders, narrate

_EMPHASIS = {"sold": "bold", "free": "bold", "round_end": "bold yellow", "game_end": "bold yellow"}
# The hammer's ticks are shown by the auction panel's clock; in the log they would
# push the bids out of sight.
_NOT_LOGGED = {"going"}
SCROLL_HINT = "PgUp/PgDn scroll"


class EventLog(RichLog):
    """Appends lines only; never redraws what is already there.

    While the player has scrolled back, new lines do not yank the view to the end.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(wrap=True, markup=False, max_lines=1000, min_width=20, **kwargs)

    def _add(self, line: Text) -> None:
        at_end = self.is_vertical_scroll_end or self.max_scroll_y == 0
        self.write(line, scroll_end=at_end)

    def add_events(
        self, events: list[dict[str, Any]], names: Sequence[str], you: int | None = None
    ) -> None:
        for event in mark_round_enders(events):
            if event.get("type") in _NOT_LOGGED:
                continue
            line = narrate(event, names, you)
            if line:
                style = "bold red" if event.get("ends_round") else ""
                self._add(Text(line, style=_EMPHASIS.get(event.get("type", ""), style)))

    def add_chat(self, sender: str, text: str, watching: bool = False) -> None:
        who = f"<{sender} (watching)> " if watching else f"<{sender}> "
        self._add(Text.assemble((who, "italic cyan" if watching else "bold cyan"), text))

    def add_note(self, text: str, style: str = "dim") -> None:
        self._add(Text(text, style=style))

    def watch_scroll_y(self, old: float, new: float) -> None:
        super().watch_scroll_y(old, new)
        reading_back = self.max_scroll_y > 0 and not self.is_vertical_scroll_end
        self.border_subtitle = "reading back · PgDn: latest" if reading_back else SCROLL_HINT

    def page(self, pages: int) -> None:
        """Scroll by whole pages (PgUp/PgDn), keyboard only."""
        if pages < 0:
            self.scroll_page_up(animate=False)
        else:
            self.scroll_page_down(animate=False)
        self.refresh_bindings()
