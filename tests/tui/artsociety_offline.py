"""An offline Art Society table for snapshots and key-driven games: the real app and the
real engine, the other seats played by the engine's heuristic bot.

`ArtSocietyOffline` is `ModernArtApp` with the network replaced by an
`ArtSociety` game: what the player sends is applied for their seat, then the
bots move until the game waits for the player again, and the view goes through
the app's own update routing. Deterministic for a given seed.
"""

from __future__ import annotations

from typing import Any

from modernart.engine.artsociety.bots import HeuristicBot
from modernart.engine.artsociety.state import ArtSociety
from modernart.engine.errors import RuleError
from modernart.tui.app import ModernArtApp
from modernart.tui.artsociety import ArtSocietyTable

NAMES = ["Ann", "Bob", "Cy", "Dee"]


def server_view(game: ArtSociety, seat: int | None, room: str = "r1") -> dict[str, Any]:
    """The engine's view plus the room facts the server adds (PROTOCOL.md)."""
    view = game.view(seat)
    view["room"] = room
    view["status"] = "finished" if game.finished else "playing"
    view["deadline_ms"] = None
    for info in view["seats"]:
        info["connected"] = True
        info["bot"] = info["name"] != "Ann"
    return view


class ArtSocietyOffline(ModernArtApp):
    def __init__(self, game: ArtSociety, seat: int | None = 0, bots: bool = True) -> None:
        super().__init__(url="ws://offline/", name="Ann")
        self.game = self.room_game = "artsociety"  # the room's game (F1, the table)
        self.engine = game
        self.me = seat
        self.bots = {s: HeuristicBot(s) for s in range(game.n) if s != seat} if bots else {}
        self.seq = 0
        self.sent: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []  # every event so far

    async def begin(self) -> None:
        self.table = ArtSocietyTable("r1", self.me, player="Ann")
        await self.push_screen(self.table)
        self.push_view(self.play_bots())

    def push_view(self, events: list[dict[str, Any]]) -> None:
        self.seq += 1
        self.events += events
        view = server_view(self.engine, self.me)
        self._on_update({"t": "update", "seq": self.seq, "events": events, "view": view})

    def send(self, msg: dict[str, Any]) -> int | None:
        self.sent.append(msg)
        return len(self.sent)

    def act(self, action: dict[str, Any]) -> None:
        self.sent.append({"t": "act", "action": action})
        try:
            events = self.engine.apply({**action, "seat": self.me})
        except RuleError as exc:
            self._on_error({"t": "error", "code": exc.code, "message": str(exc)})
            return
        self.push_view(events + self.play_bots())

    def play_bots(self) -> list[dict[str, Any]]:
        """The bots' moves until the game waits for the player alone (or is over)."""
        events: list[dict[str, Any]] = []
        while not self.engine.finished:
            others = [s for s in self.engine.to_act() if s in self.bots]
            if not others:
                break
            seat = others[0]
            action = self.bots[seat].choose(self.engine.view(seat))
            events += self.engine.apply({**action, "seat": seat})
        return events

    def others(self, *actions: dict[str, Any]) -> None:
        """Apply other seats' actions (given by a test) and show them in one update."""
        events: list[dict[str, Any]] = []
        for action in actions:
            events += self.engine.apply(action)
        self.push_view(events)
