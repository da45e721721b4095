"""The shape every bot shares (engine/games.py `Bot`): a seeded random source, and a
`choose` that has nothing to do when the view's `legal` is empty."""

from __future__ import annotations

import random
from typing import Any

Action = dict[str, Any]


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
