"""Your hand: cards sorted by artist then type, chosen with ←/→ and Enter.

The line under the cards names the card under the cursor and warns when
playing or adding it would end the round (R18: the 5th card of an artist is
not auctioned).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from modernart.engine.modernart.cards import (
    ARTIST_NAMES,
    ARTIST_OF,
    CARD_ORDER,
    CARDS_TO_END_ROUND,
    TYPE_OF,
)

from ..words import ordinal
from .style import card_chip, card_name

ENDER_MARK = "*"  # beside a card that would end the round


def round_ender(card: str, action: str, counts: dict[str, int]) -> str | None:
    """Why playing (or adding) `card` now would end the round (R18), or None.

    `counts` already holds every card of this round, the lot's included. The note
    follows the card's name, which names the artist: it fits 80 columns beside any card
    (the longest, "Christin P. (fixed price)", leaves 46).
    """
    played = counts.get(ARTIST_OF[card], 0)
    fifth = ordinal(CARDS_TO_END_ROUND)
    if played + 1 >= CARDS_TO_END_ROUND:
        unsold = "double unsold" if action == "add" else "unsold"
        return f"the {fifth}: ends the round, {unsold} (R18)"
    if action == "play" and TYPE_OF[card] == "double" and played + 2 >= CARDS_TO_END_ROUND:
        return f"a 2nd added would be the {fifth}: round over (R18)"
    return None


class Hand(Widget, can_focus=True):
    """Shows the hand; when a card may be played or added, Enter sends the one under the cursor."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h", "move(-1)", "card", show=False),
        Binding("right,l", "move(1)", "card", show=False),
        Binding("home", "jump(0)", show=False),
        Binding("end", "jump(-1)", show=False),
        Binding("enter", "choose('play')", "Play card"),
        Binding("enter", "choose('add')", "Add card"),  # the footer names what Enter does now
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
        self.warnings: dict[str, str] = {}  # card → why it would end the round

    def show(self, hand: list[str], legal: dict[str, Any], view: dict[str, Any]) -> None:
        cards = sorted(hand, key=CARD_ORDER.__getitem__)
        action = "play" if "play" in legal else "add" if "add" in legal else ""
        playable = set(legal.get(action) or []) if action else set()
        counts = view.get("counts") or {}
        warnings = {}
        for code in playable:
            why = round_ender(code, action, counts)
            if why:
                warnings[code] = why
        state = (cards, playable, action, warnings)
        if state == (self.cards, self.playable, self.action, self.warnings):
            return
        current = self.cards[self.cursor] if 0 <= self.cursor < len(self.cards) else None
        self.cards, self.playable, self.action, self.warnings = state
        if current in cards and (not playable or current in playable):
            self.cursor = cards.index(current)
        else:
            first = next((i for i, c in enumerate(cards) if c in playable), 0)
            self.cursor = first
        self.border_subtitle = self._subtitle(view)
        self.refresh()
        self.refresh_bindings()

    def _subtitle(self, view: dict[str, Any]) -> str:
        if self.action == "play":
            return "Enter: play the card"
        if self.action == "add" and self.playable:
            return "Enter: add it to the double · d declines"
        if self.action == "add":
            cards = (view.get("lot") or {}).get("cards") or []
            artist = ARTIST_NAMES[ARTIST_OF[cards[0]]] + " " if cards else ""
            return f"no {artist}card to add · d declines"
        return ""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Enter shows in the footer only when a card may be played or added now.
        if action == "choose":
            return bool(self.playable) and parameters[:1] == (self.action,)
        return True

    def render(self) -> Text:
        if not self.cards:
            return Text("(no cards)", style="dim")
        text = Text()
        focused = self.has_focus
        for i, code in enumerate(self.cards):
            selected = focused and i == self.cursor
            dim = bool(self.action) and code not in self.playable
            chip = card_chip(code, selected=selected, dim=dim)
            if code in self.warnings:
                # The mark goes before the chip's last cell (its `]` when selected): such a
                # chip is one cell wider, selected or not, so the row does not jump (R18).
                chip = chip[:-1] + Text(ENDER_MARK, style="bold red") + chip[-1:]
            text.append_text(chip)
        # The line under the cards is always there, so the layout does not jump with focus
        # (a hand too long for one row wraps, and the widget grows by a row).
        text.append("\n")
        if focused and 0 <= self.cursor < len(self.cards):
            code = self.cards[self.cursor]
            text.append(card_name(code), style="italic")
            if code in self.warnings:
                text.append(f" · {ENDER_MARK} {self.warnings[code]}", style="bold red")
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

    def will_choose(self) -> bool:
        """Whether Enter chooses the card under the cursor now."""
        return bool(self.action and self.cards) and self.cards[self.cursor] in self.playable

    def action_choose(self, kind: str = "") -> None:
        if not self.will_choose():
            self.app.bell()
            return
        self.post_message(self.Chosen(self.action, self.cards[self.cursor]))
