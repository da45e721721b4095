"""The lobby: the live room list, and dialogs to create a room or give a password."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Input, Label, Static

from modernart.engine.games import DEFAULT_GAME

from .createroom import CreateRoomDialog
from .devices import DevicesScreen, replaced_note
from .dialog import Dialog
from .footer import Footer
from .gametable import CONNECTION_LABEL
from .lines import LinePanel
from .messages import GameChosen, SendToServer
from .minsize import fit_size, watch_size
from .ordered import OrderedInput
from .people import LeaderboardScreen, OnlineScreen, PastGamesScreen
from .roomrows import COLUMNS, Layout, game_info, has_free_seat, needs
from .rowlist import RowList


class LobbyScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "join", "Join"),
        Binding("w", "watch", "Watch"),
        Binding("c", "create", "Create"),
        Binding("r", "refresh", "Refresh"),
        Binding("n", "rename", "Name"),
        Binding("o", "online", "Who"),
        Binding("g", "leaderboard", "Ranks"),
        Binding("p", "past_games", "Past"),
        # Off the footer (it is full at 80 columns): the hint below the rooms and F1
        # name them, and so does the browser page.
        Binding("k", "handoff", "Play elsewhere", show=False),
        Binding("i", "claim", "Play from another device", show=False),
        Binding("d", "devices", "Your devices", show=False),
    ]

    def __init__(self, player: str = "You") -> None:
        super().__init__()
        self.player = player
        self.rooms: list[dict[str, Any]] = []
        self.connection = "connecting"
        self._layout = Layout(None)  # the columns' widths, for the screen's width
        self._needs: dict[str, int] = {}  # the widest cells seen (roomrows.py `needs`)
        self._left: str | None = None  # the room just left: the cursor goes past it

    def send(self, msg: dict[str, Any]) -> None:
        self.post_message(SendToServer(msg))

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield RowList(id="rooms")
        yield LinePanel(id="lobby-hint")
        yield Static(id="error")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        tables = self.query(RowList)
        if not tables:  # a session closed as its lobby mounted (a page that dropped at once)
            return
        table = tables.first()
        self._columns(table, Layout.of(self.size.width, self._needs))
        table.border_title = "Rooms"
        table.focus()
        self._draw_status()
        self._draw_hint()
        watch_size(self)

    def _draw_status(self) -> None:
        label, style = CONNECTION_LABEL.get(self.connection, (self.connection, "yellow"))
        text = Text.assemble(
            (" modernart ", "bold reverse"),
            " lobby · you are ",
            (self.player, "bold"),
            "  ",
            (label, style),
        )
        text.append("  F1 help", style="dim")
        self.query_one("#status", Static).update(text)

    def _draw_hint(self) -> None:
        if self.rooms:
            hint = "Enter/j join · w watch · c create a room · r refresh"
        elif self.connection == "connected":
            hint = "No rooms yet: press c to create one."
        else:
            hint = "Not connected: the rooms show once the server answers."
        hint += "\nk play elsewhere · i play one from another device (a code) · d devices"
        games = {room.get("game") for room in self.rooms}
        for info in filter(None, map(game_info, games)):
            if info.caveat:  # the starred games of the Game column
                hint += f"\n*{info.title}: {info.caveat}"
        self.query_one("#lobby-hint", LinePanel).set_lines(Text(hint, style="dim"))

    def set_player(self, name: str) -> None:
        """The server took our new name."""
        self.player = name
        self._draw_status()
        self.show_error("")

    def action_rename(self) -> None:
        def chosen(name: str | None) -> None:
            if name and name.strip() and name.strip() != self.player:
                self.send({"t": "rename", "name": name.strip()})

        self.app.push_screen(NameDialog(self.player), chosen)

    def action_online(self) -> None:
        # The game last played or watched (ClientApp.room_game): its ratings first.
        self.app.push_screen(OnlineScreen(getattr(self.app, "room_game", DEFAULT_GAME)))

    def action_leaderboard(self) -> None:
        room = self.selected_room()
        self.app.push_screen(LeaderboardScreen((room or {}).get("game") or DEFAULT_GAME))

    def action_past_games(self) -> None:
        self.app.push_screen(PastGamesScreen())

    def action_handoff(self) -> None:
        """Ask for a one-time code that lets another device play this identity."""
        self.send({"t": "handoff"})

    def show_handoff(self, code: str, expires_s: int) -> None:
        self.app.push_screen(HandoffDialog(code, expires_s))

    def action_devices(self) -> None:
        self.app.push_screen(DevicesScreen())

    def action_claim(self) -> None:
        """Enter a code from another device's `k`: this client then plays that identity."""
        where = getattr(self.app, "where", "online")
        self.app.push_screen(ClaimDialog(self.player, CLAIM_NOTES.get(where, "")))

    def set_connection(self, state: str, detail: str = "") -> None:
        self.connection = state
        self._draw_status()
        if state == "replaced":
            self.show_error(replaced_note(self.player, detail))
            for screen in self.app.screen_stack:  # its code was used: the dialog is done
                if isinstance(screen, HandoffDialog):
                    screen.dismiss(None)
        elif state == "reconnecting" and detail:
            self.show_error(f"Cannot reach the server: {detail}. Trying again…")
        elif state == "connected":
            self.show_error("")
        self._draw_hint()

    def _columns(self, table: RowList, layout: Layout) -> None:
        """Every column, in widths for the screen's and the rooms' (roomrows.py `Layout`):
        fixed widths one space apart, or as wide as their cells two apart."""
        self._layout = layout
        table.set_columns(COLUMNS, layout.widths, 2 if layout.widths is None else 1)

    def on_resize(self) -> None:
        fit_size(self)
        self.show_rooms(self.rooms)

    def show_rooms(self, rooms: list[dict[str, Any]]) -> None:
        """The room list, drawn: the cursor stays on the room it was on, and only the
        rows that changed are drawn again (the server pushes the list to every session
        in the lobby when a room changes; tui/rowlist.py)."""
        if not self.query(RowList):
            return  # a list that came while the app quits: the screen is being taken down
        table = self.query_one(RowList)
        selected = self.selected_room()
        self.rooms = [r for r in rooms if isinstance(r, dict) and "id" in r]
        # Widths only grow with the rooms a session has seen: a new width redraws every
        # row, and the server pushes the list to every lobby session at once (issue 31).
        seen = self._needs
        self._needs = seen | {k: max(seen.get(k, 0), n) for k, n in needs(self.rooms).items()}
        layout = Layout.of(self.size.width, self._needs)
        if layout != self._layout:
            self._columns(table, layout)
        ids = [str(room["id"]) for room in self.rooms]
        cursor = None
        if selected is not None and str(selected["id"]) in ids:
            cursor = ids.index(str(selected["id"]))
        table.set_rows([self._cells(room) for room in self.rooms], cursor=cursor)
        if self._left is not None:
            self.came_back(self._left)
            self._left = None
        self._draw_hint()

    def _cells(self, room: dict[str, Any]) -> list[Any]:
        """A room's row: the table's cells, in its columns' order."""
        return self._layout.cells(room)

    def came_back(self, room: str) -> None:
        """Back from `room`: the cursor on the first room with a free seat (the newest
        waiting one), else on the room just left while it plays on (Enter takes the seat
        back), else on the top room other than that one; here and in the list the server
        sends next (playtests #5: Enter went back into the finished game just left;
        2026-12-03 evening #9: the cursor sat on a full room)."""
        self._left = room
        if not self.query(RowList) or not self.rooms:
            return
        ids = [str(r["id"]) for r in self.rooms]
        open_ = [i for i, r in enumerate(self.rooms) if ids[i] != room and has_free_seat(r)]
        back = [
            i for i, r in enumerate(self.rooms) if ids[i] == room and r.get("status") == "playing"
        ]
        row = (open_ or back or [1 if ids[:1] == [room] else 0])[0]
        self.query_one(RowList).move_cursor(row)

    def selected_room(self) -> dict[str, Any] | None:
        table = self.query_one(RowList)
        if not self.rooms or table.cursor_row < 0 or table.cursor_row >= len(self.rooms):
            return None
        return self.rooms[table.cursor_row]

    def show_error(self, message: str) -> None:
        self.query_one("#error", Static).update(Text(message, style="bold red"))

    def on_row_list_selected(self, event: RowList.Selected) -> None:
        self.action_join()

    def action_join(self) -> None:
        self._enter("join")

    def action_watch(self) -> None:
        self._enter("watch")

    def _enter(self, how: str) -> None:
        """`join` or `watch` the selected room; a locked one asks for its password first."""
        room = self.selected_room()
        if room is None:
            self.app.bell()
            return
        # Your own seat (after leaving or a restart) is yours without the password.
        yours = how == "join" and self.player in (room.get("seated") or [])
        if room.get("locked") and not yours:
            self.app.push_screen(PasswordDialog(), lambda pw: self._send_enter(how, room, pw))
        else:
            self._send_enter(how, room, None)

    def _send_enter(self, how: str, room: dict[str, Any], password: str | None) -> None:
        if password == "":
            return
        msg: dict[str, Any] = {"t": how, "room": room["id"]}
        if password:
            msg["password"] = password
        self.post_message(GameChosen(room.get("game") or DEFAULT_GAME))
        self.send(msg)

    def action_create(self) -> None:
        self.app.push_screen(CreateRoomDialog(), self._create)

    def _create(self, msg: dict[str, Any] | None) -> None:
        if msg:
            self.post_message(GameChosen(msg.get("game") or DEFAULT_GAME))
            self.send(msg)

    def action_refresh(self) -> None:
        self.send({"t": "rooms"})


class LineDialog(Dialog[str]):
    """A dialog that asks for one line of text: Enter gives it, Escape gives ""."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def on_mount(self) -> None:
        self.query_one(Input).cursor_blink = False

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss("")


class PasswordDialog(LineDialog):
    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label("This room has a password:")
            yield OrderedInput(id="password", password=True)


class HandoffDialog(Dialog[None]):
    """The code of "play this identity elsewhere": shown until a key is pressed."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter,k", "close", "Close")]

    def __init__(self, code: str, expires_s: int) -> None:
        super().__init__()
        self.code = code
        self.minutes = max(1, round(expires_s / 60))

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label("Play this identity on another device:")
            yield Label(Text(self.code, style="bold"), id="handoff-code")
            yield Static(  # a Static wraps at the dialog's width (a Label would be cut)
                "There, press i in the lobby and type it (in a browser: below the "
                f"terminal). It works once, for {self.minutes} minutes, and that device "
                "gets a token of its own: d in the lobby lists them. Esc closes."
            )

    def action_close(self) -> None:
        self.dismiss(None)


# What becomes of the identity played now, where the client runs (ClientApp.where).
CLAIM_NOTES = {
    "online": (
        "Yours stays on the server: `modernart identities` lists both, and "
        "`--name` picks one when you connect."
    ),
    # A session on the server: over SSH, or in a browser's page (the same client).
    "ssh": (
        "Your SSH key then leads there each time; the "
        "identity you play now stays on the server, but nothing leads to it any more."
    ),
    "browser": (
        "This browser then leads there each time; the "
        "identity you play now stays on the server, but nothing leads to it any more."
    ),
}
CODE_LETTERS = 8  # a code's letters and digits, dashes and spaces aside (server/people/handoff.py)


def code_letters(code: str) -> str:
    """A code as typed, without its dashes and spaces ("abcd-efgh" → "abcdefgh")."""
    return "".join(ch for ch in code if ch not in "- ")


class ClaimDialog(Dialog[None]):
    """ "Play an identity from another device": the code that device's `k` shows. The
    app sends `claim`; a refusal stays in this dialog (`show_error`), a `claimed`
    closes it and the client goes on as that identity (ClientApp._on_claimed)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, player: str, note: str = "") -> None:
        super().__init__()
        self.player = player
        self.note = note

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text("Play an identity from another device", style="bold"))
            yield Static(
                "On the other device, press k in the lobby; type the code it shows "
                "(ABCD-EFGH), then Enter:"
            )
            yield OrderedInput(id="claim-code", max_length=20, placeholder="ABCD-EFGH")
            yield Static(id="claim-error")
            yield Static(
                Text(
                    f"You then play that identity (its name, its seats) instead of "
                    f"{self.player}. {self.note}".rstrip(),
                    style="dim",
                )
            )
            yield Static(Text("Escape: cancel", style="dim"))

    def on_mount(self) -> None:
        self.query_one(Input).cursor_blink = False

    def on_input_submitted(self, event: Input.Submitted) -> None:
        code = event.value.strip()
        if len(code_letters(code)) != CODE_LETTERS:
            self.show_error("A code has 8 letters and digits, such as ABCD-EFGH.")
            return
        self.show_error("")
        self.query_one("#claim-error", Static).update(Text("Asking the server…", style="dim"))
        self.post_message(SendToServer({"t": "claim", "code": code}))

    def show_error(self, message: str) -> None:
        self.query_one("#claim-error", Static).update(Text(message, style="bold red"))

    def action_cancel(self) -> None:
        self.dismiss(None)


class NameDialog(LineDialog):
    """Your player name, changed in the lobby (a seat keeps the name it was taken with)."""

    def __init__(self, current: str, prompt: str = "") -> None:
        super().__init__()
        self.current = current
        self.prompt = prompt or "Your name (1–24 characters), Enter to keep it:"

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.prompt, markup=False)  # wrapped: it may say why a name was refused
            yield OrderedInput(self.current, id="player-name", max_length=24)
