"""The shape every bot shares (engine/games.py `Bot`): a seeded random source, and a
`choose` that has nothing to do when the view's `legal` is empty."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

Action = dict[str, Any]
Bots = Callable[[int | None], Any]  # a factory of a seed


class LegalBot:
    """A bot that decides from a view with something legal in it; subclasses write
    `decide` (and may still override `choose` to act before it)."""

    level = ""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any]) -> Action | None:
        """An action (without `seat`) for the view's player, or None if none is due."""
        legal = view["legal"]
        return self.decide(view, legal) if legal else None

    def decide(self, view: dict[str, Any], legal: dict[str, Any]) -> Action | None:
        raise NotImplementedError


def bot_levels(
    *, random: Bots, easy: Bots, normal: Bots, hard: Bots, expert: Bots
) -> dict[str, Bots]:
    """`GameInfo.bots`: a game's ladder of levels, weakest first, each a factory of a seed
    (docs/bots.md); `heuristic` is the old name of `hard`."""
    ladder = {"random": random, "easy": easy, "normal": normal, "hard": hard, "expert": expert}
    return {**ladder, "heuristic": hard}
