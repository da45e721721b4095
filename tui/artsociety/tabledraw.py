"""The Art Society table's drawing: your wall with its ghost, the others' walls, the museum,
the panel of the decision and your part (mixed into `ArtSocietyTable`, tui/artsociety/table.py).

Each is a `LinePanel` (tui/lines.py, issue 31) given its text as lines: an update draws
only the lines it has not drawn before and repaints only the rows that changed. Border
titles are set only when they change, since setting one repaints the whole widget.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from modernart.engine.artsociety.wall import Wall

from ..borders import titled
from ..lines import LinePanel
from ..words import count, host_name, short_name
from .fields import TableFields
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
from .others import OtherWalls
from .placing import ghost, preview, problem
from .values import frame_bonus, wall_hint


def lines_of(text: Text) -> list[Text]:
    """A text's lines, each a paragraph of a panel: a blank one after a last newline, as a
    `Static` shows it."""
    return list(text.split("\n", allow_blank=True))


class TableDrawing(TableFields):
    """What the table draws from its view, its cursor and its choices."""

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
        self.drawn_from.clear()
        self.query_one("#as-wall", LinePanel).set_lines(lines_of(wall_text(layout, [])))
        self.query_one("#as-others", OtherWalls).show([])
        self.query_one("#as-museum", LinePanel).set_lines("")
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
        panel = self.query_one("#as-panel", LinePanel)
        titled(panel, "Table")
        panel.set_lines(lines_of(text))

    def _draw_wall(self) -> None:
        widget = self.query_one("#as-wall", LinePanel)
        view = self.view
        seats = view.get("seats") or []
        if not seats:
            self.drawn_from.pop("wall", None)
            widget.set_lines("")
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
        if not self._unchanged("wall", layout, seat.get("wall"), the_ghost):
            widget.set_lines(lines_of(wall_text(layout, seat.get("wall") or [], the_ghost)))
        title = "Your wall" if shown == you else f"{seat.get('name')}'s wall"
        titled(
            widget,
            f"{title} · {count(seat['score']['total'], 'pt')}",
            "> eyeline  * star" if shown == you else "w: next wall",
        )

    def _unchanged(self, part: str, *inputs: Any) -> bool:
        """Whether `part` was last drawn from these inputs, which then need not be drawn
        again: building a wall's text costs more than comparing what it is built from."""
        key = repr(inputs)
        if self.drawn_from.get(part) == key:
            return True
        self.drawn_from[part] = key
        return False

    @property
    def shown(self) -> int:
        """The seat whose wall is shown full size: yours, or one chosen with `w`."""
        you = self.view.get("you")
        return self.watching if self.watching is not None else (you if you is not None else 0)

    def _draw_others(self) -> None:
        view = self.view
        seats = view.get("seats") or []
        # A watcher's small walls are those not shown full size: 3 of 4 fit at 80 columns.
        you = view.get("you") if view.get("you") is not None else self.shown
        layout = view.get("wall") or {"cols": 10, "rows": 10}
        others = [(s, seat) for s, seat in enumerate(seats) if s != you]
        if self._unchanged("others", layout, view.get("to_act"), others):
            return
        cells: list[Text] = []
        for s, seat in others:
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
        self.query_one("#as-others", OtherWalls).show(cells)

    def _draw_museum(self) -> None:
        self.query_one("#as-museum", LinePanel).set_lines(lines_of(museum_text(self.view)))

    def _who(self, seat: object) -> str:
        names = self.names
        if seat == self.view.get("you"):
            return "You"
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    def _draw_panel(self) -> None:
        widget = self.query_one("#as-panel", LinePanel)
        view = self.view
        if not view:
            return
        legal = self.legal
        text = Text()
        phase = view.get("phase")
        title = {
            "setup": "Setup",
            "prepare": "Choosing the lot",
            "bid": "Bidding for the pick order",
            "pick": "Picking",
            "place": "Placing",
            "over": "Game over",
        }.get(str(phase), "Table")
        picker = (view.get("turn") or {}).get("seat")
        if phase in ("pick", "place") and picker is not None:
            title += f": {self._who(picker)}"
        elif phase == "prepare":
            title += f": {self._who(view.get('auctioneer'))}"
        titled(widget, title)
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
        widget.set_lines(lines_of(text))

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
            left = shapes["piles"][name] - self.chosen.count(name)  # A9: what the lot took
            label = f"{w}×{h}:{left:<2}"
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
        widget = self.query_one("#as-you", LinePanel)
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
        widget.set_lines(lines_of(text))
        stack = view.get("stack") or []
        # A8: the white card at the bottom of your stack breaks tied bids
        white = f" · white {stack[0]} breaks ties" if stack else ""
        titled(widget, "Your bid cards" + white, FRAME_LEGEND)
