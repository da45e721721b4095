"""A room's public event history, for the `history` request (docs/protocol.md addition).

Only events every member of the room was sent go in, so the history holds
nothing a member could not have seen live: no hand, no money before the end,
no sealed bid before the reveal, no deck. The hammer's `going` ticks are left
out (they say nothing once the lot is sold).
"""

from __future__ import annotations

from typing import Any

from modernart.engine import Game, record_of

SKIPPED = frozenset({"going"})


class History:
    """(seq, event) pairs in the order they were broadcast."""

    def __init__(self) -> None:
        self.entries: list[tuple[int, dict[str, Any]]] = []

    def add(self, seq: int, events: list[dict[str, Any]]) -> None:
        self.entries.extend((seq, e) for e in events if e.get("type") not in SKIPPED)

    def since(self, seq: int) -> list[dict[str, Any]]:
        """The events of the updates numbered after `seq`, oldest first."""
        return [e for s, e in self.entries if s > seq]

    @classmethod
    def replayed(cls, game: Game) -> History:
        """After a server restart: the game's events rebuilt from its actions. The
        numbers of the original updates are not stored, so they are all numbered 0:
        a full history (no `since`) holds them, a reconnecting client's does not."""
        history = cls()
        fresh = record_of(game).new_game()
        for action in game.actions:
            history.add(0, fresh.apply(action))
        return history
