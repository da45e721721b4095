"""The Textual app: routes server messages to the lobby or the game's table; sends what the
screens ask for (they post `tui/messages.py` messages; no screen imports the app)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from textual import work
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.worker import Worker

from .away import while_away
from .browser import seat_kept, unlist_quit
from .claiming import ClaimReplies
from .confirm import Confirm
from .connection import Connection
from .games import client_game, lobby_help, playable
from .gametable import GameTable
from .help import HelpScreen
from .lobby import LobbyScreen
from .local import KeepGame, LocalGame
from .messages import (
    Alert,
    ConnectionChanged,
    GameChosen,
    LeaveRoom,
    PlayerAct,
    SaveRecord,
    SendToServer,
    ServerMessage,
)
from .playerlink import PlayerReplies
from .reviewing import ReviewReplies, ReviewRequests
from .tokens import TokenStore


class ClientApp(ClaimReplies, PlayerReplies, ReviewReplies):
    """A client of one server: its lobby (connect mode) or straight to a table (local mode)."""

    CSS_PATH = Path(__file__).parent / "app.tcss"
    TITLE = "Modern Art"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", "Help"),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    def __init__(
        self,
        url: str | None = None,
        name: str = "You",
        *,
        tokens: TokenStore | None = None,
        local: LocalGame | None = None,
        records_dir: Path | None = None,
        bell: bool = False,
        own_machine: bool = True,
        records_hint: str | None = None,
        watch: str | None = None,
        in_browser: bool = False,
    ) -> None:
        super().__init__()
        self.in_browser = in_browser  # the browser door's page (tui/browser.py)
        if in_browser:
            unlist_quit(self._bindings)
        self.theme = "ansi-dark"
        self.url = url
        self.player_name = name
        self.tokens = tokens
        self.local = local
        self.records_dir = records_dir
        self.own_machine = own_machine  # False: an SSH or browser session (tui/playerlink.py)
        self.records_hint = records_hint
        self.connection: Connection | None = None
        # Where the server's messages (and the connection's changes) go; None: to this
        # app at once. A terminal worker orders its sessions' news
        # (server/doors/terminal/priority.py).
        self.news: Callable[[Message], object] | None = None
        self.network: Worker[None] | None = None
        self.lobby: LobbyScreen | None = None
        self.table: GameTable | None = None
        # The game of the room being joined, watched or created (the lobby says; a room
        # summary corrects it), which picks the table screen.
        self.room_game = local.game if local is not None else client_game(None).name
        self.room: str | None = None
        self.seat: int | None = None
        # The room this client watches, or watched when its connection (or its SSH
        # session) ended: watched again once a new connection is back in the lobby.
        self.watching: str | None = watch
        self.rewatch = watch is not None
        self.you: str | None = None
        self._local_created = False
        self._local_started = False
        self.last_seq: int | None = None
        self.bell_on_turn = bell  # ring the terminal bell when your turn comes
        self.history_pending = False  # a `history` answer will bring the log up to date
        self._history_id: int | None = None
        self._claim_id: int | None = (
            None  # the `claim` sent from the lobby's dialog (tui/claiming.py)
        )
        self.reviews = ReviewRequests()  # reviews asked for (tui/reviewing.py)
        self.review_of: dict[str, dict[str, Any]] = {}

    # ----------------------------------------------------------- lifecycle

    async def on_mount(self) -> None:
        await self.begin()

    async def begin(self) -> None:
        """Start the local server if any, show the first screen, connect."""
        if self.local is not None:
            self.url = await self.local.start()
            self.table = self.new_table()
            await self.push_screen(self.table)
        else:
            self.lobby = LobbyScreen(self.player_name)
            await self.push_screen(self.lobby)
        assert self.url is not None
        # One identity per server and name: two players on one account stay two players.
        token = self.tokens.get(self.url, self.player_name) if self.tokens else None
        if self.local is not None and self.local.resuming:  # a kept game: its seat again
            token = self.local.token
            self._local_created = self._local_started = True
        self.connection = Connection(self, self.url, self.player_name, token, self.news)
        self.network = self.run_connection()  # the worker that reads and reconnects

    @work(exclusive=True, group="network", exit_on_error=False)
    async def run_connection(self) -> None:
        assert self.connection is not None
        await self.connection.run()

    async def on_unmount(self) -> None:
        if self.connection is not None:
            await self.connection.stop()
        if self.local is not None:
            await self.local.stop()

    def new_table(self, room: str | None = None, seat: int | None = None) -> GameTable:
        """The table screen of `self.room_game`."""
        table = client_game(self.room_game).table()
        return table(room, seat, player=self.player_name, local=self.local is not None)

    # -------------------------------------------------------------- sending

    def send(self, msg: dict[str, Any]) -> int | None:
        msg_id = self.connection.send(msg) if self.connection else None
        if msg_id is None:
            self.notify("Not connected: try again in a moment.", severity="warning")
        return msg_id

    def act(self, action: dict[str, Any]) -> None:
        self.send({"t": "act", "action": action})

    # What the screens ask for (tui/messages.py).

    def on_send_to_server(self, message: SendToServer) -> None:
        msg_id = self.send(message.msg)
        if message.msg.get("t") == "claim":
            self.claim_sent(msg_id)

    def on_player_act(self, message: PlayerAct) -> None:
        self.act(message.action)

    def on_leave_room(self, message: LeaveRoom) -> None:
        self.leave_room()

    def on_save_record(self, message: SaveRecord) -> None:
        self.save_record()

    def on_alert(self, message: Alert) -> None:
        if message.reason == "turn":
            self.your_turn()
        else:
            self.ring()

    def on_game_chosen(self, message: GameChosen) -> None:
        self.room_game = message.game

    def leave_room(self) -> None:
        self.watching = None
        self.send({"t": "leave"})
        if self.local is not None:
            self.exit()
            return
        self._back_to_lobby()

    def your_turn(self) -> None:
        """Your decision has just come: the bell, if the player asked for it."""
        if self.bell_on_turn:
            self.bell()

    def ring(self) -> None:
        """The turn clock is about to run out."""
        if self.bell_on_turn:
            self.bell()

    async def action_quit(self) -> None:
        """Ctrl+Q: quitting a running game asks first."""
        if self.table is None or not self.table.game_running or isinstance(self.screen, Confirm):
            await self.quit_on_purpose()
            return
        if self.local is not None:
            if not isinstance(self.screen, KeepGame):
                self.push_screen(KeepGame(client_game(self.room_game).title), self._keep_or_end)
            return

        async def answer(yes: bool | None) -> None:
            if yes:
                await self.quit_on_purpose()

        away = while_away(self.table.view, self.table.room_info)
        detail = f"{seat_kept(self.where)} {away}"
        title = client_game(self.room_game).title
        self.push_screen(Confirm(f"Quit {title}?", detail), answer)

    async def quit_on_purpose(self) -> None:
        """Say `bye` first: the others read that you left, not that the line dropped."""
        if self.connection is not None:
            await self.connection.stop(bye=True)
        self.exit()

    def _keep_or_end(self, choice: str | None) -> None:
        local = self.local
        assert local is not None
        if choice == "keep" and self.connection is not None and self.connection.token and self.room:
            local.keep(self.player_name, self.connection.token, self.room)
            self.exit(message="Kept: `modernart --resume` goes back to this game.")
        elif choice in ("keep", "end"):
            local.forget_kept()
            self.exit()

    def _tell(self, text: str) -> None:
        """A message for the player: in the event log at the table (a toast would hide it)."""
        if self.table is not None:
            self.table.note(text, "bold")
        else:
            self.notify(text, markup=False)

    # ------------------------------------------------------------ receiving

    def on_connection_changed(self, message: ConnectionChanged) -> None:
        if message.state != "connected":
            self.reviews.lost()
        for screen in (self.lobby, self.table):
            if screen is not None and screen.is_attached:
                screen.set_connection(message.state, message.detail)

    def on_server_message(self, message: ServerMessage) -> None:
        if self._exit:
            return  # quitting: the screens are being taken down
        msg = message.msg
        handler = getattr(self, f"_on_{msg.get('t')}", None)
        if handler is not None:
            handler(msg)

    def _on_welcome(self, msg: dict[str, Any]) -> None:
        self.you = msg.get("you")
        self.welcomed_as(msg.get("name"))
        if self.tokens is not None and self.url and isinstance(msg.get("token"), str):
            self.tokens.put(self.url, self.player_name, msg["token"])
        if self.local is not None and not self._local_created:
            self._local_created = True
            self.send(self.local.create_message())
        elif self.local is None and self.table is None:
            self.send({"t": "rooms"})
        # The room this identity watched last, as the server remembers it (a client
        # started again while watching, a page reloaded): watched again from the lobby.
        if self.watching is None and self.local is None and isinstance(msg.get("watching"), str):
            self.watching = msg["watching"]
        self.rewatch = self.watching is not None

    def _on_renamed(self, msg: dict[str, Any]) -> None:
        name = msg.get("name")
        if not isinstance(name, str):
            return
        if self.tokens is not None and self.url:
            self.tokens.rename(self.url, self.player_name, name)
        self.player_name = name
        if self.connection is not None:
            self.connection.name = name  # reconnections say hello with the new name
        if self.lobby is not None:
            self.lobby.set_player(name)

    def _on_joined(self, msg: dict[str, Any]) -> None:
        self.rewatch = False
        self.watching = msg.get("room") if msg.get("seat") is None else None
        same_room = self.table is not None and self.room == msg.get("room")
        self.room, self.seat = msg.get("room"), msg.get("seat")
        if isinstance(msg.get("game"), str) and playable(msg["game"]):
            self.room_game = msg["game"]
        if self.table is None:
            self.table = self.new_table(self.room, self.seat)
            self.push_screen(self.table)
        else:
            self.table.join(self.room, self.seat)
        self.table.earlier_chat = [] if same_room else list(msg.get("chat") or [])
        # The room's public history: all of it for a fresh table, only what was
        # missed for a table that was here before the connection dropped.
        history: dict[str, Any] = {"t": "history"}
        if same_room and self.last_seq is not None:
            history["since"] = self.last_seq
        else:
            self.last_seq = None
        self._history_id = self.send(history)
        self.history_pending = self._history_id is not None
        if self.local is not None and self.seat == 0 and not self._local_started:
            self._local_started = True
            for _ in range(self.local.players - 1):
                self.send(self.local.bot_message())
            self.send({"t": "start"})

    def _on_room(self, msg: dict[str, Any]) -> None:
        if self.table is None or not isinstance(msg.get("room"), dict):
            return
        game = msg["room"].get("game")
        if isinstance(game, str) and game != self.room_game and playable(game):
            self._switch_table(game)
        self.table.show_room(msg["room"], msg.get("you"))

    def _switch_table(self, game: str) -> None:
        """The room plays another game than the table shown (joined without the lobby
        knowing, e.g. after a reconnection): that game's table replaces it."""
        self.room_game = game
        old = self.table
        self.table = self.new_table(self.room, self.seat)
        if old is not None and self.screen is old:
            self.switch_screen(self.table)
        else:
            self.push_screen(self.table)

    def _on_left(self, msg: dict[str, Any]) -> None:
        if msg.get("room") == self.watching:
            self.watching = None
        if self.table is not None and msg.get("room") == self.room:
            if self.local is not None:
                self.exit()
            else:
                self._back_to_lobby(request_rooms=False)

    def _on_rooms(self, msg: dict[str, Any]) -> None:
        if self.rewatch:  # back in the lobby after a reconnection: watch that room again
            self.rewatch = False
            rooms = msg.get("rooms") if isinstance(msg.get("rooms"), list) else []
            if any(isinstance(r, dict) and r.get("id") == self.watching for r in rooms):
                self.send({"t": "watch", "room": self.watching})
                return
            self.watching = None
        if self.lobby is not None and isinstance(msg.get("rooms"), list):
            self.lobby.show_rooms(msg["rooms"])

    def _on_update(self, msg: dict[str, Any]) -> None:
        view = msg.get("view")
        if self.table is None or not isinstance(view, dict):
            return
        self.last_seq = msg.get("seq")
        self.table.show(view, list(msg.get("events") or []), logged=not self.history_pending)

    def _on_history(self, msg: dict[str, Any]) -> None:
        """The events of every update up to `seq` (docs/protocol.md addition): updates
        that came before this answer were left out of the log, as they are in it."""
        self.history_pending = False
        if self.table is not None and msg.get("room") == self.room:
            self.table.add_history(list(msg.get("events") or []))
            upto = msg.get("upto")
            if msg.get("more") is True and isinstance(upto, int):  # paged (issue 21)
                self._history_id = self.send({"t": "history", "since": upto})
                self.history_pending = self._history_id is not None
            else:
                self.table.history_done()

    def _on_chat(self, msg: dict[str, Any]) -> None:
        if self.table is not None:
            watching = "seat" in msg and msg["seat"] is None
            self.table.add_chat(str(msg.get("from", "?")), str(msg.get("text", "")), watching)

    def _on_error(self, msg: dict[str, Any]) -> None:
        if self.history_pending and msg.get("re") == self._history_id:
            self.history_pending = False  # a server without `history`: live events only
            if self.table is not None:
                self.table.history_done()
            return
        if self.you is None and self.name_refused(msg):
            return
        if self.claim_refused(msg) or self.reviews.answer(msg):
            return
        self.record_refused(msg)
        text = str(msg.get("message") or msg.get("code") or "error")
        if self.table is not None:
            self.table.show_error(text)
        elif self.lobby is not None:
            self.lobby.show_error(text)
        else:
            self.notify(text, severity="error", markup=False)  # may quote what was typed

    # ------------------------------------------------------------- screens

    def _back_to_lobby(self, request_rooms: bool = True) -> None:
        self.last_seq = None
        self.history_pending = False
        if self.table is not None:
            while self.screen is not self.lobby and len(self.screen_stack) > 2:
                self.pop_screen()
            self.table = None
        if self.room is not None and self.lobby is not None:
            self.lobby.came_back(self.room)
        self.room = self.seat = None
        if request_rooms:
            self.send({"t": "rooms"})

    @property
    def where(self) -> str:
        """Where this client runs, for the options F1 offers: `local` (against bots),
        `online` (`modernart connect`, with its kept identities), `ssh` or `browser`."""
        if self.local is not None:
            return "local"
        if self.in_browser:
            return "browser"
        return "online" if isinstance(self.tokens, TokenStore) else "ssh"

    def action_help(self) -> None:
        """The help for where the player is (over the help, F1 is the help's own close)."""
        if isinstance(self.screen, HelpScreen):
            return
        if self.table is None:
            self.push_screen(HelpScreen(lobby_help(self.where)))
            return
        # The room's variant: a game's help may say its values.
        variant = self.table.view.get("variant") or self.table.room_info.get("variant")
        game = client_game(self.room_game)
        self.push_screen(HelpScreen(game.rules_text(variant, self.where)))
