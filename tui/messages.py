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
