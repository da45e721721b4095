"""What every game's table shares: the status line, connection state, chat, the event log's
keys, the waiting room, leaving and the turn clock; `GameTable` is the base of each table.

The contract for a game's table screen (registered in `tui/games.py`):

- subclass `GameTable`; `compose_table` yields the game's widgets, an event log with
  `id="log"` among them (an `EventLog`, or a subclass telling the game's events), and
  `TableFrame` (tui/tableframe.py) puts the status line above, the chat line and footer below;
- put `*TABLE_BINDINGS` (tui/tablekeys.py, with what they do) after the game's own keys in
  `BINDINGS` (the footer keeps that order), and answer `check_action` for the game's
  actions before calling `super()`;
- implement `draw(previous, view, events)`: redraw the game's widgets for a new view
  (PROTOCOL.md `update.view`; a waiting room's view has only `seats`, `status`, `you`,
  `host`, `room`, `legal`);
- implement `tell(events, names, you)`: write events to the log in plain words, naming
  the seats by `names` and `you` (presence, clocks and stand-ins are told by this base:
  `tui/presence.py`; a game's `tell` never sees those events);
- set the game's own fields in `init_fields()`, not `__init__`; the titles of its widgets'
  borders in `BORDERS` and what it does once they are up in `mounted()`, not `on_mount`;
- override `progress(view)` ("round 2/4") and set `PURSE` (or override `purse(view)`:
  ("$", "80")) for the status line, `show_error` if the game has a better place for
  refusals than the log,
  `focus_for(legal)` to move the focus where a decision is made, `focus_default()` where
  it rests otherwise, and `end_screens` for the modal screens of a round's or game's end;
  a game that asks for an amount right after the player's own action holds the keys typed
  ahead of its question (`hold`, `take_ahead`: tui/typeahead.py).

A table never imports the app: it asks it through the messages of `tui/messages.py`
(`SendToServer`, `PlayerAct`, `LeaveRoom`, `SaveRecord`, `Alert`). The app calls
`show`, `add_history`, `show_room`, `add_chat`, `note`, `show_error` and `set_connection`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.screen import ModalScreen
from textual.widgets import Input

from modernart.engine.games import DEFAULT_GAME, get_game

from .away import pause_line
from .borders import titled
from .devices import replaced_note
from .eventlog import EventLog
from .lines import LinePanel
from .messages import Alert, PlayerAct, SaveRecord, SendToServer
from .minsize import fit_size, watch_size
from .presence import PresenceTeller, presence_text, table_facts
from .rematch import RematchKeys
from .tableframe import TableFrame
from .tablehistory import TableHistory
from .tablekeys import TableKeys, hints_allowed
from .turnclock import ClockWarning
from .typeahead import TypeAhead

CLOCK_MOVED = "Not sent: the clock had moved for you (above). Look, then press it again."
CONNECTION_LABEL = {
    "connecting": ("connecting…", "yellow"),
    "connected": ("● online", "green"),
    "reconnecting": ("reconnecting…", "bold red"),
    "closed": ("offline", "bold red"),
    "replaced": ("opened elsewhere", "bold red"),
}


class GameTable(TableHistory, RematchKeys, TableKeys, TypeAhead, TableFrame):
    """The base of every game's table: see the module docstring for the contract."""

    GAME: ClassVar[str] = DEFAULT_GAME  # the registry name of the game this table shows
    GAME_TITLE: ClassVar[str] = "?"  # the status line's first words
    PURSE: ClassVar[tuple[str, str] | None] = None  # your money: (its key in the view, prefix)

    def __init__(
        self,
        room: str | None = None,
        seat: int | None = None,
        *,
        player: str = "You",
        local: bool = False,
    ) -> None:
        super().__init__()
        self.room = room
        self.seat = seat
        self.player = player  # the player's name
        self.local = local  # a game against bots in this process: leaving ends it
        self.view: dict[str, Any] = {}
        self.room_info: dict[str, Any] = {}
        self._ready = False
        self._early: list[Callable[[], None]] = []  # what arrived before the screen was built
        self._waiting_screens: list[ModalScreen[Any]] = []  # end screens not shown yet
        self._open_screen: ModalScreen[Any] | None = None  # the one on screen
        self.connection = "connected"
        self.earlier_chat: list[Any] = []  # `joined.chat`: told once the history is
        self._new_game()

    def _new_game(self) -> None:
        """The fields a game of this table keeps, the game's own (`init_fields`) among them."""
        self._review_told = False  # the log said how to ask for the review (after_game_over)
        self.clock_moved = False  # the turn clock moved for you since your last action (act)
        self.presence = PresenceTeller()
        self.init_fields()

    def join(self, room: str | None, seat: int | None) -> None:
        """The table shows `room` now: another room (a rematch it follows) is another
        game, whose fields start again (Modern Art's purchases gathered every game's)."""
        if room != self.room:
            self._new_game()
        self.room, self.seat = room, seat

    # ------------------------------------------------------------- the hooks
    def init_fields(self) -> None:
        """Set the game's own fields as the table is made and for each room it joins."""

    def mounted(self) -> None:
        """The game's own start once its widgets are up (`BORDERS` set): draw, focus."""

    def draw(
        self, previous: dict[str, Any], view: dict[str, Any], events: list[dict[str, Any]]
    ) -> None:
        """Redraw the game's widgets for `view` (see the module docstring)."""
        raise NotImplementedError

    def tell(self, events: list[dict[str, Any]], names: Sequence[str], you: int | None) -> None:
        """Write `events` to the log in plain words; `you` is told in the second person."""
        raise NotImplementedError

    def progress(self, view: dict[str, Any]) -> str:
        """Where the game is, for the status line: "round 2/4"."""
        return ""

    def purse(self, view: dict[str, Any]) -> tuple[str, str] | None:
        """Your money for the status line: (prefix, amount), or None when hidden."""
        if self.PURSE is None or view.get(self.PURSE[0]) is None:
            return None
        return self.PURSE[1], str(view[self.PURSE[0]])

    def focus_for(self, legal: dict[str, Any]) -> None:
        """Move the focus to where the decision in `legal` is made (never called while
        the player types a chat line)."""

    def end_screens(
        self, previous: dict[str, Any], events: list[dict[str, Any]]
    ) -> list[ModalScreen[Any]]:
        """Screens to show, one after the other, for `events` (a round's or the game's end);
        a screen dismissed with "save" or "quit" does that (`after_game_over`)."""
        return []

    # --------------------------------------------------------------- drawing

    def on_mount(self) -> None:
        self.set_borders()
        self.mounted()
        watch_size(self)
        self.query_one("#chat-line").display = False
        self.query_one("#chat", Input).cursor_blink = False
        self.draw_status()
        self._ready = True
        for deferred in self._early:
            deferred()
        self._early.clear()

    @property
    def closing(self) -> bool:
        """The screen is being taken down (the app quits): news has nowhere to go."""
        return self._closing or self._closed

    def _later(self, call: Callable[[], None]) -> bool:
        """True if the screen cannot take news now (closing, or kept for `on_mount`)."""
        if self.closing:
            return True
        if not self._ready:
            self._early.append(call)
            return True
        return False

    @property
    def names(self) -> list[str]:
        return [s.get("name", "?") for s in self.view.get("seats") or []]

    @property
    def legal(self) -> dict[str, Any]:
        return self.view.get("legal") or {}

    def show(self, view: dict[str, Any], events: list[dict[str, Any]], logged: bool = True) -> None:
        """Show a new view and tell its events; `logged` False: the events are not written
        to the log (a `history` answer on its way holds them)."""
        if self._later(lambda: self.show(view, events, logged)):
            return
        previous, self.view = self.view, view
        you = view.get("you")
        if you is not None and any(
            e.get("type") == "timeout" and e.get("seat") == you for e in events
        ):
            self.clock_moved = True
        if logged:
            self.add_history(events)
        self.draw(previous, view, events)
        self.draw_status()
        if not self.chatting:
            self.focus_for(self.legal)
        self.refresh_bindings()
        self.answered(self.legal)  # keys typed ahead of it (tui/typeahead.py)
        if self.decision_starts(previous, view):
            self.post_message(Alert("turn"))
        if logged and (paused := pause_line(previous, view)) is not None:
            self.note(*paused)  # else told below the history on its way (history_done)
        # A watcher gets no dialogs: the log and the table tell the rounds' ends (issue 28).
        if view.get("you") is not None:
            self._waiting_screens.extend(self.end_screens(previous, events))
            if self._open_screen not in self.app.screen_stack:  # none, or taken down
                self._show_next()

    def _show_next(self) -> None:
        """The oldest end screen not shown yet. One at a time, in the order the events
        came: a player away from the keys finds round 3's summary first, not last."""
        self._open_screen = None
        if not self._waiting_screens:
            return
        self._open_screen = self._waiting_screens.pop(0)

        def after(choice: Any) -> None:
            self.after_game_over(choice)
            self._show_next()

        self.app.push_screen(self._open_screen, after)

    @staticmethod
    def decision_starts(previous: dict[str, Any], view: dict[str, Any]) -> bool:
        """Your turn has just come (a real-time phase, Modern Art's open auction, is no turn)."""
        you = view.get("you")
        if you is None or view.get("phase") == "open" or not view.get("legal"):
            return False
        was_yours = you in (previous.get("to_act") or []) and previous.get("legal")
        return you in (view.get("to_act") or []) and not was_yours

    def draw_status(self) -> None:
        """Who you are, where, how far the game is, your money, your turn, the line."""
        view = self.view
        label, style = CONNECTION_LABEL.get(self.connection, (self.connection, "yellow"))
        title = f" {self.GAME_TITLE} "
        text = Text()
        text.append(title, style="bold reverse")
        text.append(" ")
        text.append(self.player, style="bold")
        if view.get("status") == "waiting" or not view:
            text.append(" · waiting room")
        elif view.get("finished"):
            text.append(" · game over" + self.rematch_status())
        elif view:
            text.append(f" · {self.progress(view)}")
        purse = self.purse(view) if view else None
        if view.get("you") is None and view:
            text.append(" · watching", style="italic")
        elif purse is not None:
            text.append(f" · {purse[0]}")
            text.append(purse[1], style="bold green")
        if self.decision_starts({}, view):  # your turn now (shouting is not a turn)
            text.append(" ")
            text.append(" YOUR TURN ", style="bold black on yellow")
        text.append("  ")
        text.append(label, style=style)
        if view.get("status") == "playing":
            text.append_text(presence_text(view))
        if len(text) + 9 <= self.size.width:
            text.append("  F1 help", style="dim")
        room = self.room_info.get("name") or view.get("room") or self.room
        room = f" · room {room}" if room else ""
        if room and len(text) + len(room) <= self.size.width:  # the name only where it fits
            name_end = len(title) + 1 + len(self.player)
            text = Text.assemble(text[:name_end], room, text[name_end:])
        self.query_one("#status", LinePanel).set_lines(text)
        facts = table_facts(view, self.room_info)
        titled(self.query_one("#log"), " · ".join(["Events", *facts]))

    def on_resize(self) -> None:
        fit_size(self)
        self.draw_status()

    # ---------------------------------------------------------- the app's news

    def show_room(self, room: dict[str, Any], you: int | None) -> None:
        """A waiting room's news (PROTOCOL.md addition `room`): who sits where, who hosts."""
        if self._later(lambda: self.show_room(room, you)):
            return
        before, self.room_info = self.room_info, room
        if self.view.get("status") not in (None, "waiting"):
            return
        self._tell_arrivals(before, room)
        seated = room.get("seated") or []
        bots = room.get("bots") or [False] * len(seated)
        connected = room.get("connected") or [True] * len(seated)
        seats = [
            {"name": name or "(free)", "free": not name, "bot": bot, "connected": on}
            for name, bot, on in zip(seated, bots, connected, strict=False)
        ]
        view = {
            "room": room.get("id"),
            "status": room.get("status", "waiting"),
            "you": you,
            "seats": seats,
            "legal": {},
            "host": room.get("host"),
        }
        self.show(view, [])

    def _tell_arrivals(self, before: dict[str, Any], room: dict[str, Any]) -> None:
        """The waiting room's comings and goings, told in the log (not the bots of a
        game against bots, seated before the player could read about them)."""
        if before.get("id") != room.get("id") or self.local:
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

    def set_connection(self, state: str, detail: str = "") -> None:
        self.connection = state
        self.draw_status()
        if state == "reconnecting":
            self.note(f"Connection lost: {detail}. Reconnecting…", "bold red")
        elif state == "replaced":
            self.note(replaced_note(self.player, detail), "bold red")

    def show_error(self, message: str) -> None:
        self.refused()
        self.note(message, "bold red")

    def add_chat(self, sender: str, text: str, watching: bool = False) -> None:
        self.query_one("#log", EventLog).add_chat(sender, text, watching)

    def note(self, text: str, style: str = "dim") -> None:
        self.query_one("#log", EventLog).add_note(text, style)

    def on_clock_warning(self, message: ClockWarning) -> None:
        self.post_message(Alert("clock"))

    # --------------------------------------------------------------- actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show in the footer only what can be done now (False hides a binding)."""
        status = self.view.get("status", "waiting")
        host = status == "waiting" and self.view.get("host") == self.view.get("you")
        if action == "act":
            return parameters[0] in self.legal
        if action in ("add_bot", "pick_bot", "start"):
            return host
        if action == "save":
            return bool(self.view.get("finished"))
        if action == "review":  # a player's finished game (a watcher: past games)
            return bool(self.view.get("finished")) and self.view.get("you") is not None
        if action == "rematch":
            return self.rematch_shown(bool(parameters[0]))
        if action == "hint":
            has_hint = get_game(self.GAME).hint is not None
            return has_hint and hints_allowed(self.room_info) and bool(self.legal)
        return True

    def send(self, msg: dict[str, Any]) -> None:
        self.post_message(SendToServer(msg))

    def act(self, action: dict[str, Any]) -> bool:
        """Send `action`; False if it was not sent: the first action after the turn clock
        moved for you is not (play-test 2026-12-05: Enter pressed for a card as the clock
        played another bid the minimum in the auction the clock had started, and bought
        the player's own painting). The log says what happened; pressed again, it goes."""
        if self.clock_moved:
            self.clock_moved = False
            self.app.bell()
            self.note(CLOCK_MOVED, "bold yellow")
            return False
        self.expect_answer(self.legal)
        self.post_message(PlayerAct(action))
        return True

    def action_act(self, kind: str) -> None:
        if kind not in self.legal:
            self.app.bell()
            return
        self.act({"type": kind})

    def after_game_over(self, choice: str | None) -> None:
        """The end screen's choice: save the record, rematch or not, quit, or just close it."""
        if choice in ("rematch", "decline"):
            self.action_rematch(choice == "rematch")
        elif choice == "save":
            self.post_message(SaveRecord())
        elif choice == "quit":
            self.app.exit()
        finished = bool(self.view.get("finished"))  # not a round's summary closed
        if choice != "quit" and finished and not self._review_told:  # no room in the footer
            self._review_told = True  # once a game, however often its dialog closes
            self.note("a: the expert's review of this game (also in Past games, p in the lobby)")
