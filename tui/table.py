"""The game table: value board, players, auction panel, event log and your hand."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from .auction import AmountInput, AuctionPanel
from .board import ValueBoard
from .eventlog import EventLog
from .hand import Hand
from .players import Players
from .summary import GameOver, RoundSummary

if TYPE_CHECKING:
    from .app import ModernArtApp

CONNECTION_LABEL = {
    "connecting": ("connecting…", "yellow"),
    "connected": ("● online", "green"),
    "reconnecting": ("reconnecting…", "bold red"),
    "closed": ("offline", "bold red"),
}


class TableScreen(Screen[None]):
    """Renders views as they come; sends only what `view.legal` allows."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p", "act('pass')", "Pass"),
        Binding("y", "act('buy')", "Buy"),
        Binding("d", "act('decline')", "Decline"),
        Binding("plus", "quick_raise(0)", "Min raise"),
        Binding("greater_than_sign", "quick_raise(4)", "Raise +5", show=False),
        Binding("t", "chat", "Chat"),
        Binding("b", "add_bot", "Add bot"),
        Binding("s", "start_or_save", "Start/Save"),
        Binding("L", "leave", "Leave"),
        Binding("escape", "cancel_chat", show=False),
    ]

    def __init__(self, room: str | None = None, seat: int | None = None) -> None:
        super().__init__()
        self.room = room
        self.seat = seat
        self.view: dict[str, Any] = {}
        self.room_info: dict[str, Any] = {}
        self._ready = False
        self._early: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
        self.connection = "connected"

    @property
    def modern_app(self) -> ModernArtApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="top"):
            with Vertical(id="left"):
                yield ValueBoard(id="board")
                yield Players(id="players")
            with Vertical(id="right"):
                yield AuctionPanel(id="auction")
                yield EventLog(id="log")
        yield Hand(id="hand")
        yield Input(
            id="chat", placeholder="say something, Enter sends, Escape cancels", max_length=300
        )
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#board").border_title = "Value board"
        self.query_one("#players").border_title = "Players"
        self.query_one("#auction").border_title = "Auction"
        self.query_one("#log").border_title = "Events"
        self.query_one("#hand").border_title = "Your hand"
        self.query_one("#chat").display = False
        self.query_one("#chat", Input).cursor_blink = False
        self._draw_status()
        self.query_one(Hand).focus()
        self._ready = True
        for view, events in self._early:
            self.show(view, events)
        self._early.clear()

    # ------------------------------------------------------------ rendering

    @property
    def names(self) -> list[str]:
        return [s.get("name", "?") for s in self.view.get("seats") or []]

    def show(self, view: dict[str, Any], events: list[dict[str, Any]]) -> None:
        """Show a new view and narrate its events; only changed widgets redraw."""
        if not self._ready:
            self._early.append((view, events))  # arrived while the screen was being built
            return
        previous = self.view
        self.view = view
        names = self.names
        self.query_one(EventLog).add_events(events, names, view.get("you"))
        self.query_one(ValueBoard).show(view)
        self.query_one(Players).show(view)
        self.query_one(AuctionPanel).show(view, events)
        hand = self.query_one(Hand)
        hand.show(view.get("hand") or [], view.get("legal") or {})
        hand.display = view.get("you") is not None
        self._draw_status()
        self._focus_for(view.get("legal") or {})
        self.refresh_bindings()
        # Round 4's summary comes first; the game end follows when it is closed.
        modals: list[RoundSummary | GameOver] = []
        for event in events:
            if event.get("type") == "round_end":
                bought = [s.get("purchased") or [] for s in previous.get("seats") or []]
                modals.append(RoundSummary(event, names, bought))
            elif event.get("type") == "game_end":
                modals.append(GameOver(event, names))
        if modals:
            self._show_modals(modals)

    def _show_modals(self, modals: list[RoundSummary | GameOver]) -> None:
        first, rest = modals[0], modals[1:]

        def after(choice: str | None) -> None:
            if isinstance(first, GameOver):
                self._after_game_over(choice)
            if rest:
                self._show_modals(rest)

        self.app.push_screen(first, after)

    def show_room(self, room: dict[str, Any], you: int | None) -> None:
        """A waiting room's news (PROTOCOL.md addition `room`): who sits where, who hosts."""
        self.room_info = room
        latest = self._early[-1][0] if self._early else self.view
        if latest.get("status") not in (None, "waiting"):
            return
        seated = room.get("seated") or []
        bots = room.get("bots") or [False] * len(seated)
        connected = room.get("connected") or [True] * len(seated)
        seats = [
            {"name": name or "(free)", "bot": bot, "connected": on, "hand_size": 0, "purchased": []}
            for name, bot, on in zip(seated, bots, connected, strict=False)
        ]
        view = {
            "room": room.get("id"),
            "status": room.get("status", "waiting"),
            "you": you,
            "seats": seats,
            "legal": {},
            "host": room.get("host"),
            "hand": [],
        }
        self.show(view, [])

    def _focus_for(self, legal: dict[str, Any]) -> None:
        if self.focused is not None and self.focused.id == "chat":
            return
        if "play" in legal or legal.get("add"):
            self.query_one(Hand).focus()
        elif any(k in legal for k in ("bid", "sealed", "price")):
            self.query_one(AmountInput).focus()

    def _draw_status(self) -> None:
        view = self.view
        label, style = CONNECTION_LABEL.get(self.connection, (self.connection, "yellow"))
        text = Text()
        text.append(" Modern Art ", style="bold reverse")
        room = view.get("room") or self.room
        if room:
            text.append(f" room {room}")
        if view.get("status") == "waiting" or not view:
            text.append(" · waiting")
        elif view:
            text.append(f" · round {view.get('round')}/4")
        if view.get("you") is None and view:
            text.append(" · watching", style="italic")
        elif view.get("money") is not None:
            text.append(" · your money ")
            text.append(str(view["money"]), style="bold green")
        text.append("  ")
        text.append(label, style=style)
        text.append("  F1 help", style="dim")
        self.query_one("#status", Static).update(text)

    def set_connection(self, state: str, detail: str = "") -> None:
        self.connection = state
        self._draw_status()
        if state == "reconnecting":
            self.query_one(EventLog).add_note(
                f"Connection lost ({detail}); reconnecting…", "bold red"
            )

    def show_error(self, message: str) -> None:
        self.query_one(AuctionPanel).show_error(message)

    def add_chat(self, sender: str, text: str) -> None:
        self.query_one(EventLog).add_chat(sender, text)

    def note(self, text: str) -> None:
        self.query_one(EventLog).add_note(text)

    # --------------------------------------------------------------- actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show in the footer only what can be done now (False hides a binding)."""
        legal = self.legal
        status = self.view.get("status", "waiting")
        if action == "act":
            return parameters[0] in legal
        if action == "quick_raise":
            return self.view.get("phase") == "open" and "bid" in legal
        if action == "add_bot":
            return status == "waiting" and self.view.get("host") == self.view.get("you")
        if action == "start_or_save":
            if status == "waiting":
                return self.view.get("host") == self.view.get("you")
            return bool(self.view.get("finished"))
        return True

    @property
    def legal(self) -> dict[str, Any]:
        return self.view.get("legal") or {}

    def _send(self, action: dict[str, Any]) -> None:
        self.modern_app.act(action)

    def action_act(self, kind: str) -> None:
        if kind not in self.legal:
            self.app.bell()
            return
        self._send({"type": kind})

    def action_quick_raise(self, extra: int) -> None:
        bounds = self.legal.get("bid")
        if self.view.get("phase") != "open" or not bounds:
            self.app.bell()
            return
        low, high = bounds
        self._send({"type": "bid", "amount": min(high, low + extra)})

    def on_hand_chosen(self, message: Hand.Chosen) -> None:
        self._send({"type": message.action, "card": message.card})

    def on_input_submitted(self, message: Input.Submitted) -> None:
        message.stop()
        if message.input.id == "chat":
            text = message.value.strip()
            if text:
                self.modern_app.send({"t": "chat", "text": text})
            message.input.value = ""
            self.action_cancel_chat()
            return
        panel = self.query_one(AuctionPanel)
        entry = panel.amount_input
        amount = entry.amount
        if not panel.mode or panel.mode not in self.legal:
            self.app.bell()
            return
        low, high = self.legal[panel.mode]
        if amount is None or not low <= amount <= high:
            panel.show_error(f"Enter an amount from {low} to {high}.")
            return
        self._send({"type": panel.mode, "amount": amount})

    def action_chat(self) -> None:
        chat = self.query_one("#chat", Input)
        chat.display = True
        chat.focus()

    def action_cancel_chat(self) -> None:
        chat = self.query_one("#chat", Input)
        if chat.display:
            chat.display = False
            self._focus_for(self.legal)
            if self.focused is None:
                self.query_one(Hand).focus()

    def action_add_bot(self) -> None:
        if self.view.get("status", "waiting") != "waiting":
            self.app.bell()
            return
        self.modern_app.send({"t": "add_bot"})

    def action_start_or_save(self) -> None:
        if self.view.get("finished") or self.view.get("status") == "finished":
            self.modern_app.save_record()
        elif self.view.get("status", "waiting") == "waiting":
            self.modern_app.send({"t": "start"})
        else:
            self.app.bell()

    def action_leave(self) -> None:
        self.modern_app.leave_room()

    def _after_game_over(self, choice: str | None) -> None:
        if choice == "save":
            self.modern_app.save_record()
        elif choice == "quit":
            self.app.exit()
