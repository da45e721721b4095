"""A turn game's decision clock, and the warning it gives as it runs out."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.message import Message
from textual.timer import Timer

from .lines import LinePanel

WARN_AT_S = 10  # a turn clock turns red and warns this many seconds before the end


def seat_name(names: Sequence[str], seat: Any, you: int | None = None) -> str:
    """A seat's name for sentences ("you" for the player's own)."""
    if seat == you and you is not None:
        return "you"
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return "?"


class ClockWarning(Message):
    """Your decision's clock is about to run out."""


class TurnClock(LinePanel):
    """A turn game's decision clock (`view.deadline_ms`): who decides and how long is left;
    yours in yellow, red with a warning in the last seconds. `then` says what the server
    does for you when it runs out. A line panel: a tick repaints its one row."""

    def __init__(self, then: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.then = then
        self.view: dict[str, Any] = {}
        self._deadline: float | None = None
        self._warned: float | None = None
        self._timer: Timer | None = None

    def show(self, view: dict[str, Any]) -> None:
        self.view = view
        deadline_ms = view.get("deadline_ms")
        if deadline_ms is None or view.get("finished"):
            self._deadline = None
            if self._timer is not None:
                self._timer.stop()
                self._timer = None
        else:
            self._deadline = time.monotonic() + deadline_ms / 1000
            if self._timer is None:
                self._timer = self.set_interval(1.0, self._draw)
        self._draw()

    def line(self) -> Text | None:
        if self._deadline is None:
            return None
        view = self.view
        seconds = math.ceil(max(0.0, self._deadline - time.monotonic()))
        if view.get("you") in (view.get("to_act") or []) and view.get("legal"):
            hurry = seconds <= WARN_AT_S
            if hurry and self._warned != self._deadline:
                self._warned = self._deadline
                self.post_message(ClockWarning())
            then = f"; then {self.then}" if self.then else ""
            return Text(
                f"You: {seconds} s left{then}",
                style="bold reverse red" if hurry else "bold yellow",
            )
        names = [s.get("name", "?") for s in view.get("seats") or []]
        who = ", ".join(seat_name(names, s) for s in view.get("to_act") or [])
        return Text(f"{who or 'Next'}: {seconds} s left to decide", style="dim")

    def _draw(self) -> None:
        line = self.line()
        self.display = line is not None
        self.set_lines(line or "")
