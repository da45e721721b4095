"""Bots: functions from a player's view to an action. They never see hidden state."""

from __future__ import annotations

from typing import Any, Protocol


class Bot(Protocol):
    level: str

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        """An action (without `seat`) for the view's player, or None if none is due."""


from .heuristic import HeuristicBot  # noqa: E402
from .random_bot import RandomBot  # noqa: E402

BOTS: dict[str, type] = {"random": RandomBot, "heuristic": HeuristicBot}
BOT_LEVELS: tuple[str, ...] = tuple(BOTS)
DEFAULT_LEVEL = "heuristic"


def make_bot(level: str = DEFAULT_LEVEL, seed: int | None = None) -> Bot:
    """A bot of the named level; KeyError for an unknown level."""
    return BOTS[level](seed)
