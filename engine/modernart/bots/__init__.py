"""Modern Art's bots: functions from a player's view to an action. They never see
hidden state. Levels, weakest first: random (tests), easy, normal, hard, expert;
`heuristic` is another name for `hard`. docs/bots.md describes each."""

from __future__ import annotations

from typing import Any, Protocol


class Bot(Protocol):
    level: str

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        """An action (without `seat`) for the view's player, or None if none is due."""


from ...bots import bot_levels  # noqa: E402
from .expert import ExpertBot  # noqa: E402
from .heuristic import HeuristicBot  # noqa: E402
from .levels import EasyBot, NormalBot  # noqa: E402
from .random_bot import RandomBot  # noqa: E402

BOTS = bot_levels(
    random=RandomBot, easy=EasyBot, normal=NormalBot, hard=HeuristicBot, expert=ExpertBot
)
BOT_LEVELS: tuple[str, ...] = tuple(BOTS)
DEFAULT_LEVEL = "hard"

# One line per level, for the lobby, `add_bot` and `modernart --bot-level`.
BOT_HELP: dict[str, str] = {
    "random": "Picks any legal move at random (for tests).",
    "easy": "Misjudges values and overpays; plays its favourite artist.",
    "normal": "Values paintings well but plays its hand naively.",
    "hard": "A sharp heuristic: projects the round, prices to earn from rivals.",
    "expert": "Searches: samples the hidden hands and plays ahead (8 worlds a move).",
    "heuristic": "Another name for hard.",
}


def make_bot(level: str = DEFAULT_LEVEL, seed: int | None = None) -> Bot:
    """A bot of the named level; KeyError for an unknown level."""
    return BOTS[level](seed)
