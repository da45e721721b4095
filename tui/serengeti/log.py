"""The event log told in Serengeti's words."""

from __future__ import annotations

from typing import Any

from ..eventlog import EventLog
from .words import narrate


class SerengetiLog(EventLog):
    """The event log told in Serengeti's words."""

    def add_events(self, events: list[dict[str, Any]], names: Any, you: int | None = None) -> None:
        for event in events:
            line = narrate(event, names, you)
            if line is not None:
                self._add(line)
