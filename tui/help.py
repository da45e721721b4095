"""F1: the rules of the game being played and the table's keys (`ClientGame.rules_text`)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType

from .dialog import Dialog
from .helptext import HelpText


class HelpScreen(Dialog[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,q", "close", "Close help"),
        Binding("down,j", "scroll(1)", show=False),
        Binding("up,k", "scroll(-1)", show=False),
        Binding("pagedown,space", "page(1)", "Page down"),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("home", "jump(0)", show=False),
        Binding("end", "jump(1)", show=False),
    ]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        yield HelpText(self.text, id="help-scroll")

    def on_mount(self) -> None:
        scroll = self.query_one("#help-scroll")
        scroll.border_title = "Help"
        scroll.border_subtitle = "↑↓ PgUp PgDn Home End scroll · Escape closes"

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, lines: int) -> None:
        self.query_one("#help-scroll").scroll_relative(y=lines, animate=False)

    def action_page(self, pages: int) -> None:
        scroll = self.query_one("#help-scroll")
        scroll.scroll_relative(y=pages * max(1, scroll.size.height - 2), animate=False)

    def action_jump(self, end: int) -> None:
        scroll = self.query_one("#help-scroll")
        if end:
            scroll.scroll_end(animate=False)
        else:
            scroll.scroll_home(animate=False)
