"""An offline stand-in for the server, for snapshots: the real app fed by the real engine.

`OfflineApp` is `ClientApp` with the network replaced by a `Game`: what the
player does is applied to the engine for their seat, and every update goes
through the app's own message routing. Tests move the other seats explicitly,
so every screen state is exact and deterministic.
"""

from __future__ import annotations

from typing import Any, ClassVar

from modernart.engine import RuleError
from modernart.engine.modernart import FULL_DECK, Game
from modernart.tui.app import ClientApp
from modernart.tui.lobby import LobbyScreen

NAMES = ["Ann", "Bob", "Cy", "Dee"]


def hand_deck(hands: list[list[str]], players: int = 4) -> list[str]:
    """A deck that deals exactly `hands` (seat by seat, round 1) and the rest in canonical order."""
    from modernart.engine.modernart.cards import DEAL

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


class OfflineApp(ClientApp):
    """`game`: any registered game's state (engine/games.py); its table is shown."""

    def __init__(self, game: Any, seat: int | None = 0) -> None:
        super().__init__(url="ws://offline/", name="Ann")
        self.room_game = getattr(game, "game_name", "modernart")
        self.game = game
        self.me = seat
        self.seq = 0
        self.sent: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []  # every event shown so far

    async def begin(self) -> None:
        self.table = self.new_table("r1", self.me)
        await self.push_screen(self.table)
        self.push_view(self.bot_moves())

    def bot_moves(self) -> list[dict[str, Any]]:
        """The other seats' moves after the player's: none here (tests move them)."""
        return []

    def push_view(self, events: list[dict[str, Any]], view: dict[str, Any] | None = None) -> None:
        self.seq += 1
        self.events += events
        view = view or server_view(self.game, self.me)
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
        self.push_view(events + self.bot_moves())

    def others(self, *actions: dict[str, Any]) -> None:
        """Apply other seats' actions and show their events in one update."""
        events: list[dict[str, Any]] = []
        for action in actions:
            events += self.game.apply(action)
        self.push_view(events)


def play_until(
    game: Game, event_type: str, seed: int = 7, seen: list[dict[str, Any]] | None = None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Play random legal moves for every seat until a step yields `event_type`.

    Returns Ann's view just before that step, and the step's events. Open
    auctions are closed (as the server's hammer would) after a few shouts.
    `seen` collects the events of the steps before.
    """
    from modernart.engine.modernart.bots import make_bot

    bots = [make_bot("random", seed + s) for s in range(game.n)]
    shouts = 0
    while not game.finished:
        if game.phase == "open" and shouts >= 3:
            action: dict[str, Any] = {"type": "close"}
        else:
            seat = game.to_act()[0]
            choice = bots[seat].choose(game.view(seat))
            assert choice is not None
            action = {**choice, "seat": seat}
        before = server_view(game, 0)
        events = game.apply(action)
        shouts = shouts + 1 if game.phase == "open" else 0
        if any(e["type"] == event_type for e in events):
            return before, events
        if seen is not None:
            seen.extend(events)
    raise AssertionError(f"no {event_type} event")


GAMES_ROOMS: list[dict[str, Any]] = [
    {
        "id": "s1",
        "game": "serengeti",
        "name": "Market day",
        "seats": 3,
        "seated": ["Gil", None, None],
        "status": "waiting",
        "variant": {"payout": "majority"},
        "spectators": 0,
        "locked": False,
    },
    {
        "id": "m1",
        "game": "modernart",
        "name": "Friday night",
        "seats": 4,
        "seated": ["Ann", "Bob", None, None],
        "status": "waiting",
        "variant": {"double_payment": "split", "virtual_player": False},
        "spectators": 0,
        "locked": False,
    },
    {
        "id": "a1",
        "game": "artsociety",
        "name": "Salon",
        "seats": 2,
        "seated": ["Hal", "Ida"],
        "status": "playing",
        "variant": "house",
        "spectators": 1,
        "locked": False,
    },
]


class OfflineLobbyApp(ClientApp):
    """The lobby screen with a fixed room list (what a server would push)."""

    ROOMS: ClassVar[list[dict[str, Any]]] = [
        {
            "id": "a1",
            "name": "Friday night",
            "seats": 4,
            "seated": ["Ann", "Bob", None, None],
            "status": "waiting",
            "variant": "classic",
            "spectators": 0,
            "locked": False,
        },
        {
            "id": "b2",
            "name": "Club",
            "seats": 3,
            "seated": ["Cy", "Dee", "Eve"],
            "status": "playing",
            "variant": {"double_payment": "second_takes_all", "virtual_player": False},
            "spectators": 2,
            "locked": True,
        },
        {
            "id": "c3",
            "name": "Solo",
            "seats": 3,
            "seated": ["Fay", None, None],
            "status": "waiting",
            "variant": "classic_3p_virtual",
            "spectators": 0,
            "locked": False,
        },
    ]

    def __init__(self, *args: Any, rooms: list[dict[str, Any]] | None = None, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.rooms = self.ROOMS if rooms is None else rooms

    async def begin(self) -> None:
        self.lobby = LobbyScreen("Ann")
        await self.push_screen(self.lobby)
        self.lobby.set_connection("connected")
        self.lobby.show_rooms(self.rooms)
