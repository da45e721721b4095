"""The client's games: for each game name (`GameInfo.name`, a room's `game`), its table
screen and its words. The app picks the table by the room's game; the lobby offers every
game listed here. Adding a game's table: a `GameTable` subclass (see `tui/gametable.py`
for the contract), a `describe_private` and one entry in `CLIENT_GAMES`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.text import Text

from modernart.engine.games import DEFAULT_GAME, GameInfo, get_game

from .artsociety.end import keys_help as artsociety_keys
from .artsociety.narrate import action_words as artsociety_words
from .artsociety.private import describe_private as artsociety_private
from .browser import HELP as BROWSER_HELP
from .gametable import GameTable
from .modernart.narrate import action_words as modernart_words
from .modernart.private import describe_private as modernart_private
from .rematch import AFTER_GAME_HELP
from .serengeti.private import describe_private as serengeti_private
from .serengeti.table import KEYS_HELP as SERENGETI_KEYS
from .serengeti.words import action_words as serengeti_words
from .viewerhelp import VIEWER_KEYS


@dataclass(frozen=True)
class ClientGame:
    """One game as the client shows it."""

    name: str  # the registry name (GameInfo.name)
    table: Callable[[], type[GameTable]]  # its table screen class, imported when first needed
    # A seat's own part (`view(seat)`'s entries that only it sees: hand, money …) in the
    # game's words, given that seat's view: the replay viewer's last page
    describe_private: Callable[[dict[str, Any]], Text]
    # Markdown: the table's keys, shown by F1 after the rules; or a function of the room's
    # variant giving them (a game whose help says its variant's values)
    keys_help: str | Callable[[Any], str] = ""
    # A player's action in the game's words (the review's marks), or None: no such words
    action_words: Callable[[dict[str, Any]], str | None] = lambda action: None

    @property
    def info(self) -> GameInfo:
        return get_game(self.name)

    @property
    def title(self) -> str:
        return self.info.title

    def rules_text(self, variant: Any = None, where: str = "online") -> str:
        """F1's text: what the rule ids in messages are, the game's rules (GameInfo.rules),
        the table's keys (for the room's `variant`; None: the game's default) and the
        command's options that work `where` the player is (`local`, `online`, `ssh`:
        see `OPTIONS_HELP`)."""
        ids = (
            "*A rule id in a message, such as (R18), (S7) or (A4), refers to the rule of "
            "that number: this help gives it in brackets where it tells the rule.*"
        )
        title, _, rules = self.info.rules.partition("\n")  # the ids go under the title
        text = f"{title}\n\n{ids}\n{rules}"
        keys = self.keys_help(variant) if callable(self.keys_help) else self.keys_help
        text += "\n\n" + keys if keys else ""
        text += "\n\n" + AFTER_GAME_HELP
        options = OPTIONS_HELP.get(where, "")
        if where == "local" and self.name != DEFAULT_GAME:
            options = options.replace("(`modernart`)", f"(`modernart --game {self.name}`)")
        if where == "local" and self.info.hammer is None:  # no open auctions, no hammer
            options = options.replace(SHOUT_WINDOW_HELP, "")
        return text + ("\n\n" + options if options else "")


def _modernart_table() -> type[GameTable]:
    from .modernart.table import TableScreen

    return TableScreen


def _serengeti_table() -> type[GameTable]:
    from .serengeti.table import SerengetiTable

    return SerengetiTable


def _artsociety_table() -> type[GameTable]:
    from .artsociety import ArtSocietyTable

    return ArtSocietyTable


# The `modernart` command's options, only where they work: a game against bots in this
# terminal (`local`), a lobby opened with `modernart connect` (`online`); over SSH none;
# in a browser how to leave (`browser`).
SHOUT_WINDOW_HELP = "`--shout-window SECONDS` how long the hammer waits in open auctions, "
OPTIONS_HELP = {
    "local": (
        "Against bots (`modernart`): there is no lobby, so `L` (and `q` when the game is "
        "over) end the game and the program; `L` asks first. "
        "`--bot-delay SECONDS` sets how long bots think, "
        f"{SHOUT_WINDOW_HELP}`--bell` rings the terminal bell when your turn comes."
    ),
    "online": (
        "`modernart connect URL --bell` rings the terminal bell when your turn comes. "
        "Each name you play under keeps its own identity on each server: "
        "`modernart identities` lists them and `modernart identities --forget URL [NAME]` "
        "forgets one."
    ),
    "browser": BROWSER_HELP,
}

LOBBY_KEYS = (
    "# The lobby\n\n↑ ↓ choose a room, `j` or Enter join, `w` watch (a room with a "
    "password asks for it), `c` create, `r` refresh, `n` your name. In a waiting room the "
    "host adds bots with `b` (`B`: choose the level) and starts with `s`; `L` leaves.\n\n"
    "Another device: `k` shows a one-time code (10 minutes) with which another device "
    "plays this identity; `i` takes an identity over from another device with the code "
    "its `k` shows (its name and its seats; in a browser, the box below the terminal "
    "takes it too). `d` lists the devices that play this identity; `x` there revokes one "
    "(its token stops working).\n\n" + VIEWER_KEYS + "Each game's rules follow: "
)


def lobby_help(where: str = "online") -> str:
    """F1 in the lobby: its keys, then every game's rules (not only Modern Art's)."""
    games = list(CLIENT_GAMES.values())
    text = LOBBY_KEYS + ", ".join(game.title for game in games) + "."
    for game in games:
        title, _, rules = game.info.rules.partition("\n")
        text += f"\n\n---\n\n{title}\n{rules}"
    options = OPTIONS_HELP.get(where, "")
    return text + ("\n\n---\n\n" + options if options else "")


def help_texts(where: str) -> list[str]:
    """Every F1 text a client `where` shows first: the lobby's and each game's (its
    default variant), for the zygote to lay out before it forks (tui/helptext.py)."""
    return [lobby_help(where), *(g.rules_text(None, where) for g in CLIENT_GAMES.values())]


CLIENT_GAMES: dict[str, ClientGame] = {
    # Modern Art's rules text (engine/modernart/rules.md) has the table's keys woven in.
    "modernart": ClientGame(
        "modernart", _modernart_table, modernart_private, action_words=modernart_words
    ),
    "serengeti": ClientGame(
        "serengeti", _serengeti_table, serengeti_private, SERENGETI_KEYS, serengeti_words
    ),
    "artsociety": ClientGame(
        "artsociety", _artsociety_table, artsociety_private, artsociety_keys, artsociety_words
    ),
}


def client_game(name: str | None) -> ClientGame:
    """The client's game `name` (None: Modern Art, as a server without games sends);
    KeyError for a game this client has no table for."""
    return CLIENT_GAMES[name or DEFAULT_GAME]


def playable(name: str | None) -> bool:
    """Whether this client has a table for the game `name`."""
    return (name or DEFAULT_GAME) in CLIENT_GAMES
