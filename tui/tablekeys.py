"""The keys every table shares, after its game's own (`TABLE_BINDINGS`), and what they do:
chat, the waiting room's bots and start, the log's paging, a hint, saving the record and
leaving. `TableKeys` is mixed into `GameTable` (tui/gametable.py), which provides the view,
the room and the hooks declared here."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.actions import SkipAction
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Input

from modernart.engine.games import get_game

from .away import while_away
from .botpick import BotLevelDialog
from .confirm import Confirm, leave_question
from .eventlog import EventLog
from .messages import LeaveRoom, SaveRecord
from .reviewing import ReviewAsked

# Every table's keys, after its own game keys (tui/gametable.py's docstring).
TABLE_BINDINGS: list[BindingType] = [
    Binding("t", "chat", "Chat"),
    Binding("b", "add_bot", "Add bot"),
    Binding("B", "pick_bot", "Bot level…"),
    Binding("s", "start", "Start game"),
    Binding("s", "save", "Save record"),
    Binding("R", "rematch(True)", "Rematch"),
    Binding("D", "rematch(False)", "Decline", show=False),  # F1 and the log name it
    # The game over, its dialog closed (tui/reviewing.py): the log says it (no room in the
    # footer at 80 columns).
    Binding("a", "review", "Review", show=False),
    Binding("pageup", "log(-1)", "Log ↑"),
    Binding("pagedown", "log(1)", "Log ↓", show=False),
    # Before the focused widget's End (the hand's last card), only while reading back.
    Binding("end", "log_latest", show=False, priority=True),
    Binding("L", "leave", "Leave"),
    Binding("escape", "cancel_chat", show=False),
]


def hints_allowed(room: dict[str, Any]) -> bool:
    """False only when the room's options say so (older servers send no `hints`)."""
    return (room.get("options") or {}).get("hints", True) is not False


class TableKeys(Screen[None]):
    """The actions of `TABLE_BINDINGS` (and `?`, the hint)."""

    GAME: ClassVar[str]
    view: dict[str, Any]
    room_info: dict[str, Any]
    local: bool

    @property
    def legal(self) -> dict[str, Any]:
        raise NotImplementedError

    def send(self, msg: dict[str, Any]) -> None:
        raise NotImplementedError

    def note(self, text: str, style: str = "dim") -> None:
        raise NotImplementedError

    def focus_for(self, legal: dict[str, Any]) -> None:
        raise NotImplementedError

    def action_chat(self) -> None:
        self.query_one("#chat-line").display = True
        self.query_one("#chat", Input).focus()

    def action_cancel_chat(self) -> None:
        line = self.query_one("#chat-line")
        if line.display:
            line.display = False
            if not self.chatting:
                self.focus_for(self.legal)
            if self.focused is None or self.focused.id == "chat":
                self.focus_default()

    def focus_default(self) -> None:
        """Where the focus rests when no decision needs it (after the chat closes)."""
        self.focus_next()

    def send_chat(self, entry: Input) -> None:
        text = entry.value.strip()
        if text:
            self.send({"t": "chat", "text": text})
        entry.value = ""
        self.action_cancel_chat()

    def action_log(self, pages: int) -> None:
        self.query_one("#log", EventLog).page(pages)

    def action_log_latest(self) -> None:
        """End while the log reads back: to its latest line; else End is the focused
        widget's (SkipAction passes it on)."""
        log = self.query_one("#log", EventLog)
        if log.following:
            raise SkipAction
        log.latest()

    def action_hint(self) -> None:
        """`?`: what the game's hard bot would do here and why (`GameInfo.hint`), from
        this view only: a hint knows no more than the player. Hidden and inert
        (`check_action`) when the host turned hints off or nothing is to decide."""
        hint = get_game(self.GAME).hint
        if hint is None or not hints_allowed(self.room_info) or not self.legal:
            self.app.bell()
            return
        _, reason = hint(self.view)
        self.note(f"Hint: {reason}", "bold")

    def _waiting(self) -> bool:
        """True while the room waits for its game to start; else the bell rings."""
        waiting = self.view.get("status", "waiting") == "waiting"
        if not waiting:
            self.app.bell()
        return waiting

    def action_add_bot(self) -> None:
        if self._waiting():
            self.send({"t": "add_bot"})

    def action_pick_bot(self) -> None:
        """B: choose the level (the game's bots, each with its one line)."""
        if not self._waiting():
            return

        def chosen(level: str | None) -> None:
            if level:
                self.send({"t": "add_bot", "level": level})

        self.app.push_screen(BotLevelDialog(get_game(self.GAME)), chosen)

    def action_start(self) -> None:
        if self._waiting():
            self.send({"t": "start"})

    def action_review(self) -> None:
        """a at the table once the game is over: its review, as from the game-over dialog
        (play-test: with the dialog closed, nothing at the table asked for it)."""
        if not self.view.get("finished") or self.room is None:
            self.app.bell()
            return
        self.post_message(ReviewAsked(self.room))

    def action_save(self) -> None:
        if not (self.view.get("finished") or self.view.get("status") == "finished"):
            self.app.bell()
            return
        self.post_message(SaveRecord())

    @property
    def chatting(self) -> bool:
        """The chat entry has the focus: a decision does not take it away."""
        return self.focused is not None and self.focused.id == "chat"

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
        away = while_away(self.view, self.room_info)
        asked = leave_question(bool(self.local), self.game_running, away)
        if asked is None:
            self.post_message(LeaveRoom())
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self.post_message(LeaveRoom())

        self.app.push_screen(Confirm(*asked), answer)
