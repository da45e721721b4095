"""The lobby's windows onto players (issue 18): who is online, each game's leaderboard,
and past games (yours or a player's), whose Enter opens the replay viewer.

Each window asks the server (`who`, `leaderboard`, `games`; docs/protocol.md) when it
opens and when asked to refresh; the app hands it the answer (`show`).
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from modernart.engine.games import DEFAULT_GAME, GAME_NAMES, get_game

from .dialog import Dialog
from .fitted import FittedTable
from .footer import Footer
from .messages import SendToServer
from .reviewing import REVIEW_KEY, ReviewAsked
from .words import count

WHERE = {"lobby": "in the lobby", "playing": "playing in", "watching": "watching"}


def another_game(game: str, delta: int) -> str:
    """The game before (-1) or after (1) `game` in the registry's order, round the end."""
    names = list(GAME_NAMES)
    return names[(names.index(game) + delta) % len(names)]


def game_title(name: Any) -> str:
    return get_game(name).title if name in GAME_NAMES else str(name)


class PeopleScreen(Dialog[None]):
    """A list from the server in a table; Escape closes, r asks again."""

    TITLE_TEXT = ""
    ANSWER = ""  # the `t` of the server's answer this window shows
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Close"),
        Binding("r", "refresh", "Refresh"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="people"):
            yield Static(id="people-title")
            yield FittedTable(id="people-table", cursor_type="row", zebra_stripes=True)
            yield Static(id="people-hint")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(*self.columns())
        table.focus()
        self.draw_title("asking the server…")
        self.action_refresh()

    def columns(self) -> tuple[str, ...]:
        raise NotImplementedError

    def request(self) -> dict[str, Any]:
        raise NotImplementedError

    def draw_title(self, detail: str = "") -> None:
        text = Text(self.TITLE_TEXT, style="bold")
        if detail:
            text.append(f" · {detail}", style="dim")
        self.query_one("#people-title", Static).update(text)

    def action_refresh(self) -> None:
        self.post_message(SendToServer(self.request()))

    def action_close(self) -> None:
        self.dismiss(None)

    def show(self, msg: dict[str, Any]) -> None:
        """The server's answer."""
        raise NotImplementedError


class GameListScreen(PeopleScreen):
    """A list about one game at a time: ←/→ asks for the game before or after."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "game(-1)", "◀ game", priority=True),
        Binding("right", "game(1)", "game ▶", priority=True),
    ]

    def __init__(self, game: str = DEFAULT_GAME) -> None:
        super().__init__()
        self.game = game if game in GAME_NAMES else DEFAULT_GAME

    def request(self) -> dict[str, Any]:
        return {"t": self.ANSWER, "game": self.game}  # a request and its answer share a `t`

    def action_game(self, delta: int) -> None:
        self.game = another_game(self.game, delta)
        self.action_refresh()


class OnlineScreen(GameListScreen):
    """Who is online, each with a rating: in the game of the table they sit or watch at,
    else in the game chosen here (←/→), said in the title (playtests #7: a Modern Art
    rating read as the Serengeti one just played)."""

    TITLE_TEXT = "Online now"
    ANSWER = "who"

    def columns(self) -> tuple[str, ...]:
        return ("Name", "Rating", "Where")

    def show(self, msg: dict[str, Any]) -> None:
        table = self.query_one(DataTable)
        table.clear()
        for p in msg.get("players") or []:
            where = WHERE.get(p.get("where"), str(p.get("where")))
            if p.get("room"):
                where += f" {p.get('room_name') or p['room']}"
            mark = "?" if p.get("provisional") else ""  # issue 33: not established yet
            rating = f"{p.get('rating', '')}{mark} {game_title(p.get('game'))}"
            table.add_row(str(p.get("name", "?")), rating, where)
        self.draw_title(f"{msg.get('online', 0)} online")
        hint = f"Ratings in {game_title(self.game)} (at a table: its game's) · ←/→ another game"
        self.query_one("#people-hint", Static).update(Text(hint, style="dim"))


class LeaderboardScreen(GameListScreen):
    """One game's best players (bots' levels among them); ←/→ another game."""

    TITLE_TEXT = "Leaderboard"
    ANSWER = "leaderboard"

    def columns(self) -> tuple[str, ...]:
        return ("#", "Name", "Rating", "Games")

    def show(self, msg: dict[str, Any]) -> None:
        if msg.get("game") != self.game:
            return  # an answer about the game shown before
        table = self.query_one(DataTable)
        table.clear()
        for p in msg.get("players") or []:
            name = Text(str(p.get("name", "?")), style="italic" if p.get("bot") else "")
            table.add_row(str(p.get("rank")), name, str(p.get("rating")), str(p.get("games")))
        count = len(msg.get("players") or [])
        self.draw_title(f"{game_title(self.game)} · {count or 'nobody'} rated")
        self.query_one("#people-hint", Static).update(
            Text("Listed after 10 rated games against 3 opponents; bots in italics", style="dim")
        )


class PastGamesScreen(PeopleScreen):
    """A player's finished games, newest first; Enter replays the selected one."""

    TITLE_TEXT = "Past games"
    ANSWER = "games"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", "Replay"),
        Binding("a", "review", "Review"),
    ]

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on the list (the table takes the key before the screen's binding)."""
        event.stop()
        self.action_open()

    def __init__(self, player: str | None = None) -> None:
        super().__init__()
        self.player = player
        self.games: list[dict[str, Any]] = []

    def columns(self) -> tuple[str, ...]:
        return ("Date", "Game", "Players", "Result", "±")

    def request(self) -> dict[str, Any]:
        msg: dict[str, Any] = {"t": "games"}
        if self.player:
            msg["player"] = self.player
        return msg

    def show(self, msg: dict[str, Any]) -> None:
        self.games = list(msg.get("games") or [])
        table = self.query_one(DataTable)
        table.clear()
        for g in self.games:
            date = time.strftime("%m-%d %H:%M", time.localtime(g.get("date") or 0))
            seat = g.get("seat")
            places = g.get("places") or []
            if g.get("outcome") == "abandoned":
                result = "abandoned"
            else:
                place = places[seat] if isinstance(seat, int) and seat < len(places) else "?"
                result = f"{place} of {len(places)}"
            change = g.get("change")
            delta = "" if change is None else f"{change:+d}"
            players = ", ".join(str(n) for n in g.get("players") or [])
            table.add_row(date, game_title(g.get("game")), players, result, delta)
        self.draw_title(f"{msg.get('player', '')} · {count(len(self.games), 'game')}")
        self.query_one("#people-hint", Static).update(
            Text(f"Enter: replay the game   {REVIEW_KEY}   ±: your rating's change", style="dim")
            if self.games
            else Text("No finished games yet: a game you play to its end is listed here.")
        )

    def _room(self) -> str | None:
        """The selected game's room (None, with the bell, when there is none)."""
        table = self.query_one(DataTable)
        if not self.games or table.cursor_row >= len(self.games):
            self.app.bell()
            return None
        return self.games[table.cursor_row]["room"]

    def action_open(self) -> None:
        room = self._room()
        if room is not None:
            self.post_message(SendToServer({"t": "record", "room": room}))

    def action_review(self) -> None:
        """a: the expert's review of the selected game (tui/reviewing.py)."""
        room = self._room()
        if room is not None:
            self.post_message(ReviewAsked(room))
