"""`modernart` with no arguments: a server in this process, one room, filled with bots."""

from __future__ import annotations

import json
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import platformdirs
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from modernart.engine import Record
from modernart.engine.games import get_game
from modernart.server.store.export import record_of_room
from modernart.server.store.sqlite import DB_NAME

from .dialog import Dialog

KEPT = "game.json"  # beside the kept store: who the player is, and at which table


def kept_dir() -> Path:
    """Where a local game kept on quitting waits for `modernart --resume`."""
    return Path(platformdirs.user_data_dir("modernart")) / "kept-game"


@dataclass
class LocalGame:
    """What to create once connected, and the in-process server that hosts it."""

    players: int = 4
    variant: str | None = None  # a preset of the game (None: the game's default)
    bot_level: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    dev: bool = False  # tests fix the deal with options.deck (server --dev only)
    data_dir: Path | None = None
    game: str = "modernart"  # a registered game name (engine/games.py)
    token: str | None = None  # resuming a kept game: the player's identity there
    keep_dir: Path | None = None  # where to keep it (None: `kept_dir()`)

    def __post_init__(self) -> None:
        self._server: Any = None
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        self._forget = False

    async def start(self) -> str:
        """Start the server on a free loopback port; its URL."""
        from modernart.server.limits import Limits
        from modernart.server.wire.app import Server

        if self.data_dir is None:
            # A game against bots is not worth keeping: a fresh data directory each time.
            self._tmp = tempfile.TemporaryDirectory(prefix="modernart-local-")
            self.data_dir = Path(self._tmp.name)
        # The player's own server: its bots may be as quick as the player asks (--bot-delay).
        limits = Limits().replace(min_bot_delay_ms=0)
        self._server = Server(self.data_dir, host="127.0.0.1", port=0, dev=self.dev, limits=limits)
        await self._server.start()
        return f"ws://127.0.0.1:{self._server.port}/"

    async def stop(self) -> None:
        if self._server is not None:
            await self._server.stop()
            self._server = None
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None
        if self._forget and self.data_dir is not None:
            shutil.rmtree(self.data_dir, ignore_errors=True)

    @property
    def resuming(self) -> bool:
        return self.token is not None

    def keep(self, name: str, token: str, room: str) -> Path:
        """Keep the game on quitting: a copy of the store (the record is the truth) and
        who the player is; `resumed()` reads it back."""
        folder = self.keep_dir or kept_dir()
        folder.mkdir(parents=True, exist_ok=True)
        if self._server is not None and self.data_dir != folder:
            self._server.store.backup(folder / DB_NAME)
        about = {"name": name, "token": token, "room": room, "game": self.game}
        (folder / KEPT).write_text(json.dumps(about), encoding="utf-8")
        (folder / KEPT).chmod(0o600)  # the token is a secret
        return folder

    def forget_kept(self) -> None:
        """A resumed game quit without keeping it: gone for good once the server stops."""
        self._forget = self.resuming

    @classmethod
    def resumed(cls, folder: Path | None = None) -> tuple[LocalGame, str] | None:
        """The kept game (and the player's name), or None if there is none."""
        folder = folder or kept_dir()
        try:
            about = json.loads((folder / KEPT).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        local = cls(data_dir=folder, game=about["game"], token=about["token"], keep_dir=folder)
        return local, about["name"]

    def record(self, room: str) -> Record | None:
        """The record of a game in this process's own server, read from its store."""
        if self._server is None:
            return None
        return record_of_room(self._server.store, room)

    def create_message(self) -> dict[str, Any]:
        variant = self.variant or get_game(self.game).default_preset
        title = get_game(self.game).title
        msg: dict[str, Any] = {
            "t": "create",
            "seats": self.players,
            "variant": variant,
            # Named for the game, not "You's table" from the default name.
            "name": f"{title} against bots",
        }
        if self.game != "modernart":
            msg["game"] = self.game
        # Nobody waits on the player in a game against bots: no turn timeout.
        msg["options"] = {"turn_timeout_s": 0, **self.options}
        return msg

    def bot_message(self) -> dict[str, Any]:
        return {"t": "add_bot", "level": self.bot_level} if self.bot_level else {"t": "add_bot"}


class KeepGame(Dialog[str | None]):
    """Ctrl+Q in a game against bots: keep it for `modernart --resume` (`y`, as every
    question's yes; `k` too), end it (`e`), or go on (`n` or Escape, as every no)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,k", "answer('keep')", "Keep it"),
        Binding("e", "answer('end')", "End it"),
        Binding("escape,n", "answer(None)", "Back to the game"),
    ]

    def __init__(self, title: str) -> None:
        super().__init__()
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="confirm"):
            yield Static(Text(f"Quit {self.title_text}?", style="bold yellow"), classes="title")
            yield Static(
                "Keep this game against bots to come back to it with `modernart --resume`?"
            )
            yield Static(
                Text("y: keep it and quit   e: end it and quit   n or Escape: play on", style="dim")
            )

    def action_answer(self, choice: str | None) -> None:
        self.dismiss(choice)
