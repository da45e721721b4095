"""A yes/no question before something that cannot be undone (leaving a running game)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from .dialog import Dialog


class Confirm(Dialog[bool]):
    """`y` confirms; `n` or Escape says no. Every question of the client answers so
    (KeepGame's third choice has a letter of its own); `back` says what no does."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(
        self, question: str, detail: str = "", back: str = "back to the game", low: bool = False
    ) -> None:
        """`low`: at the screen's foot, the middle of the table in sight (a bid's question)."""
        super().__init__(classes="low" if low else None)
        self.question, self.detail, self.back = question, detail, back

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="confirm"):
            yield Static(Text(self.question, style="bold yellow"), classes="title")
            if self.detail:
                yield Static(self.detail)
            yield Static(Text(f"y: yes   n or Escape: no, {self.back}", style="dim"))

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


def leave_question(local: bool, running: bool, away: str = "") -> tuple[str, str] | None:
    """`L` at a table: the question to ask first (None: none, back to the lobby). A
    running game asks, and so does a game against bots, running or over: it has no lobby,
    so leaving it ends the program (playtests #3; F1 says so too). `away`: what happens
    to the game meanwhile (tui/away.py)."""
    if local:
        return "Leave and quit?", "A game against bots has no lobby: leaving it ends the program."
    if not running:
        return None
    return "Leave this game?", (
        f"Your seat is kept: come back by joining the room again. {away}".rstrip()
    )
