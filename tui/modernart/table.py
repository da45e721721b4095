"""Modern Art's table: value board, players, auction panel, event log and your hand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input

from ..amount import AmountInput
from ..gametable import GameTable
from ..tablekeys import TABLE_BINDINGS
from .auction import AMOUNT_ACTIONS, AuctionPanel, outbid_note
from .board import ValueBoard
from .hand import Hand
from .ledger import Ledger, LedgerScreen
from .log import ModernArtLog
from .players import Players
from .summary import GameOver, RoundSummary


class TableScreen(GameTable):
    """Renders views as they come; sends only what `view.legal` allows."""

    GAME_TITLE = "Modern Art"
    PURSE = ("money", "$")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p", "act('pass')", "Pass"),
        Binding("y", "act('buy')", "Buy"),
        Binding("d", "act('decline')", "Decline"),
        Binding("plus", "quick_raise(0)", "Min"),
        Binding("greater_than_sign", "quick_raise(4)", "Min+4"),
        *TABLE_BINDINGS,
        Binding("H", "ledger", "Bought"),
        Binding("question_mark", "hint", "Hint"),
    ]

    BORDERS: ClassVar[dict[str, tuple[str, str]]] = {
        "#board": ("Value board", ""),
        "#players": ("Players", "▶ decides · A auctioneer"),
        "#auction": ("Auction", ""),
        "#hand": ("Your hand", ""),
    }

    def init_fields(self) -> None:
        self.ledger = Ledger()

    def compose_table(self) -> ComposeResult:
        with Horizontal(id="top"):
            with Vertical(id="left"):
                yield ValueBoard(id="board")
                yield Players(id="players")
            with Vertical(id="right"):
                yield AuctionPanel(id="auction")
                yield ModernArtLog(id="log")
        yield Hand(id="hand")

    def mounted(self) -> None:
        self.query_one(Hand).focus()

    # ------------------------------------------------------------ rendering

    def draw(
        self, previous: dict[str, Any], view: dict[str, Any], events: list[dict[str, Any]]
    ) -> None:
        self.query_one(ValueBoard).show(view)
        self.query_one(Players).show(view)
        panel = self.query_one(AuctionPanel)
        unsent = panel.unsent(view.get("legal") or {})
        panel.show(view, events)
        if unsent.isdigit():
            self.note(f"{unsent} was not sent: the auction moved on before Enter", "bold red")
        hand = self.query_one(Hand)
        hand.show(view.get("hand") or [], view.get("legal") or {}, view)
        hand.display = view.get("you") is not None

    def end_screens(
        self, previous: dict[str, Any], events: list[dict[str, Any]]
    ) -> list[ModalScreen[Any]]:
        """Round 4's summary comes first; the game end follows when it is closed."""
        names = self.names
        screens: list[ModalScreen[Any]] = []
        bought = [s.get("purchased") or [] for s in previous.get("seats") or []]
        last_round = None
        for event in events:
            if event.get("type") == "round_end":
                last_round = event
                screens.append(RoundSummary(event, names, bought, self._summary_clock))
            elif event.get("type") == "game_end":
                # Round 4's scoring again beside the money: its summary may have gone by.
                screens.append(GameOver(event, names, last_round, bought))
        return screens

    def _summary_clock(self, yours: str) -> Text | None:
        """The clock's line under a round's summary, which it keeps running behind; once it
        has played for you, that first (the line named only the next decision: play-test
        2026-12-05)."""
        line = self.query_one(AuctionPanel).clock_line(yours)
        if not self.clock_moved:
            return line
        moved = Text("The clock has played for you (the log says what). ", style="bold yellow")
        return moved if line is None else moved + line

    def tell(self, events: list[dict[str, Any]], names: Sequence[str], you: int | None) -> None:
        self.query_one(ModernArtLog).add_events(events, names, you)
        self.ledger.add(events)

    def progress(self, view: dict[str, Any]) -> str:
        return f"round {view.get('round')}/4"

    def focus_for(self, legal: dict[str, Any]) -> None:
        if "play" in legal or "add" in legal:
            self.query_one(Hand).focus()
        elif any(k in legal for k in AMOUNT_ACTIONS):
            self.query_one(AmountInput).focus()

    def show_error(self, message: str) -> None:
        """Beside the entry, and in the log: the next bid clears the entry's line."""
        self.query_one(AuctionPanel).show_error(message)
        super().show_error(message)

    def on_key(self, event: events.Key) -> None:
        """A digit that no widget took while an amount is asked for (typed the instant
        the question appeared, before the focus moved) starts the amount: never lost.
        Asked for none yet, the digits wait for the answer to the action just sent
        (tui/typeahead.py): Enter on a card that it plays expects the answer already, as
        the keys after it come here before the hand's binding has played it."""
        if not self.asks_amount() and not self.chatting and self.hold(event):
            event.stop()
            return
        hand = self.query_one(Hand)
        if event.key == "enter" and self.focused is hand and hand.will_choose():
            self.expect_answer(self.legal)
            return
        char = event.character
        if char is None or not char.isdigit() or not self.asks_amount():
            return
        entry = self.query_one(AmountInput)
        if self.focused is entry or self.chatting:
            return
        entry.start_typing(char)
        event.stop()

    def asks_amount(self) -> bool:
        return any(k in self.legal for k in AMOUNT_ACTIONS)

    def take_ahead(self, keys: tuple[str, ...]) -> None:
        """Keys typed before the question: the amount's, and sent if Enter came too."""
        if not self.asks_amount():
            super().take_ahead(keys)
            return
        entry = self.query_one(AmountInput)
        for key in keys:
            if key == "enter":
                entry.post_message(Input.Submitted(entry, entry.value))
                return
            if key == "backspace":
                entry.value = entry.value[:-1]
            else:
                entry.start_typing(key)

    # --------------------------------------------------------------- actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "quick_raise":
            return self.view.get("phase") == "open" and "bid" in self.legal
        if action == "ledger":
            return self.view.get("status", "waiting") != "waiting"
        return super().check_action(action, parameters)

    def action_quick_raise(self, extra: int) -> None:
        bounds = self.legal.get("bid")
        if self.view.get("phase") != "open" or not bounds:
            self.app.bell()
            return
        low, high = bounds
        self.act({"type": "bid", "amount": min(high, low + extra)})

    def on_hand_chosen(self, message: Hand.Chosen) -> None:
        self.act({"type": message.action, "card": message.card})

    def on_input_submitted(self, message: Input.Submitted) -> None:
        message.stop()
        if message.input.id == "chat":
            self.send_chat(message.input)
            return
        panel = self.query_one(AuctionPanel)
        entry = panel.amount_input
        amount = entry.amount
        if not panel.mode or panel.mode not in self.legal:
            self.app.bell()
            return
        low, high = self.legal[panel.mode]
        if panel.mode == "bid" and amount is not None and amount < low and self.view.get("high"):
            self.show_error(outbid_note(self.view, amount))  # in the log too, where it stays
            return
        if amount is None or not low <= amount <= high:
            panel.show_error(f"Enter an amount from {low} to {high}.")
            return
        if self.act({"type": panel.mode, "amount": amount}):
            panel.sent()

    def focus_default(self) -> None:
        self.query_one(Hand).focus()

    def action_ledger(self) -> None:
        self.app.push_screen(LedgerScreen(self.ledger, self.names))
