"""Modern Art's event log: each event told in plain language, the round's end in bold."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from ..eventlog import EventLog
from .narrate import mark_round_enders, narrate

_EMPHASIS = {"sold": "bold", "free": "bold", "round_end": "bold yellow", "game_end": "bold yellow"}
# The hammer's ticks are shown by the auction panel's clock; in the log they would
# push the bids out of sight.
_NOT_LOGGED = {"going"}


class ModernArtLog(EventLog):
    """The event log told in Modern Art's words (narrate.py)."""

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
