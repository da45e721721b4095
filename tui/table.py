"""The game table: value board, players, auction panel, event log and your hand."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from .auction import AmountInput, AuctionPanel, ClockWarning
from .board import ValueBoard
from .confirm import Confirm
from .eventlog import SCROLL_HINT, EventLog
from .hand import Hand
from .ledger import Ledger, LedgerScreen
from .players import Players
from .summary import GameOver, RoundSummary

if TYPE_CHECKING:
    from .app import ModernArtApp

CONNECTION_LABEL = {
    "connecting": ("connecting…", "yellow"),
    "connected": ("● online", "green"),
    "reconnecting": ("reconnecting…", "bold red"),
    "closed": ("offline", "bold red"),
    "replaced": ("opened elsewhere", "bold red"),
}
REPLACED_NOTE = (
    "{name} is now open in another window on this server (one name is one player). "
    "This window stopped: quit it with Ctrl+Q, or play under another name."
)


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
        Binding("s", "start", "Start game"),
        Binding("s", "save", "Save record"),
        Binding("pageup", "log(-1)", "Log ↑"),
        Binding("pagedown", "log(1)", "Log ↓", show=False),
        Binding("H", "ledger", "Purchases", show=False),
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
        self._early: list[Callable[[], None]] = []  # what arrived before the screen was built
        self.connection = "connected"
        self.ledger = Ledger()

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
        with Horizontal(id="chat-line"):
            yield Static(Text("Chat> ", style="bold cyan"), id="chat-prompt")
            yield Input(id="chat", placeholder="type, Enter sends, Escape cancels", max_length=300)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#board").border_title = "Value board"
        self.query_one("#players").border_title = "Players"
        self.query_one("#auction").border_title = "Auction"
        self.query_one("#log").border_title = "Events"
        self.query_one("#log").border_subtitle = SCROLL_HINT
        self.query_one("#hand").border_title = "Your hand"
        self.query_one("#chat-line").display = False
        self.query_one("#chat", Input).cursor_blink = False
        self._draw_status()
        self.query_one(Hand).focus()
        self._ready = True
        for deferred in self._early:
            deferred()
        self._early.clear()

    # ------------------------------------------------------------ rendering

    @property
    def closing(self) -> bool:
        """The screen is being taken down (the app quits): news has nowhere to go."""
        return self._closing or self._closed

    @property
    def names(self) -> list[str]:
        return [s.get("name", "?") for s in self.view.get("seats") or []]

    def show(self, view: dict[str, Any], events: list[dict[str, Any]], logged: bool = True) -> None:
        """Show a new view and narrate its events; only changed widgets redraw.

        `logged` False: the events are not written to the log (a `history` answer
        on its way holds them).
        """
        if self.closing:
            return
        if not self._ready:
            self._early.append(lambda: self.show(view, events, logged))
            return
        previous = self.view
        self.view = view
        names = self.names
        if logged:
            self.add_history(events)
        self.query_one(ValueBoard).show(view)
        self.query_one(Players).show(view)
        self.query_one(AuctionPanel).show(view, events)
        hand = self.query_one(Hand)
        hand.show(view.get("hand") or [], view.get("legal") or {}, view)
        hand.display = view.get("you") is not None
        self._draw_status()
        self._focus_for(view.get("legal") or {})
        self.refresh_bindings()
        if self._decision_starts(previous, view):
            self.modern_app.your_turn()
        # Round 4's summary comes first; the game end follows when it is closed.
        modals: list[RoundSummary | GameOver] = []
        for event in events:
            if event.get("type") == "round_end":
                bought = [s.get("purchased") or [] for s in previous.get("seats") or []]
                clock = self.query_one(AuctionPanel).clock_line
                modals.append(RoundSummary(event, names, bought, clock))
            elif event.get("type") == "game_end":
                modals.append(GameOver(event, names))
        if modals:
            self._show_modals(modals)

    def add_history(self, events: list[dict[str, Any]]) -> None:
        """Events for the log and the purchases ledger (live, or a `history` answer)."""
        if self.closing:
            return
        if not self._ready:
            self._early.append(lambda: self.add_history(events))
            return
        self.query_one(EventLog).add_events(events, self.names, self.view.get("you"))
        self.ledger.add(events)

    @staticmethod
    def _decision_starts(previous: dict[str, Any], view: dict[str, Any]) -> bool:
        """Your turn has just come: a decision other than shouting in an open auction."""
        you = view.get("you")
        if you is None or view.get("phase") == "open" or not view.get("legal"):
            return False
        was_yours = you in (previous.get("to_act") or []) and previous.get("legal")
        return you in (view.get("to_act") or []) and not was_yours

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
        if self.closing:
            return
        if not self._ready:
            self._early.append(lambda: self.show_room(room, you))
            return
        before, self.room_info = self.room_info, room
        if self.view.get("status") not in (None, "waiting"):
            return
        self._tell_arrivals(before, room)
        seated = room.get("seated") or []
        bots = room.get("bots") or [False] * len(seated)
        connected = room.get("connected") or [True] * len(seated)
        seats = [
            {
                "name": name or "(free)",
                "free": not name,
                "bot": bot,
                "connected": on,
                "hand_size": 0,
                "purchased": [],
            }
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

    def _tell_arrivals(self, before: dict[str, Any], room: dict[str, Any]) -> None:
        """The waiting room's comings and goings, told in the log (not the bots of a
        game against bots, seated before the player could read about them)."""
        if before.get("id") != room.get("id") or self.modern_app.local is not None:
            return
        old, new = before.get("seated") or [], room.get("seated") or []
        for seat, (was, now) in enumerate(zip(old, new, strict=False)):
            if was == now:
                continue
            you = seat == self.seat
            if was and not you:
                self.note(f"{was} left the room")
            if now and not you:
                self.note(f"{now} took a seat", "")

    def _focus_for(self, legal: dict[str, Any]) -> None:
        if self.focused is not None and self.focused.id == "chat":
            return
        if "play" in legal or "add" in legal:
            self.query_one(Hand).focus()
        elif any(k in legal for k in ("bid", "sealed", "price")):
            self.query_one(AmountInput).focus()

    def _draw_status(self) -> None:
        """Who you are, where, the round, your money, whether it is your turn, the line."""
        view = self.view
        label, style = CONNECTION_LABEL.get(self.connection, (self.connection, "yellow"))
        text = Text()
        text.append(" Modern Art ", style="bold reverse")
        text.append(" ")
        text.append(self.modern_app.player_name, style="bold")
        if view.get("status") == "waiting" or not view:
            text.append(" · waiting room")
        elif view.get("finished"):
            text.append(" · game over")
        elif view:
            text.append(f" · round {view.get('round')}/4")
        if view.get("you") is None and view:
            text.append(" · watching", style="italic")
        elif view.get("money") is not None:
            text.append(" · $")
            text.append(str(view["money"]), style="bold green")
        if self._decision_starts({}, view):  # your turn now (shouting is not a turn)
            text.append(" ")
            text.append(" YOUR TURN ", style="bold black on yellow")
        text.append("  ")
        text.append(label, style=style)
        text.append("  F1 help", style="dim")
        room = self.room_info.get("name") or view.get("room") or self.room
        room = f" · room {room}" if room else ""
        if room and len(text) + len(room) <= self.size.width:  # the name only where it fits
            name_end = len(" Modern Art  ") + len(self.modern_app.player_name)
            text = Text.assemble(text[:name_end], room, text[name_end:])
        self.query_one("#status", Static).update(text)

    def on_resize(self) -> None:
        self._draw_status()

    def set_connection(self, state: str, detail: str = "") -> None:
        self.connection = state
        self._draw_status()
        if state == "reconnecting":
            self.query_one(EventLog).add_note(
                f"Connection lost ({detail}); reconnecting…", "bold red"
            )
        elif state == "replaced":
            name = self.modern_app.player_name
            self.query_one(EventLog).add_note(REPLACED_NOTE.format(name=name), "bold red")

    def show_error(self, message: str) -> None:
        self.query_one(AuctionPanel).show_error(message)

    def add_chat(self, sender: str, text: str, watching: bool = False) -> None:
        self.query_one(EventLog).add_chat(sender, text, watching)

    def note(self, text: str, style: str = "dim") -> None:
        self.query_one(EventLog).add_note(text, style)

    def on_clock_warning(self, message: ClockWarning) -> None:
        self.modern_app.ring()

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
        if action == "start":
            return status == "waiting" and self.view.get("host") == self.view.get("you")
        if action == "save":
            return bool(self.view.get("finished"))
        if action == "ledger":
            return status != "waiting"
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
        panel.sent()

    def action_chat(self) -> None:
        self.query_one("#chat-line").display = True
        self.query_one("#chat", Input).focus()

    def action_cancel_chat(self) -> None:
        line = self.query_one("#chat-line")
        if line.display:
            line.display = False
            self._focus_for(self.legal)
            if self.focused is None or self.focused.id == "chat":
                self.query_one(Hand).focus()

    def action_log(self, pages: int) -> None:
        self.query_one(EventLog).page(pages)

    def action_ledger(self) -> None:
        self.app.push_screen(LedgerScreen(self.ledger, self.names))

    def action_add_bot(self) -> None:
        if self.view.get("status", "waiting") != "waiting":
            self.app.bell()
            return
        self.modern_app.send({"t": "add_bot"})

    def action_start(self) -> None:
        if self.view.get("status", "waiting") != "waiting":
            self.app.bell()
            return
        self.modern_app.send({"t": "start"})

    def action_save(self) -> None:
        if not (self.view.get("finished") or self.view.get("status") == "finished"):
            self.app.bell()
            return
        self.modern_app.save_record()

    @property
    def game_running(self) -> bool:
        """A seat in a game not over yet: leaving it deserves a question."""
        view = self.view
        return (
            view.get("you") is not None
            and view.get("status") == "playing"
            and not view.get("finished")
        )

    def action_leave(self) -> None:
        if not self.game_running:
            self.modern_app.leave_room()
            return
        detail = (
            "Your seat is kept: the others see that you left, a bot plays for you after a "
            "while, and you can come back by joining the room again."
        )
        if self.modern_app.local is not None:
            detail = "This game against bots ends when you leave."

        def answer(yes: bool | None) -> None:
            if yes:
                self.modern_app.leave_room()

        self.app.push_screen(Confirm("Leave this game?", detail), answer)

    def _after_game_over(self, choice: str | None) -> None:
        if choice == "save":
            self.modern_app.save_record()
        elif choice == "quit":
            self.app.exit()
