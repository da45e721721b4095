"""What the client does with the server's answers about players (issue 18), mixed into
`ClientApp`: the lobby's windows (`who`, `leaderboard`, `games`), records fetched for the
replay viewer or for saving (`record`), a rematch's answers, and a name that is taken."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import platformdirs
from textual.app import App

from modernart.engine import dump_record
from modernart.engine.records import Record, RecordError, parse_record

from .lobby import NameDialog
from .people import PeopleScreen
from .recordhint import RecordCommand, record_hint
from .replay import Replay, replay_table
from .reviewing import review_summary
from .reviewmarks import ReviewMismatch


def home_path(path: Path) -> str:
    """`path` whole, the home directory as `~` ("~/.local/share/modernart/records/x.json"):
    a player copies it from the log, so no folder is left out (the log wraps it)."""
    try:
        return "~/" + path.relative_to(Path.home()).as_posix()
    except ValueError:
        return path.as_posix()


# How the server's refusals of a `hello`'s name begin (server/people/players.py `check`,
# server/rooms/fields.py `get_name`): "`name`: a name may not …", "`name` may not be blank".
NAME_REFUSAL = "`name`"


class PlayerReplies(App[None]):
    """The app's part about players; `ClientApp` provides what is declared here."""

    # Provided by ClientApp.
    connection: Any
    lobby: Any
    table: Any
    local: Any
    room: str | None
    room_game: str
    player_name: str
    records_dir: Path | None
    # False in an SSH or browser session: the client runs on the server, not the player's
    # machine; `records_hint` then says how the door gives a record (ROOM: its room).
    own_machine: bool = True
    records_hint: str | None = None
    _saving: str | None = None  # the room whose record was asked for to be saved
    review_of: dict[str, dict[str, Any]]  # reviews received, by room (tui/reviewing.py)
    _asking_name = False

    def send(self, msg: dict[str, Any]) -> int | None:
        raise NotImplementedError

    def _tell(self, text: str) -> None:
        raise NotImplementedError

    # ----------------------------------------------------------- the lobby's windows

    def _to_window(self, msg: dict[str, Any]) -> None:
        for screen in reversed(self.screen_stack):
            if isinstance(screen, PeopleScreen) and msg.get("t") == screen.ANSWER:
                screen.show(msg)
                return

    _on_who = _on_leaderboard = _on_games = _on_devices = _to_window

    # ------------------------------------------------------------------ records

    def save_record(self) -> None:
        """Save the finished game's record (RECORD.md): a game of this process's own
        server from its store; any other from the server (`record`, once it is over).
        A client that runs on the server (SSH, browser) says how its door gives the
        record instead (`records_hint`: scp, or the page's download link)."""
        if self.local is not None and self.room:
            record = self.local.record(self.room)
            if record is not None:
                self._write_record(record)
                return
        if self.room is None:
            return
        self._saving = self.room
        self.send({"t": "record", "room": self.room})

    def _write_record(self, record: Record) -> None:
        folder = self.records_dir or Path(platformdirs.user_data_dir("modernart")) / "records"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{record.game}-{self.room}-{time.strftime('%Y%m%d-%H%M%S')}.json"
        path.write_text(dump_record(record), encoding="utf-8")
        self._tell(f"Record saved: {home_path(path)}")

    def _on_record(self, msg: dict[str, Any]) -> None:
        try:
            record = parse_record(msg.get("record"))
        except RecordError as exc:
            self._tell(f"The server sent a record this client cannot read: {exc}")
            return
        saving = self._saving is not None and msg.get("room") == self._saving
        self._saving = None
        if saving and self.own_machine:
            self._write_record(record)
            return
        if saving:  # the client runs on the server: the door says how (issue 28)
            hint = self.records_hint or "ask the server's operator for it."
            sentence, command = record_hint(hint, str(msg.get("room")))
            self._tell(sentence)
            if command is not None:
                self._tell(command)
                self.push_screen(RecordCommand(sentence, command))
            return
        review = self.review_of.get(str(msg.get("room")))
        try:
            replay = Replay(record, review)
        except ReviewMismatch as exc:  # a server's review of another game: the game alone
            self._tell(f"The server's review does not fit this game: {exc}")
            review, replay = None, Replay(record)
        self.push_screen(replay_table(replay))
        if review is not None:
            self._tell(review_summary(review))

    def record_refused(self, msg: dict[str, Any]) -> bool:
        """A `record` request refused: no save pending any more."""
        if self._saving is not None and msg.get("code") in ("not_allowed", "no_such_room"):
            self._saving = None
        return False

    # ------------------------------------------------------------------ rematch

    def _on_rematch(self, msg: dict[str, Any]) -> None:
        if self.table is None or msg.get("room") != self.room:
            return
        self.table.show_rematch(msg)

    # ------------------------------------------------------------------- names

    def name_refused(self, msg: dict[str, Any]) -> bool:
        """An error before `welcome`: if it refuses our name (another player's, or not a
        name the server takes, e.g. one ending like a bot's mark), hold the connection
        (no hello with that name again) and ask for another; True if it did."""
        code, text = msg.get("code"), str(msg.get("message") or "")
        if code == "name_taken":
            why, offer = f"{self.player_name} is another player's name here.", msg.get("suggestion")
        elif code == "bad_message" and text.startswith(NAME_REFUSAL):
            reason = text[len(NAME_REFUSAL) :].lstrip(": ").rstrip(".")
            why = f"{self.player_name!r} cannot be a name here: {reason}."
            offer = self.player_name  # to be corrected
        else:
            return False
        if self.connection is not None:
            self.connection.hold()
        if not self._asking_name:
            self.ask_name(why, str(offer or self.player_name))
        return True

    def ask_name(self, why: str, offer: str) -> None:
        self._asking_name = True

        def chosen(name: str | None) -> None:
            self._asking_name = False
            name = (name or "").strip() or offer
            if self.connection is not None and self.connection.held:
                self.player_name = name
                if self.lobby is not None:
                    self.lobby.set_player(name)
                self.connection.resume(name)
            elif name != self.player_name:
                self.send({"t": "rename", "name": name})

        prompt = f"{why} Your name (1–24 characters), Enter to play under it:"
        self.push_screen(NameDialog(offer, prompt=prompt), chosen)

    def welcomed_as(self, name: Any) -> None:
        """The server holds another name for us than we asked (ours was taken)."""
        if not isinstance(name, str) or name == self.player_name:
            return
        asked, self.player_name = self.player_name, name
        if self.connection is not None:
            self.connection.name = name
        if self.lobby is not None:
            self.lobby.set_player(name)
            self.ask_name(f"{asked} is another player's name: you are {name} here.", name)
