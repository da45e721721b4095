"""Serengeti's table (SERENGETI.md): the auction box, the players, the event log and the
end screen, each in a module of its own beside this one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Input

from modernart.engine.serengeti.cards import AUCTIONS

from ..gametable import GameTable
from ..tablekeys import TABLE_BINDINGS
from .auction import AuctionBox, BidInput
from .end import SerengetiOver
from .log import SerengetiLog
from .players import SerengetiPlayers
from .words import refusal

KEYS_HELP = """## Keys at the Serengeti table

| key | does |
|---|---|
| digits, ↑ ↓ | type a bid; ↑ and ↓ step through the legal amounts only |
| Enter | bid the amount in the entry (a refused amount says why, under the entry) |
| `p` | pass, at any turn (final for this auction; a first decision earns 2 chips, S8) |
| `e` | the scoring again, once the game is over |
| `?` | a hint: what the hard bot would do from your view, and why (if the room allows) |
| `t` | chat · PgUp/PgDn scroll the events (End: the latest) · `L` leave · F1 this help |

**The auction box**: the lot (and the tribe points it would add to yours), the high bid,
whose turn it is and the turn clock (only where the room sets a turn timeout:
local games against bots have none). *Ends in / pays*: for each last digit, who would
be paid if you bought the lot at a price ending in it (`all`: everyone else, as no one
else holds that digit; `2 pl`: the two players who hold it share the price, S11; `✗`: you
hold it, so you may not bid it).

**Players**: `▶` whose turn, `S` the start player of this auction, `chips` (yours only
until the end), `pts` tribe points so far, `barred` the digits no bid of theirs may end in (S7),
then their cards by tribe, each tribe's digits spaced: `bl 3 8 9` is Blue 3, Blue 8
and Blue 9 (bl blue, br brown, re red, ye yellow, gr green, pu purple).
"""


class SerengetiTable(GameTable):
    """Serengeti at 80×24, keyboard only: type or step a bid and press Enter, or `p`."""

    GAME = "serengeti"
    GAME_TITLE = "Serengeti"
    PURSE = ("chips", "chips ")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p", "act('pass')", "Pass"),
        Binding("e", "scores", "Scoring"),
        Binding("question_mark", "hint", "Hint"),
        *TABLE_BINDINGS,
    ]
    DEFAULT_CSS = """
    SerengetiTable #log { height: 1fr; min-height: 3; }
    """
    BORDERS: ClassVar[dict[str, tuple[str, str]]] = {
        "#sg-players": ("Players", "▶ turn · S start player · barred: no bid may end in these"),
    }

    def init_fields(self) -> None:
        self._told_start = False  # the log has begun the game's story

    def compose_table(self) -> ComposeResult:
        yield AuctionBox(id="sg-auction")
        yield SerengetiPlayers(id="sg-players")
        yield SerengetiLog(id="log")

    def mounted(self) -> None:
        self.focus_default()

    def draw(
        self, previous: dict[str, Any], view: dict[str, Any], events: list[dict[str, Any]]
    ) -> None:
        self.query_one(AuctionBox).show(view)
        self.query_one(SerengetiPlayers).show(view)

    def end_screens(
        self, previous: dict[str, Any], events: list[dict[str, Any]]
    ) -> list[ModalScreen[Any]]:
        return [SerengetiOver(e, self.names) for e in events if e.get("type") == "game_end"]

    def tell(self, events: list[dict[str, Any]], names: Sequence[str], you: int | None) -> None:
        view = self.view
        if not self._told_start and view.get("auction") and view.get("status") == "playing":
            self._told_start = True
            # The first auction begins with the game (no event): tell it like the others.
            if view["auction"] == 1 and not any(e.get("type") == "auction" for e in events):
                first = {"type": "auction", "number": 1, "start": view.get("start")}
                events = [{**first, "cards": view.get("lot") or []}, *events]
        self.query_one(SerengetiLog).add_events(events, names, you)

    def progress(self, view: dict[str, Any]) -> str:
        return f"auction {view.get('auction')}/{view.get('auctions', AUCTIONS)}"

    def focus_for(self, legal: dict[str, Any]) -> None:
        if "pass" in legal:
            self.query_one(BidInput).focus()

    def focus_default(self) -> None:
        self.query_one(SerengetiLog).focus()

    def show_error(self, message: str) -> None:
        if "pass" in self.legal:
            self.query_one(AuctionBox).show_error(message)
        else:
            self.note(message, "bold red")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "scores":
            return bool(self.view.get("scores"))
        return super().check_action(action, parameters)

    def action_scores(self) -> None:
        """The end screen again, from the finished view (the same scores as `game_end`)."""
        view = self.view
        if not view.get("scores"):
            self.app.bell()
            return
        keys = ("scores", "winners", "tiebreak")
        end = {"type": "game_end", **{k: view.get(k) for k in keys}}
        self.app.push_screen(SerengetiOver(end, self.names), self.after_game_over)

    def on_input_submitted(self, message: Input.Submitted) -> None:
        message.stop()
        if message.input.id == "chat":
            self.send_chat(message.input)
            return
        box = self.query_one(AuctionBox)
        amount = box.entry.amount
        if amount is None:
            box.show_error("Type an amount, or ↑/↓ for the legal ones; p passes.")
            return
        why = refusal(amount, self.view)
        if why:
            box.show_error(f"✗ {amount}: {why}")
            self.app.bell()
            return
        self.act({"type": "bid", "amount": amount})
