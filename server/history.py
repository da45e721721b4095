"""A room's public event history, for the `history` request (docs/protocol.md addition).

Only events every member of the room was sent go in, so the history holds
nothing a member could not have seen live: no hand, no money before the end,
no sealed bid before the reveal, no deck. The hammer's `going` ticks are left
out (they say nothing once the lot is sold).
"""

from __future__ import annotations

from typing import Any

from modernart.engine import Record, record_of
from modernart.engine.games import GameState

SKIPPED = frozenset({"going"})


class History:
    """(seq, event) pairs in the order they were broadcast."""

    def __init__(self) -> None:
        self._entries: list[tuple[int, dict[str, Any]]] = []
        self._restored: Record | None = None  # a restored game whose events are not built yet

    def add(self, seq: int, events: list[dict[str, Any]]) -> None:
        self._build()
        self._entries.extend((seq, e) for e in events if e.get("type") not in SKIPPED)

    def since(self, seq: int) -> list[dict[str, Any]]:
        """The events of the updates numbered after `seq`, oldest first."""
        self._build()
        return [e for s, e in self._entries if s > seq]

    @classmethod
    def replayed(cls, game: GameState) -> History:
        """After a server restart: the game's events, rebuilt from its actions when first
        needed (a restart restores every room; few are asked for their history). The
        numbers of the original updates are not stored, so they are all numbered 0:
        a full history (no `since`) holds them, a reconnecting client's does not."""
        history = cls()
        history._restored = record_of(game)
        return history

    def _build(self) -> None:
        record, self._restored = self._restored, None
        if record is None:
            return
        game = record.new_game()
        rebuilt: list[tuple[int, dict[str, Any]]] = []
        for action in record.actions:
            rebuilt.extend((0, e) for e in game.apply(action) if e.get("type") not in SKIPPED)
        self._entries[:0] = rebuilt
