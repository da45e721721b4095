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

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from modernart.engine.artsociety.rules import House
from modernart.engine.artsociety.wall import Wall

from ..eventlog import EventLog
from ..gametable import GameTable
from ..quiet import quiet_update
from ..tablekeys import TABLE_BINDINGS
from ..turnclock import TurnClock
from ..words import count, host_name, short_name
from .bidcards import BidCards
from .end import ArtSocietyEnd
from .footerkeys import side_keys_shown
from .look import (
    FRAME_LEGEND,
    cell_of,
    chip,
    mini_text,
    museum_text,
    tile_label,
    tile_style,
    wall_text,
)
from .narrate import narrate
from .placing import Option, ghost, nearest, place_options, preview, problem
from .values import frame_bonus, house_of, wall_hint


class TableLog(EventLog, can_focus=False):
    """The event log, never focused: the arrows belong to the ghost (PgUp/PgDn scroll it)."""


QUIET_KEYS = {"w": "cycle_wall", "t": "chat", "pageup": "log_up", "L": "leave"}
MOVES = {"left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1)}


class ArtSocietyTable(BidCards, GameTable):
    """Renders Art Society views (the `GameTable` contract, tui/gametable.py)."""

    GAME = "artsociety"
    GAME_TITLE: ClassVar[str] = "Art Society"
    AUTO_FOCUS = None  # no widget takes the keys: the arrows move the ghost and the cursors
    CSS_PATH = Path(__file__).parent / "artsociety.tcss"
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
        Binding("a", "assist", "Assist"),
        Binding("x", "exchange", "Exch."),
        Binding("e", "excess", "Excess"),
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

    def compose_table(self) -> ComposeResult:
        with Horizontal(id="as-top"):
            with Vertical(id="as-left"):
                yield Static(id="as-wall")
                yield Static(id="as-others")
            with Vertical(id="as-right"):
                yield Static(id="as-museum")
                yield Static(id="as-panel")
                yield TurnClock("a bot moves for you", id="as-clock")
                yield Static(id="as-you")
                yield TableLog(id="log")

    def on_mount(self) -> None:
        others = self.query_one("#as-others")
        others.border_title = "Other walls, scores (w: full)"
        others.border_subtitle = "1 char = 2 cells, top/bottom"
        self.query_one("#as-you").border_title = "Your bid cards"
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

    # ------------------------------------------------------------ drawing

    def _draw(self) -> None:
        if not self.playing:
            self._draw_waiting()
            return
        self._draw_wall()
        self._draw_others()
        self._draw_museum()
        self._draw_panel()
        self._draw_you()

    def _draw_waiting(self) -> None:
        """Before the game: an empty wall and who sits at the table."""
        layout = {"cols": 10, "rows": 10, "eyeline": [5, 6], "stars": ["E5", "F6"]}
        quiet_update(self.query_one("#as-wall", Static), wall_text(layout, []))
        quiet_update(self.query_one("#as-others", Static), "")
        quiet_update(self.query_one("#as-museum", Static), "")
        self.query_one("#as-you").display = False
        seats = self.view.get("seats") or []
        text = Text("Waiting room\n", style="bold")
        for seat in seats:
            text.append(f"  {seat.get('name', '?')}\n", style="dim" if seat.get("free") else "")
        host = self.view.get("host")
        if host == self.view.get("you") and self.view:
            text.append("b: add a bot (B: its level) · s: start", style="yellow")
        else:  # a guest has nothing to do but wait, and is told so (playtests #13)
            text.append(f"Waiting for {host_name(seats, host)} to start the game.", style="dim")
        panel = self.query_one("#as-panel", Static)
        panel.border_title = "Table"
        quiet_update(panel, text)

    def _draw_wall(self) -> None:
        widget = self.query_one("#as-wall", Static)
        view = self.view
        seats = view.get("seats") or []
        if not seats:
            quiet_update(widget, "")
            return
        you, shown = view.get("you"), self.shown
        seat = seats[shown]
        layout = view.get("wall") or {"cols": 10, "rows": 10}
        the_ghost = None
        if shown == you:
            option = self.current()
            if option is not None:
                ok = problem(view, option, *self.cursor) is None
                the_ghost = ghost(option, *self.cursor, ok)
        quiet_update(widget, wall_text(layout, seat.get("wall") or [], the_ghost))
        title = "Your wall" if shown == you else f"{seat.get('name')}'s wall"
        widget.border_title = f"{title} · {count(seat['score']['total'], 'pt')}"
        widget.border_subtitle = "> eyeline  * star" if shown == you else "w: next wall"

    @property
    def shown(self) -> int:
        """The seat whose wall is shown full size: yours, or one chosen with `w`."""
        you = self.view.get("you")
        return self.watching if self.watching is not None else (you if you is not None else 0)

    def _draw_others(self) -> None:
        widget = self.query_one("#as-others", Static)
        view = self.view
        seats = view.get("seats") or []
        # A watcher's small walls are those not shown full size: 3 of 4 fit at 80 columns.
        you = view.get("you") if view.get("you") is not None else self.shown
        layout = view.get("wall") or {"cols": 10, "rows": 10}
        grid = Table.grid(padding=(0, 1))
        cells: list[Text] = []
        for s, seat in enumerate(seats):
            if s == you:
                continue
            block = Text()
            marker = "▶" if s in (view.get("to_act") or []) else " "
            block.append(marker, style="bold yellow")
            # A mini-map is 10 wide: the name gets the row (a bot's "Vera (H)" in full) and
            # the score the row under the wall, never run together ("alice-100"), with the
            # excess paintings (A17) after it: "57 pts ex2".
            block.append(f"{short_name(seat.get('name', '?'), 9)}\n", style="bold")
            block.append_text(mini_text(layout, seat.get("wall") or []))
            score, excess = seat["score"]["total"], seat.get("excess") or 0
            words = count(score, "pt")
            block.append(f"\n{words if len(words) + 4 * bool(excess) <= 10 else score}", "bold")
            if excess:
                block.append(f" ex{excess}", style="bold red")
            if seat.get("assistant"):
                block.append("\nassistant ")
                held = seat["assistant"]
                block.append_text(Text(tile_label(held), style=tile_style(held)))
            cells.append(block)
        for _ in cells:
            grid.add_column()
        if cells:
            grid.add_row(*cells)
        quiet_update(widget, grid)

    def _draw_museum(self) -> None:
        quiet_update(self.query_one("#as-museum", Static), museum_text(self.view))

    def _who(self, seat: object) -> str:
        names = self.names
        if seat == self.view.get("you"):
            return "You"
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    def _draw_panel(self) -> None:
        widget = self.query_one("#as-panel", Static)
        view = self.view
        if not view:
            return
        legal = self.legal
        text = Text()
        phase = view.get("phase")
        widget.border_title = {
            "setup": "Setup",
            "prepare": "Choosing the lot",
            "bid": "Bidding for the pick order",
            "pick": "Picking",
            "place": "Placing",
            "over": "Game over",
        }.get(str(phase), "Table")
        picker = (view.get("turn") or {}).get("seat")
        if phase in ("pick", "place") and picker is not None:
            widget.border_title += f": {self._who(picker)}"
        elif phase == "prepare":
            widget.border_title += f": {self._who(view.get('auctioneer'))}"
        # The lot (or the shapes to choose from)
        if "shapes" in legal:
            self._shape_lines(text, legal["shapes"])
        elif phase in ("bid", "pick") or (phase == "place" and "pick" in legal):
            lot = view.get("lot") or []
            picking = "pick" in legal
            for i, painting in enumerate(lot):
                mine = picking and i == self.pointer % len(lot)
                text.append("▶ " if mine else "  ", style="bold yellow")
                text.append_text(chip(painting))
                if picking and not self._fits(painting):
                    text.append(" won't fit", style="bold red")  # A14: exchange or excess
                text.append("\n")
        # The bids and the pick order
        order = view.get("order") or []
        bids = view.get("bids")
        if bids and order:
            text.append("Order: ", style="bold")
            picker = (view.get("turn") or {}).get("seat")
            for i, s in enumerate(order):
                if i:
                    text.append(" ")
                style = "bold reverse" if s == picker else ""
                text.append(f"{self._who(s)} {bids[s]}", style=style)
            text.append("\n")
        elif phase == "bid":
            waiting = [self._who(s) for s in view.get("to_act") or [] if s != view.get("you")]
            if waiting:
                text.append("Waiting for bids: " + ", ".join(waiting) + "\n", style="dim")
        # What to do now
        text.append_text(self._prompt())
        if self.error:
            text.append("\n" + self.error, style="bold red")
        quiet_update(widget, text)

    def _fits(self, painting: dict[str, Any]) -> bool:
        """Whether a painting has a spot on your wall (A13), by the engine's own wall."""
        you, seats = self.view.get("you"), self.view.get("seats") or []
        if not isinstance(you, int) or you >= len(seats) or "w" not in painting:
            return True
        cols, rows = self._wall_size()
        wall = Wall.from_view(cols, rows, seats[you].get("wall") or [])
        return wall.can_hang(painting["w"], painting["h"])

    def _shape_lines(self, text: Text, shapes: dict[str, Any]) -> None:
        piles = list(shapes.get("piles") or {})
        text.append("Size (wide×high): paintings left\n", style="dim")
        per_line = 5
        for i, name in enumerate(piles):
            w, _, h = name.partition("x")
            label = f"{w}×{h}:{shapes['piles'][name]:<2}"
            style = "bold reverse" if i == self.pointer % len(piles) else ""
            text.append(label, style=style)
            text.append("\n" if i % per_line == per_line - 1 or i == len(piles) - 1 else " ")
        chosen = " ".join(s.replace("x", "×") for s in self.chosen) or "—"
        left = shapes.get("count", 0) - len(self.chosen)
        lot, worth = f"Lot: {chosen} ({left} more)", " · worth wide+high−1"
        room = self.query_one("#as-panel").content_region.width or 40
        text.append(lot, style="bold")  # the rule beside it while it fits on the line
        text.append((worth if len(lot + worth) <= room else "") + "\n", style="dim")

    def _prompt(self) -> Text:
        view, legal = self.view, self.legal
        if view.get("finished"):
            return Text("The game is over: e shows the final scores again.", style="bold")
        if not legal:
            waiting = [self._who(s) for s in view.get("to_act") or []]
            return Text("Waiting for " + (", ".join(waiting) or "the server") + "…", style="dim")
        turn = view.get("turn") or {}
        if "shapes" in legal:
            return Text("Arrows: a size, Enter adds it, ⌫ undo", style="bold yellow")
        if "bid" in legal:
            return Text("Bid: ←→ card, Enter. Highest goes first", style="bold yellow")
        if "pick" in legal:
            return Text("Pick a painting: ↑↓, Enter.", style="bold yellow")
        if "decor" in legal:
            sizes = "/".join(str(s) for s in legal["decor"])
            more = " (several pieces)" if turn.get("multi") else ""
            none = ", n: none" if "decline" in legal else ""
            return Text(
                f"Frame bonus: {count(turn.get('bonus') or 0, 'shield')}{more}. "
                f"Take decor {sizes}{none}.",
                style="bold yellow",
            )
        option = self.current()
        text = Text()
        if option is not None and option.source == "start":
            text.append("Hang your starting painting over a star (*). ", style="bold yellow")
            text.append(wall_hint(self.house) + "\n", style="dim")
        if option is not None:
            text.append("Place ", style="bold yellow")
            text.append_text(chip(option.tile) if option.tile else Text(option.name))
            text.append("\n")
            cols, _ = self._wall_size()
            cell = cell_of(*self.cursor, cols)
            reason = problem(view, option, *self.cursor)
            if reason is None:
                text.append(f"{cell}: fits. Enter hangs it.", style="bold green")
                brings = preview(view, option, *self.cursor)
                if brings.frames and option.source != "start":
                    bonus = frame_bonus(self.house, brings.frames)
                    text.append(f" Frame bonus: {bonus}.", style="bold magenta")
                if brings.faux_pas:
                    text.append(" Faux pas: touches its genre!", style="bold red")
                elif brings.eyeline:
                    text.append(f" Eyeline: +{brings.eyeline}.", style="bold yellow")
            else:
                text.append(f"Not here: {reason}", style="bold red")
            keys = ["arrows move"]
            if len(self.options()) > 1:
                keys.append("Tab other")
            if option.source == "decor" and option.tile.get("shields", 1) > 1:
                keys.append("r turn")
            text.append("\n" + ", ".join(keys), style="dim")
        elif turn.get("picked"):
            text.append("You hold ", style="bold yellow")
            text.append_text(chip(turn["picked"]))
            if self.exchanging:
                text.append("\nNo museum painting can be hung.", style="red")
        hints = []
        if "assist" in legal:
            hints.append("a: to assistant")
        if "exchange" in legal and not self.exchanging:
            hints.append("x: museum exchange")
        if self.exchanging:
            hints.append("x: back")
        if "excess" in legal:
            hints.append(f"e: excess (−{self.house.excess_penalty})")
        if "discard" in legal:
            hints.append("l: lose it")
        if "done" in legal:
            hints.append("d: done, keep the assistant's tile")
        if "excess" in legal and not self.exchanging:
            text.append("\nIt fits nowhere on your wall.", style="bold red")
        if hints:
            text.append("\n" + " · ".join(hints), style="yellow")
        return text

    def _draw_you(self) -> None:
        view = self.view
        you = view.get("you")
        widget = self.query_one("#as-you", Static)
        widget.display = you is not None and self.playing
        if not widget.display:
            return
        hand = view.get("hand") or []
        text = Text()
        bidding = "bid" in self.legal
        for i, card in enumerate(hand):
            here = bidding and i == self.pointer % len(hand)
            text.append(f"{card:>2}", style="bold reverse" if here else "bold")
            text.append(" ")
        if not hand:
            text.append("none left")
        if view.get("my_bid") is not None:
            text.append(f" · laid {view['my_bid']}", style="bold")

        me = (view.get("seats") or [])[you]
        text.append("\nAssistant: ")
        assistant = me.get("assistant")
        text.append_text(chip(assistant) if assistant else Text("empty", style="dim"))
        text.append(f" · excess {me.get('excess', 0)}")
        quiet_update(widget, text)
        widget.border_subtitle = FRAME_LEGEND
        stack = view.get("stack") or []
        # A8: the white card at the bottom of your stack breaks tied bids
        white = f" · white {stack[0]} breaks ties" if stack else ""
        widget.border_title = "Your bid cards" + white

    # ------------------------------------------------------------ keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show in the footer only what can be done now; while you decide, only the
        decision's keys (the others stay bound, unlisted: `quiet`)."""
        if action == "quiet":
            name = str(parameters[0])
            return self._allowed("log", (-1,)) if name == "log_up" else self._allowed(name, ())
        side = "log_up" if action == "log" and parameters == (-1,) else action
        if side in QUIET_KEYS.values() and self.playing and self.legal:
            return side in self._side_fits() and self._allowed(action, parameters)
        return self._allowed(action, parameters)

    def _side_fits(self) -> set[str]:
        """The table's own keys the footer has room for beside the decision's."""
        bindings = [b for b in [*self.BINDINGS, *self.app.BINDINGS] if isinstance(b, Binding)]
        return side_keys_shown(bindings, self._allowed, self.app.get_key_display, self.size.width)

    def action_quiet(self, name: str) -> None:
        if name == "log_up":
            self.action_log(-1)
        else:
            getattr(self, f"action_{name}")()

    def _allowed(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        legal = self.legal
        if action == "act":
            return parameters[0] in legal
        if action == "decor":
            return parameters[0] in (legal.get("decor") or [])
        if action == "assist":
            return "assist" in legal
        if action == "exchange":
            return "exchange" in legal
        if action == "excess":
            return "excess" in legal
        if action == "turn":
            option = self.current()
            return option is not None and option.source == "decor" and len(self.options()) > 1
        if action == "next_tile":
            return len(self.options()) > 1 and not self.check_action("turn", ())
        if action == "unchoose":
            return bool(self.chosen)
        if action == "scores":
            return bool(self.view.get("finished"))
        if action == "refuse":
            return self.playing
        if action in ("move", "cycle_wall") and not self.playing:
            return False  # a waiting room has no walls yet: the footer keeps Quit and Help
        if action == "move" and (self.view.get("finished") or self.view.get("you") is None):
            return False  # nothing to move (a watcher's, a game's end: room for Rematch)
        if action == "cycle_wall":
            return len(self.view.get("seats") or []) > 1
        if action == "confirm":
            return bool(legal)
        return super().check_action(action, parameters)

    def act(self, action: dict[str, Any]) -> None:
        self.error = ""  # a refusal's words stand until the next move is sent
        super().act(action)

    def action_move(self, direction: str) -> None:
        dx, dy = MOVES[direction]
        legal = self.legal
        lists = (
            ("bid", legal.get("bid")),
            ("pick", legal.get("pick")),
            ("shapes", list((legal.get("shapes") or {}).get("piles") or [])),
        )
        for kind, items in lists:
            if items:
                step = dx or dy
                if "shapes" in legal and dy:
                    step = dy * 5
                if kind == "bid":
                    self.move_bid(self.pointer + step, items)
                    return
                self.pointer = (self.pointer + step) % len(items)
                self._draw_panel()
                self._draw_you()
                return
        if self.current() is None:
            return
        cols, rows = self._wall_size()
        col, row = self.cursor
        self.cursor = (min(max(col + dx, 0), cols - 1), min(max(row + dy, 0), rows - 1))
        self.error = ""  # a refusal spoke of the spot just left (the panel says the new one's)
        self._draw_wall()
        self._draw_panel()

    def action_confirm(self) -> None:
        legal = self.legal
        if "bid" in legal:
            self.confirm_bid(legal["bid"][self.pointer % len(legal["bid"])])
        elif "pick" in legal:
            lot = legal["pick"]
            self.act({"type": "pick", "painting": lot[self.pointer % len(lot)]})
        elif "shapes" in legal:
            shapes = legal["shapes"]
            piles = list(shapes["piles"])
            name = piles[self.pointer % len(piles)]
            if self.chosen.count(name) >= shapes["piles"][name]:
                self.show_error(f"The {name.replace('x', '×')} pile has no more paintings.")
                return
            self.chosen.append(name)
            if len(self.chosen) >= shapes["count"]:
                chosen, self.chosen = self.chosen, []
                self.act({"type": "shapes", "shapes": chosen})
            self._draw_panel()
            self.refresh_bindings()
        else:
            option = self.current()
            if option is None:
                self.app.bell()
                return
            reason = problem(self.view, option, *self.cursor)
            if reason is not None:
                self.app.bell()
                self.show_error("Not sent: move the ghost to a green spot first.")
                return
            cols, _ = self._wall_size()
            self.act(option.action(cell_of(*self.cursor, cols)))

    def action_next_tile(self) -> None:
        if len(self.options()) > 1:
            self.choice = (self.choice + 1) % len(self.options())
            self._draw_wall()
            self._draw_panel()

    def action_turn(self) -> None:
        option = self.current()
        if option is not None and option.source == "decor":
            self.action_next_tile()

    def action_assist(self) -> None:
        self.action_act("assist")

    def action_excess(self) -> None:
        self.action_act("excess")

    def action_decor(self, size: int) -> None:
        if size not in (self.legal.get("decor") or []):
            self.app.bell()
            return
        self.act({"type": "decor", "size": size})

    def action_exchange(self) -> None:
        if "exchange" not in self.legal:
            self.app.bell()
            return
        self.exchanging = not self.exchanging
        self.choice = 0
        self._settle_ghost()
        self.refresh_bindings()
        self._draw_wall()
        self._draw_panel()

    def action_refuse(self, key: str) -> None:
        """A key that does nothing now: the bell, and the reason in the panel."""
        self.app.bell()
        self.show_error(self._refusal(key))

    def _refusal(self, key: str) -> str:
        legal = self.legal
        sizes = legal.get("decor") or []
        placing = any(o.get("tile") == "picked" for o in legal.get("place") or [])
        if key in "123":
            if not sizes:
                return f"{key}: no decor to take now."
            listed = " or ".join(str(s) for s in sizes)
            return f"{key}: no {key}-shield decor for you now: take {listed}, or n for none."
        if key in "xe" and placing:
            what = "museum exchange (A14)" if key == "x" else "excess (A17)"
            return f"{key}: {what} only when the painting fits nowhere; it fits."
        if key == "x":
            return "x: no museum exchange now."
        if key == "e":
            return "e: no excess now (only for a painting that fits nowhere)."
        if key == "a":
            return "a: nothing can go to the assistant now."
        you, seats = self.view.get("you"), self.view.get("seats") or []
        held = seats[you].get("assistant") if isinstance(you, int) and you < len(seats) else None
        if held and self.options() and all(o.source != "assistant" for o in self.options()):
            return "Tab: no other tile: the assistant's tile fits nowhere on your wall."
        return "Tab: no other tile to place now."

    def action_scores(self) -> None:
        """The end screen again, from the finished view (the same scores as `game_end`)."""
        seats = self.view.get("seats") or []
        end = {
            "type": "game_end",
            "scores": [seat["score"] for seat in seats],
            "winners": self.view.get("winners") or [],
        }
        self.app.push_screen(ArtSocietyEnd(end, self.names, self.view), self.after_game_over)

    def action_unchoose(self) -> None:
        if self.chosen:
            self.chosen.pop()
            self._draw_panel()
            self.refresh_bindings()

    def action_cycle_wall(self) -> None:
        seats = self.view.get("seats") or []
        you = self.view.get("you")
        order = [s for s in range(len(seats)) if s != you] + ([you] if you is not None else [])
        if not order:
            return
        current = self.shown
        nxt = order[(order.index(current) + 1) % len(order)] if current in order else order[0]
        self.watching = None if nxt == you else nxt
        self._draw_wall()
        self._draw_others()  # a watcher's small walls are the others than this one
