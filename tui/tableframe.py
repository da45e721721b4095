"""The frame every game's table shares: the status line on top, the game's own widgets,
then the chat line (hidden until `t`) and the footer. `GameTable` (tui/gametable.py) is
built on it; a game's table yields only its own widgets, from `compose_table`."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.reactive import Reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from .footer import Footer
from .lines import LinePanel
from .ordered import OrderedInput


def chat_line() -> Horizontal:
    """The one-line chat entry, hidden until `t`."""
    return Horizontal(
        Static(Text("Chat> ", style="bold cyan"), id="chat-prompt"),
        OrderedInput(id="chat", placeholder="type, Enter sends, Escape cancels", max_length=300),
        id="chat-line",
    )


class TableFrame(Screen[None]):
    """A table's layout: `LinePanel(id="status")`, `compose_table()`, `chat_line()`, `Footer`."""

    # Textual repaints the whole screen when the focus moves (its `Screen.focused`
    # repaints); the two widgets whose focus changed repaint themselves with their new
    # styles, which is all that changes. A table's focus moves between the hand and the
    # amount entry with the game: no whole-screen repaint for it (issue 31).
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)

    # a game's widget (a selector) -> its border's title and subtitle ("": none) on mount
    BORDERS: ClassVar[dict[str, tuple[str, str]]] = {}

    def compose(self) -> ComposeResult:
        yield LinePanel(id="status")
        yield from self.compose_table()
        yield chat_line()
        yield Footer(compact=True)

    def compose_table(self) -> ComposeResult:
        """The game's own widgets, an event log with `id="log"` among them."""
        raise NotImplementedError

    def set_borders(self) -> None:
        """`BORDERS`' titles, before the game draws (which may change them)."""
        for selector, (title, subtitle) in self.BORDERS.items():
            widget = self.query_one(selector)
            widget.border_title = title
            if subtitle:
                widget.border_subtitle = subtitle
