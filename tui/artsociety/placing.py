"""The placement ghost: which tile is being placed, where, and why a spot is refused.

Pure logic over the view (no widgets), so the screen only moves a cursor and
draws. Legality is the view's own `legal` cells; the reason for a refusal is
the engine's check (`Wall.problem`), the very message the server would send.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from modernart.engine.artsociety.rules import cell_index, rows_mask, spot_at
from modernart.engine.artsociety.wall import Wall, painting_points

from .look import Ghost, cell_of
from .values import house_of


@dataclass
class Option:
    """One way to place something now: an action, its tile, its shape and its legal cells."""

    kind: str  # "place" or "exchange"
    tile: dict[str, Any]  # what the ghost shows (a painting or a decor piece)
    w: int
    h: int
    cells: list[str]
    source: str  # place: start|picked|assistant|decor; exchange: the museum code
    turned: bool = False

    def action(self, cell: str) -> dict[str, Any]:
        if self.kind == "exchange":
            return {"type": "exchange", "painting": self.source, "cell": cell}
        action: dict[str, Any] = {"type": "place", "tile": self.source, "cell": cell}
        if self.turned:
            action["turned"] = True
        return action

    @property
    def name(self) -> str:
        return {
            "start": "your starting painting",
            "picked": "the picked painting",
            "assistant": "the assistant's tile",
            "decor": "the decor piece",
        }.get(self.source, "the museum painting")


def place_options(view: dict[str, Any], exchange: bool = False) -> list[Option]:
    """The tiles that may be placed now (or, in exchange mode, the museum's offers)."""
    legal = view.get("legal") or {}
    you = view.get("you")
    seats = view.get("seats") or []
    me = seats[you] if isinstance(you, int) and you < len(seats) else {}
    out: list[Option] = []
    if exchange:
        museum = {p["code"]: p for p in view.get("museum") or []}
        for offer in legal.get("exchange") or []:
            tile = museum.get(offer["painting"], {"code": offer["painting"]})
            out.append(
                Option("exchange", tile, offer["w"], offer["h"], offer["cells"], offer["painting"])
            )
        return out
    turn = view.get("turn") or {}
    for opt in legal.get("place") or []:
        source = opt["tile"]
        if source == "start":
            tile = me.get("start") or {}
        elif source == "picked":
            tile = turn.get("picked") or {}
        elif source == "assistant":
            tile = me.get("assistant") or {}
        else:
            size = turn.get("held") or 1
            tile = {"code": f"d{size}", "shields": size}
        out.append(
            Option("place", tile, opt["w"], opt["h"], opt["cells"], source, bool(opt.get("turned")))
        )
    return out


def problem(view: dict[str, Any], option: Option, col: int, row: int) -> str | None:
    """None if the option's tile may go with its top-left corner here, else why not."""
    layout = view.get("wall") or {}
    cols, rows = layout.get("cols", 10), layout.get("rows", 10)
    cell = cell_of(col, row, cols)
    if cell in option.cells:
        return None
    you = view.get("you")
    tiles = (view.get("seats") or [])[you]["wall"] if isinstance(you, int) else []
    first = option.source == "start"
    reason = Wall.from_view(cols, rows, tiles).problem(option.w, option.h, cell, first)
    if reason:
        return reason
    if first:
        return f"a starting painting at {cell} must cover a star cell (A7)"
    return f"not a spot for {option.name} now"


def nearest(option: Option, col: int, row: int, cols: int, rows: int) -> tuple[int, int]:
    """The legal top-left cell closest to (col, row): where a new ghost starts."""
    best: tuple[int, int] | None = None
    best_d = 10**9
    for cell in option.cells:
        index = cell_index(cell, cols, rows)
        if index is None:
            continue
        x, y = index % cols, index // cols
        d = abs(x - col) + abs(y - row)
        if d < best_d:
            best, best_d = (x, y), d
    return best if best is not None else (col, row)


def ghost(option: Option, col: int, row: int, ok: bool) -> Ghost:
    return Ghost(option.tile, option.w, option.h, col, row, ok)


@dataclass(frozen=True)
class Preview:
    """What hanging a painting at a spot brings (A18, A24, A25), by the variant's values."""

    frames: int = 0  # A18's M: touching paintings of its frame
    faux_pas: int = 0  # touching paintings of its own genre (A24)
    multiplier: int = 0  # what it scores now if it is in no faux pas (A23)
    eyeline: int = 0  # A25's points more: a first-ranked genre over the eyeline


def preview(view: dict[str, Any], option: Option, col: int, row: int) -> Preview:
    """What hanging a painting here brings; nothing for decor."""
    genre, frame = option.tile.get("genre"), option.tile.get("frame")
    if genre is None:
        return Preview()
    layout = view.get("wall") or {}
    cols, rows = layout.get("cols", 10), layout.get("rows", 10)
    you = view.get("you")
    tiles = (view.get("seats") or [])[you]["wall"] if isinstance(you, int) else []
    wall = Wall.from_view(cols, rows, tiles)
    spot = spot_at(cols, rows, option.w, option.h).get(cell_of(col, row, cols))
    if spot is None:
        return Preview()
    touching = [tiles[i] for i in wall.neighbours(spot)]
    frames = sum(1 for t in touching if t.get("frame") == frame)
    same = sum(1 for t in touching if t.get("genre") == genre)
    multiplier = (view.get("multipliers") or {}).get(genre, 0)
    prestige = view.get("prestige") or {}
    first = bool(prestige) and prestige.get(genre) == max(prestige.values())
    on_eyeline = first and bool(spot.mask & rows_mask(tuple(layout.get("eyeline") or ()), cols))
    house = house_of(view.get("variant"))
    eyeline = painting_points(house, multiplier, on_eyeline) - multiplier
    return Preview(frames, same, multiplier, eyeline)
