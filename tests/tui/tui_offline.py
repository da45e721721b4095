"""An offline stand-in for the server, for snapshots: the real app fed by the real engine.

`OfflineApp` is `ModernArtApp` with the network replaced by a `Game`: what the
player does is applied to the engine for their seat, and every update goes
through the app's own message routing. Tests move the other seats explicitly,
so every screen state is exact and deterministic.
"""

from __future__ import annotations

from typing import Any

from modernart.engine import FULL_DECK, Game, RuleError
from modernart.tui.app import ModernArtApp
from modernart.tui.table import TableScreen

NAMES = ["Ann", "Bob", "Cy", "Dee"]


def fixed_deck(first: list[str] | None = None) -> list[str]:
    """The canonical deck, with `first` moved to the top in that order."""
    deck = list(FULL_DECK)
    for code in first or []:
        deck.remove(code)
    return list(first or []) + deck


def hand_deck(hands: list[list[str]], players: int = 4) -> list[str]:
    """A deck that deals exactly `hands` (seat by seat, round 1) and the rest in canonical order."""
    from modernart.engine.cards import DEAL

    k = DEAL[players][0]
    top: list[str] = []
    rest = list(FULL_DECK)
    for hand in hands:
        assert len(hand) <= k
        for code in hand:
            rest.remove(code)
    for hand in hands:
        filler = [c for c in rest if c.split(".")[1] != "double"][: k - len(hand)]
        for code in filler:
            rest.remove(code)
        top += hand + filler
    return top + rest


def server_view(game: Game, seat: int | None, room: str = "r1") -> dict[str, Any]:
    """The engine's view plus the room facts the server adds (PROTOCOL.md)."""
    view = game.view(seat)
    view["room"] = room
    view["status"] = "finished" if game.finished else "playing"
    view["deadline_ms"] = None
    for info in view["seats"]:
        info["connected"] = True
        info["bot"] = info["name"] not in ("Ann",)
    return view


class OfflineApp(ModernArtApp):
    def __init__(self, game: Game, seat: int | None = 0) -> None:
        super().__init__(url="ws://offline/", name="Ann")
        self.game = game
        self.me = seat
        self.seq = 0
        self.sent: list[dict[str, Any]] = []

    async def begin(self) -> None:
        self.table = TableScreen("r1", self.me)
        await self.push_screen(self.table)
        self.push_view([])

    def push_view(self, events: list[dict[str, Any]]) -> None:
        self.seq += 1
        view = server_view(self.game, self.me)
        self._on_update({"t": "update", "seq": self.seq, "events": events, "view": view})

    def send(self, msg: dict[str, Any]) -> int | None:
        self.sent.append(msg)
        return len(self.sent)

    def act(self, action: dict[str, Any]) -> None:
        self.sent.append({"t": "act", "action": action})
        try:
            events = self.game.apply({**action, "seat": self.me})
        except RuleError as exc:
            self._on_error({"t": "error", "code": exc.code, "message": str(exc)})
            return
        self.push_view(events)

    def others(self, *actions: dict[str, Any]) -> None:
        """Apply other seats' actions and show their events in one update."""
        events: list[dict[str, Any]] = []
        for action in actions:
            events += self.game.apply(action)
        self.push_view(events)
