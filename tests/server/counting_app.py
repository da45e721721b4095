"""A client that counts the keys it is given, for the fairness tests (the zygote serves it
when `SshSettings.app` names it): its screen shows `NAME keys N` for the `x`s and `y`s
so far. An `x` costs `COST` seconds of CPU (a costly screen), a `y` next to nothing."""

from __future__ import annotations

import time
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

COST = 0.05


class CountingApp(App[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("x", "costly", priority=True),
        Binding("y", "count", priority=True),
    ]

    def __init__(self, url: str, *, name: str, **ignored: Any) -> None:
        super().__init__()
        self.who = name
        self.count = 0

    def compose(self) -> ComposeResult:
        yield Static(id="count")

    def on_mount(self) -> None:
        self.show()

    def action_costly(self) -> None:
        end = time.thread_time() + COST
        while time.thread_time() < end:
            pass
        self.action_count()

    def action_count(self) -> None:
        self.count += 1
        self.show()

    def show(self) -> None:
        self.query_one(Static).update(f"{self.who} keys {self.count}.")
