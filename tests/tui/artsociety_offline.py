"""An offline Art Society table for snapshots and key-driven games: the real app and the
real engine, the other seats played by the engine's heuristic bot.

`ArtSocietyOffline` is tui_offline's `OfflineApp` whose other seats are bots: what
the player sends is applied for their seat, then the bots move until the game
waits for the player again. Deterministic for a given seed.
"""

from __future__ import annotations

from typing import Any

from tui_offline import NAMES, OfflineApp

from modernart.engine.artsociety.bots import HeuristicBot
from modernart.engine.artsociety.state import ArtSociety

__all__ = ["NAMES", "ArtSocietyOffline"]


class ArtSocietyOffline(OfflineApp):
    def __init__(self, game: ArtSociety, seat: int | None = 0, bots: bool = True) -> None:
        super().__init__(game, seat)
        self.bots = {s: HeuristicBot(s) for s in range(game.n) if s != seat} if bots else {}

    def bot_moves(self) -> list[dict[str, Any]]:
        """The bots' moves until the game waits for the player alone (or is over)."""
        events: list[dict[str, Any]] = []
        while not self.game.finished:
            others = [s for s in self.game.to_act() if s in self.bots]
            if not others:
                break
            seat = others[0]
            action = self.bots[seat].choose(self.game.view(seat))
            events += self.game.apply({**action, "seat": seat})
        return events
