"""Tiny Textual messages that carry the network's news into the app."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.message import Message


@dataclass
class ServerMessage(Message):
    """One decoded msgpack map from the server (PROTOCOL.md)."""

    msg: dict[str, Any]


@dataclass
class ConnectionChanged(Message):
    """The connection's visible state: connecting, connected, reconnecting or closed."""

    state: str
    detail: str = ""

    def can_replace(self, message: Message) -> bool:
        # Only the latest state matters when several queue up.
        return isinstance(message, ConnectionChanged)


# Screens ask the app through these messages (they bubble from a screen to the app), so
# that no screen imports the app: the app owns the connection, the local server and quitting.


@dataclass
class SendToServer(Message):
    """A message for the server (PROTOCOL.md), e.g. `{"t": "chat", "text": …}`."""

    msg: dict[str, Any]


@dataclass
class PlayerAct(Message):
    """A move for the game (`act.action`, without `seat`)."""

    action: dict[str, Any]


class LeaveRoom(Message):
    """The player leaves the room (a game against bots: the app quits)."""


class SaveRecord(Message):
    """Save the finished game's record (only a game hosted by this process has one)."""


@dataclass
class Alert(Message):
    """Something the player asked to hear about (`--bell`): `turn` came or the `clock` runs out."""

    reason: str


@dataclass
class GameChosen(Message):
    """The lobby knows which game the room it joins, watches or creates plays."""

    game: str
