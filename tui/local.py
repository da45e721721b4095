"""`modernart` with no arguments: a server in this process, one room, filled with bots."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from modernart.engine import Record
from modernart.engine.games import get_game
from modernart.server.export import record_of_room


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

    def __post_init__(self) -> None:
        self._server: Any = None
        self._tmp: tempfile.TemporaryDirectory[str] | None = None

    async def start(self) -> str:
        """Start the server on a free loopback port; its URL."""
        from modernart.server.app import Server
        from modernart.server.limits import Limits

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
