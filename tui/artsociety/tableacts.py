"""The Art Society table's keys: what each does and when it may (mixed into
`ArtSocietyTable`, tui/artsociety/table.py)."""

from __future__ import annotations

from typing import Any

from textual.binding import Binding

from .end import ArtSocietyEnd
from .fields import TableFields
from .footerkeys import side_keys_shown
from .look import (
    cell_of,
)
from .placing import problem

QUIET_KEYS = {"w": "cycle_wall", "t": "chat", "pageup": "log_up", "L": "leave"}
MOVES = {"left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1)}


class TableActions(TableFields):
    """The table's key actions, the footer's choice of keys and the refusals' words."""

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
        if action == "exchange":
            return "exchange" in legal
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

    def act(self, action: dict[str, Any]) -> bool:
        self.error = ""  # a refusal's words stand until the next move is sent
        return super().act(action)

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
                if self.act({"type": "shapes", "shapes": list(self.chosen)}):
                    self.chosen = []
                else:  # not sent (the clock moved for you): pressed again, it is
                    self.chosen.pop()
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
