"""The Art Society table: your wall, the others' walls, the museum, the lot, your bid cards.

Everything is done by keys: arrows move a cursor (the ghost of the tile being
placed, the bid card, the painting to pick, the shape to add to the lot),
Enter does it. The screen sends only what `view.legal` allows and refuses a
ghost on a wrong spot before anything is sent, saying why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen

from modernart.engine.artsociety.rules import House

from ..eventlog import EventLog
from ..gametable import GameTable
from ..lines import LinePanel
from ..tablekeys import TABLE_BINDINGS
from ..turnclock import TurnClock
from .bidcards import BidCards
from .end import ArtSocietyEnd
from .narrate import narrate
from .others import OtherWalls
from .placing import Option, nearest, place_options
from .tableacts import QUIET_KEYS, TableActions
from .tabledraw import TableDrawing
from .values import house_of


class TableLog(EventLog, can_focus=False):
    """The event log, never focused: the arrows belong to the ghost (PgUp/PgDn scroll it)."""


class ArtSocietyTable(TableActions, TableDrawing, BidCards, GameTable):
    """Renders Art Society views (the `GameTable` contract, tui/gametable.py)."""

    GAME = "artsociety"
    GAME_TITLE: ClassVar[str] = "Art Society"
    AUTO_FOCUS = None  # no widget takes the keys: the arrows move the ghost and the cursors
    CSS_PATH = Path(__file__).parent / "artsociety.tcss"
    BORDERS: ClassVar[dict[str, tuple[str, str]]] = {
        "#as-others": ("Other walls, scores (w: full)", "1 char = 2 cells, top/bottom"),
        "#as-you": ("Your bid cards", ""),
    }
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move('left')", "Move", key_display="←↑↓→"),
        Binding("right", "move('right')", show=False),
        Binding("up", "move('up')", show=False),
        Binding("down", "move('down')", show=False),
        Binding("home", "jump(0)", show=False),
        Binding("end", "jump(1)", show=False),
        Binding("enter", "confirm", "OK"),
        Binding("tab", "next_tile", "Tile"),
        Binding("r", "turn", "Turn"),
        Binding("a", "act('assist')", "Assist"),
        Binding("x", "exchange", "Exch."),
        Binding("e", "act('excess')", "Excess"),
        Binding("e", "scores", "Scores"),
        Binding("1", "decor(1)", "+1"),
        Binding("2", "decor(2)", "+2"),
        Binding("3", "decor(3)", "+3"),
        Binding("n", "act('decline')", "None"),
        Binding("l", "act('discard')", "Lose"),
        Binding("d", "act('done')", "Done"),
        Binding("backspace", "unchoose", "Undo"),
        Binding("w", "cycle_wall", "Walls"),
        Binding("question_mark", "hint", "Hint"),
        # The table's own keys, "Save record" shortened so that F1 Help fits at 80 columns.
        *(replace(b, description="Save") if b.action == "save" else b for b in TABLE_BINDINGS),
        # While you decide the footer lists these keys only where they fit beside the
        # decision's (footerkeys.py); they still work then, unlisted (F1 lists them).
        *(Binding(key, f"quiet('{name}')", show=False) for key, name in QUIET_KEYS.items()),
        # A key that cannot act now rings the bell and says why (the real bindings come first).
        *(
            Binding(key, f"refuse('{key}')", show=False)
            for key in ("tab", "a", "x", "e", "1", "2", "3")
        ),
    ]

    def init_fields(self) -> None:
        self.cursor = (4, 4)  # the ghost's top-left corner (column, row)
        self.choice = 0  # which placement option the ghost shows
        self.exchanging = False
        self.pointer = 0  # the bid card, the lot painting or the shape under the cursor
        self.moved_bid = False
        self.chosen: list[str] = []  # shapes chosen for the lot so far (A9)
        self.watching: int | None = None  # whose wall is shown full size (None: yours)
        self.error = ""
        self.drawn_from: dict[str, str] = {}  # tabledraw.py: parts not to draw again

    def compose_table(self) -> ComposeResult:
        with Horizontal(id="as-top"):
            with Vertical(id="as-left"):
                yield LinePanel(id="as-wall")
                yield OtherWalls(id="as-others")
            with Vertical(id="as-right"):
                yield LinePanel(id="as-museum")
                yield LinePanel(id="as-panel")
                yield TurnClock("a bot moves for you", id="as-clock")
                yield LinePanel(id="as-you")
                yield TableLog(id="log")

    def mounted(self) -> None:
        self._draw()
        self.call_after_refresh(self.focus_default)

    # ------------------------------------------------------------ GameTable's hooks

    def draw(
        self, previous: dict[str, Any], view: dict[str, Any], events: list[dict[str, Any]]
    ) -> None:
        self._new_decision(previous, view)
        self.error = ""
        self._draw()
        self.query_one(TurnClock).show(view)

    def tell(self, events: list[dict[str, Any]], names: Sequence[str], you: int | None) -> None:
        log = self.query_one(EventLog)
        for event in events:
            line = narrate(event, names, you, self.house)
            if line:
                bold = event.get("type") in ("reveal", "round_end", "game_end", "bonus")
                log.add_note(line, "bold" if bold else "")

    def progress(self, view: dict[str, Any]) -> str:
        return "setup" if view.get("phase") == "setup" else f"round {view.get('round')}"

    def purse(self, view: dict[str, Any]) -> tuple[str, str] | None:
        """Art Society has no money: the status line shows your score as things stand."""
        you, seats = view.get("you"), view.get("seats") or []
        if not isinstance(you, int) or you >= len(seats) or "score" not in seats[you]:
            return None
        return "score ", str(seats[you]["score"]["total"])

    def end_screens(
        self, previous: dict[str, Any], events: list[dict[str, Any]]
    ) -> list[ModalScreen[Any]]:
        return [
            ArtSocietyEnd(event, self.names, self.view)
            for event in events
            if event.get("type") == "game_end"
        ]

    def show_error(self, message: str) -> None:
        self.error = message
        if self.is_mounted:
            self._draw_panel()

    def focus_default(self) -> None:
        self.set_focus(None)  # keys go to the screen: arrows move the ghost

    def on_screen_resume(self) -> None:
        if self.query_one("#chat-line").display is False:
            self.call_after_refresh(self.focus_default)

    @property
    def playing(self) -> bool:
        """A game's view (not a waiting room's)."""
        return "phase" in self.view

    @property
    def house(self) -> House:
        """The room's variant: what the panel and the log say scores (A18, A23–A27)."""
        return house_of(self.view.get("variant") or self.room_info.get("variant"))

    # ------------------------------------------------------------ state of the cursor

    @staticmethod
    def _decision_starts(previous: dict[str, Any], view: dict[str, Any]) -> bool:
        you = view.get("you")
        if you is None or not view.get("legal"):
            return False
        was = you in (previous.get("to_act") or []) and previous.get("legal")
        return you in (view.get("to_act") or []) and not was

    def _new_decision(self, previous: dict[str, Any], view: dict[str, Any]) -> None:
        """A new view: keep the cursor where it makes sense, start new ghosts on a legal spot."""
        legal, before = view.get("legal") or {}, previous.get("legal") or {}
        if set(legal) != set(before) or legal.get("place") != before.get("place"):
            self.exchanging = self.exchanging and "exchange" in legal
            self.choice = 0
            self._settle_ghost()
        if "place" in legal and "place" not in before:
            self.watching = None  # your placement: back to your own wall and its ghost
        if "pick" in legal and "pick" not in before:
            self.pointer = 0
        if "bid" in legal and "bid" not in before:
            self.pointer, self.moved_bid = 0, False
        if "shapes" not in legal:
            self.chosen = []
        elif "shapes" not in before:
            self.pointer = 0

    def options(self) -> list[Option]:
        return place_options(self.view, self.exchanging)

    def current(self) -> Option | None:
        options = self.options()
        return options[self.choice % len(options)] if options else None

    def _wall_size(self) -> tuple[int, int]:
        layout = self.view.get("wall") or {}
        return layout.get("cols", 10), layout.get("rows", 10)

    def _settle_ghost(self) -> None:
        option = self.current()
        if option is not None:
            self.cursor = nearest(option, *self.cursor, *self._wall_size())
