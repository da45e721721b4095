"""How Art Society looks: genres by letter and colour, frames as brackets, walls as text.

Only the 16 ANSI colours and ASCII marks (the client must read well over SSH).
A wall cell is 3 characters; a painting's top-left cell carries its label, its
genre letter inside its frame's brackets (`[L]` frame 1, `(L)` 2, `{L}` 3,
`<L>` 4); the rest of it is its genre's colour, its left edge `▏` and its
bottom row underlined, so two touching paintings of one genre stay apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text

from modernart.engine.artsociety.rules import GENRES, cell_index, cell_name

from ..words import count

# genre: (its letter, its name, its colour, the colour of text on it)
_GENRE_LOOK = {
    "portrait": ("P", "portrait", "red", "bright_white"),
    "landscape": ("L", "landscape", "green", "black"),
    "still_life": ("S", "still life", "yellow", "black"),
    "city": ("C", "city", "blue", "bright_white"),
}
GENRE_LETTER = {genre: look[0] for genre, look in _GENRE_LOOK.items()}
GENRE_NAME = {genre: look[1] for genre, look in _GENRE_LOOK.items()}
GENRE_COLOUR = {genre: look[2] for genre, look in _GENRE_LOOK.items()}
_ON_GENRE = {genre: look[3] for genre, look in _GENRE_LOOK.items()}
FRAME_BRACKETS = {"f1": "[]", "f2": "()", "f3": "{}", "f4": "<>"}
DECOR_STYLE = "bold black on magenta"
FRAME_LEGEND = "frames [1] (2) {3} <4>"


def genre_text(genre: str, full: bool = True) -> Text:
    label = GENRE_NAME[genre] if full else GENRE_LETTER[genre]
    return Text(label, style=f"bold {GENRE_COLOUR[genre]}")


def tile_label(tile: dict[str, Any]) -> str:
    """`[L]`: a painting's genre letter in its frame's brackets; `+2` for a 2-shield decor."""
    if "genre" not in tile:
        return f"+{tile.get('shields', int(str(tile.get('code', 'd1'))[1:]))} "
    left, right = FRAME_BRACKETS[tile["frame"]]
    return f"{left}{GENRE_LETTER[tile['genre']]}{right}"


def tile_style(tile: dict[str, Any]) -> str:
    if "genre" not in tile:
        return DECOR_STYLE
    genre = tile["genre"]
    return f"{_ON_GENRE[genre]} on {GENRE_COLOUR[genre]}"


def chip(painting: dict[str, Any]) -> Text:
    """A painting in a list: its label in colour, shape, value, genre and frame in words."""
    text = Text(tile_label(painting), style=f"bold {tile_style(painting)}")
    if "genre" not in painting:
        return text.append(f" decor, {count(painting.get('shields') or 0, 'shield')}")
    text.append(f" {painting['w']}×{painting['h']} ")
    text.append(f"val {painting['value']} ", style="bold")
    text.append_text(genre_text(painting["genre"]))
    text.append(f" f{painting['frame'][1:]}", style="dim")
    return text


@dataclass
class Ghost:
    """The tile being placed, where its top-left corner is now, and whether it may go there."""

    tile: dict[str, Any]
    w: int
    h: int
    col: int
    row: int
    ok: bool


def _cover(wall: list[dict[str, Any]], cols: int, rows: int) -> list[tuple[int, int] | None]:
    """Per cell: (index of the tile covering it, 0) or None."""
    grid: list[tuple[int, int] | None] = [None] * (cols * rows)
    for i, tile in enumerate(wall):
        start = cell_index(tile["cell"], cols, rows)
        if start is None:
            continue
        for dy in range(tile["h"]):
            for dx in range(tile["w"]):
                grid[start + dy * cols + dx] = (i, 0)
    return grid


def faux_pas(wall: list[dict[str, Any]], cols: int, rows: int) -> set[int]:
    """Tiles in a faux pas (A24): paintings touching a painting of their genre."""
    grid = _cover(wall, cols, rows)
    out: set[int] = set()
    for c, here in enumerate(grid):
        if here is None or "genre" not in wall[here[0]]:
            continue
        x, y = c % cols, c // cols
        for nx, ny in ((x + 1, y), (x, y + 1)):
            if nx < cols and ny < rows:
                there = grid[ny * cols + nx]
                if there is not None and there[0] != here[0]:
                    a, b = wall[here[0]], wall[there[0]]
                    if a.get("genre") == b.get("genre"):
                        out |= {here[0], there[0]}
    return out


def wall_text(
    layout: dict[str, Any], wall: list[dict[str, Any]], ghost: Ghost | None = None
) -> Text:
    """A full-size wall: column letters, row numbers (eyeline rows marked `>`), star cells."""
    cols, rows = layout["cols"], layout["rows"]
    eyeline = set(layout.get("eyeline") or [])
    stars = {cell_index(s, cols, rows) for s in layout.get("stars") or []}
    grid = _cover(wall, cols, rows)
    wrong = faux_pas(wall, cols, rows)
    ghost_cells: dict[int, bool] = {}  # cell -> is the top-left one
    if ghost is not None:
        for dy in range(ghost.h):
            for dx in range(ghost.w):
                x, y = ghost.col + dx, ghost.row + dy
                if x < cols and y < rows:
                    ghost_cells[y * cols + x] = dx == 0 and dy == 0
    out = Text("   " + "".join(f" {chr(65 + x)} " for x in range(cols)) + "\n", style="dim")
    for y in range(rows):
        line = Text()
        on_eyeline = y + 1 in eyeline
        line.append(f"{y + 1:>2}", style="bold yellow" if on_eyeline else "dim")
        line.append(">" if on_eyeline else " ", style="bold yellow")
        for x in range(cols):
            c = y * cols + x
            if c in ghost_cells:
                assert ghost is not None
                style = "bold bright_white on green" if ghost.ok else "bold bright_white on red"
                if ghost_cells[c]:
                    line.append(tile_label(ghost.tile), style=style)
                elif grid[c] is not None:
                    line.append("XXX", style=style)  # the overlap itself
                elif c in stars:  # a star under the ghost stays in sight (A7)
                    line.append(" * ", style=style)
                else:
                    line.append(" · " if ghost.ok else " x ", style=style)
                continue
            here = grid[c]
            if here is None:
                if c in stars:
                    line.append(" * ", style="bold yellow")
                else:
                    line.append(" · ", style="yellow" if on_eyeline else "bright_black")
                continue
            tile = wall[here[0]]
            top = cell_index(tile["cell"], cols, rows) or 0
            tx, ty = top % cols, top // cols
            style = tile_style(tile)
            if y == ty + tile["h"] - 1:
                style += " underline"
            if (x, y) == (tx, ty):
                label = tile_label(tile)
                if here[0] in wrong:
                    style += " strike"
                line.append(label, style="bold " + style)
            elif x == tx:
                line.append("▏  ", style=style)
            else:  # a decor's too: "+2  +" read as two pieces (play-tests night #9)
                line.append("   ", style=style)
        out.append_text(line)
        if y < rows - 1:
            out.append("\n")
    return out


def museum_text(view: dict[str, Any]) -> Text:
    """The museum's prestige and multipliers per genre, the decor left and the count hung."""
    prestige = view.get("prestige") or {}
    mult = view.get("multipliers") or {}
    text = Text("Museum ", style="bold")
    for i, genre in enumerate(GENRES):
        text.append(" " if i else "")
        text.append_text(genre_text(genre, full=False))  # the letter of the wall's labels
        text.append(f"{prestige.get(genre, 0):>2}→")
        text.append(f"×{mult.get(genre, '?')}", style="bold")
    decor = view.get("decor") or [0, 0, 0]
    text.append("\nDecor ")  # 80 columns leave 42: room for "in museum 100"
    for size, left in enumerate(decor, 1):
        text.append(f"+{size}", style="bold magenta")
        text.append(f":{left} ")
    text.append(f"· in museum {len(view.get('museum') or [])}", style="dim")
    return text


_HALF = "▀"


def mini_text(layout: dict[str, Any], wall: list[dict[str, Any]]) -> Text:
    """A wall in half-blocks: one character per column, two rows per line."""
    cols, rows = layout["cols"], layout["rows"]
    grid = _cover(wall, cols, rows)

    def colour(c: int) -> str:
        here = grid[c]
        if here is None:
            return (
                "bright_black" if c // cols + 1 not in (layout.get("eyeline") or []) else "yellow"
            )
        tile = wall[here[0]]
        return GENRE_COLOUR[tile["genre"]] if "genre" in tile else "magenta"

    out = Text()
    for y in range(0, rows, 2):
        for x in range(cols):
            top = colour(y * cols + x)
            if y + 1 < rows:
                out.append(_HALF, style=f"{top} on {colour((y + 1) * cols + x)}")
            else:
                out.append(_HALF, style=top)
        if y + 2 < rows:
            out.append("\n")
    return out


def cell_of(col: int, row: int, cols: int) -> str:
    return cell_name(row * cols + col, cols)


__all__ = ["GENRES", "Ghost", "chip", "genre_text", "mini_text", "tile_label", "wall_text"]
