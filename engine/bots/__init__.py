"""Bots: functions from a player's view to an action. They never see hidden state."""

from __future__ import annotations

from typing import Any, Protocol

from .random_bot import RandomBot


class Bot(Protocol):
    level: str

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        """An action (without `seat`) for the view's player, or None if none is due."""


BOTS: dict[str, type] = {"random": RandomBot}
BOT_LEVELS: tuple[str, ...] = tuple(BOTS)
DEFAULT_LEVEL = "random"


def make_bot(level: str = DEFAULT_LEVEL, seed: int | None = None) -> Bot:
    """A bot of the named level; KeyError for an unknown level."""
    return BOTS[level](seed)
