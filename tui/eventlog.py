"""The event log: what happened, in plain language, plus chat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.widgets import RichLog

from .narrate import narrate

_EMPHASIS = {"sold": "bold", "free": "bold", "round_end": "bold yellow", "game_end": "bold yellow"}


class EventLog(RichLog):
    """Appends lines only; never redraws what is already there."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(wrap=True, markup=False, max_lines=500, min_width=20, **kwargs)

    def add_events(
        self, events: list[dict[str, Any]], names: Sequence[str], you: int | None = None
    ) -> None:
        for event in events:
            line = narrate(event, names, you)
            if line:
                self.write(Text(line, style=_EMPHASIS.get(event.get("type", ""), "")))

    def add_chat(self, sender: str, text: str) -> None:
        self.write(Text.assemble((f"<{sender}> ", "bold cyan"), text))

    def add_note(self, text: str, style: str = "dim") -> None:
        self.write(Text(text, style=style))
