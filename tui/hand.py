"""Your hand: cards sorted by artist then type, chosen with ←/→ and Enter."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from modernart.engine.cards import CARD_ORDER

from .style import card_chip, card_name


class Hand(Widget, can_focus=True):
    """Shows the hand; when a card may be played or added, Enter sends the one under the cursor."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h", "move(-1)", "card", show=False),
        Binding("right,l", "move(1)", "card", show=False),
        Binding("home", "jump(0)", show=False),
        Binding("end", "jump(-1)", show=False),
        Binding("enter", "choose", "Play/add card"),
    ]

    cursor: reactive[int] = reactive(0)

    @dataclass
    class Chosen(Message):
        """The player chose `card` for `action` ("play" or "add")."""

        action: str
        card: str

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cards: list[str] = []
        self.playable: set[str] = set()
        self.action = ""  # "play", "add" or "" when no card may be chosen now

    def show(self, hand: list[str], legal: dict[str, Any]) -> None:
        cards = sorted(hand, key=CARD_ORDER.__getitem__)
        action = "play" if "play" in legal else "add" if "add" in legal else ""
        playable = set(legal.get(action) or []) if action else set()
        if (cards, playable, action) == (self.cards, self.playable, self.action):
            return
        current = self.cards[self.cursor] if 0 <= self.cursor < len(self.cards) else None
        self.cards, self.playable, self.action = cards, playable, action
        if current in cards and (not playable or current in playable):
            self.cursor = cards.index(current)
        else:
            first = next((i for i, c in enumerate(cards) if c in playable), 0)
            self.cursor = first
        self.border_subtitle = "Enter: play" if action == "play" else "Enter: add" if action else ""
        self.refresh()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Enter shows in the footer only when a card may be played or added now.
        return bool(self.action) if action == "choose" else True

    def render(self) -> Text:
        if not self.cards:
            return Text("(no cards)", style="dim")
        text = Text()
        focused = self.has_focus
        for i, code in enumerate(self.cards):
            selected = focused and i == self.cursor
            dim = bool(self.action) and code not in self.playable
            text.append_text(card_chip(code, selected=selected, dim=dim))
        if focused and 0 <= self.cursor < len(self.cards):
            text.append(f"  {card_name(self.cards[self.cursor])}", style="italic")
        return text

    def watch_cursor(self) -> None:
        self.refresh()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def action_move(self, step: int) -> None:
        if self.cards:
            self.cursor = (self.cursor + step) % len(self.cards)

    def action_jump(self, index: int) -> None:
        if self.cards:
            self.cursor = index % len(self.cards)

    def action_choose(self) -> None:
        if not self.action or not self.cards:
            self.app.bell()
            return
        card = self.cards[self.cursor]
        if card not in self.playable:
            self.app.bell()
            return
        self.post_message(self.Chosen(self.action, card))
