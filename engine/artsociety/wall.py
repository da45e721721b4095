"""A player's wall: placement (A13), the frame bonus count (A18) and scoring (A23–A27).

The wall is a bitmask of covered cells plus a grid of which tile covers each
cell; legal spots are found with one AND per position (rules.spots), cheap
enough for bots to enumerate every move.
"""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

from .rules import DECOR_OF, GENRES, House, Painting, Spot, cell_index, rows_mask, spot_at, spots


class Hung(NamedTuple):
    """A tile on the wall: a painting code or a decor code (`d1`–`d3`)."""

    code: str
    spot: Spot
    w: int
    h: int

    def to_json(self) -> dict[str, Any]:
        return {"tile": self.code, "cell": self.spot.cell, "w": self.w, "h": self.h}


class Wall:
    __slots__ = ("cols", "full_mask", "grid", "occ", "rows", "tiles")

    def __init__(self, cols: int, rows: int) -> None:
        self.cols = cols
        self.rows = rows
        self.occ = 0
        self.full_mask = (1 << (cols * rows)) - 1
        self.grid: list[int] = [-1] * (cols * rows)  # tile index per cell, -1 empty
        self.tiles: list[Hung] = []

    @classmethod
    def from_view(cls, cols: int, rows: int, tiles: list[dict[str, Any]]) -> Wall:
        """A wall rebuilt from a view's `seats[i].wall` (for bots and clients)."""
        wall = cls(cols, rows)
        for tile in tiles:
            w, h = tile["w"], tile["h"]
            wall.hang(tile["code"], spot_at(cols, rows, w, h)[tile["cell"]], w, h)
        return wall

    def problem(self, w: int, h: int, cell: object, first: bool = False) -> str | None:
        """Why a w × h tile may not go with its top-left corner at `cell` (A2, A13), or
        None if it may: what the engine refuses with, and what a client's ghost shows."""
        if cell_index(cell, self.cols, self.rows) is None:
            return f"{cell!r} is not a cell of the wall (A2)"
        spot = spot_at(self.cols, self.rows, w, h).get(cell)  # type: ignore[arg-type]
        if spot is None:
            return f"a {w}×{h} tile at {cell} would leave the wall (A13)"
        if self.occ & spot.mask:
            return f"a {w}×{h} tile at {cell} overlaps a tile (A13)"
        if not first and not self.occ & spot.border:
            return f"a {w}×{h} tile at {cell} shares no edge with a tile (A13)"
        return None

    @property
    def full(self) -> bool:
        return self.occ == self.full_mask

    def empty_cells(self) -> int:
        return self.cols * self.rows - self.occ.bit_count()

    def fits(self, spot: Spot, first: bool = False) -> bool:
        """A13: no overlap and, unless it is the first tile, an edge shared with a tile."""
        occ = self.occ
        return not occ & spot.mask and (first or bool(occ & spot.border))

    def cells_for(self, w: int, h: int) -> list[str]:
        """Every cell where a w × h tile's top-left corner may go now (A13)."""
        occ = self.occ
        return [
            s.cell for s in spots(self.cols, self.rows, w, h) if not occ & s.mask and occ & s.border
        ]

    def can_hang(self, w: int, h: int) -> bool:
        """A13: somewhere for a w × h tile (a loop, not `any`: it runs after every turn)."""
        occ = self.occ
        for s in spots(self.cols, self.rows, w, h):  # noqa: SIM110 (a generator costs more)
            if not occ & s.mask and occ & s.border:
                return True
        return False

    def neighbours(self, spot: Spot) -> set[int]:
        """Indices of the tiles sharing an edge with a tile at `spot`."""
        grid = self.grid
        return {grid[c] for c in spot.border_cells if grid[c] >= 0}

    def frame_matches(self, spot: Spot, frame: str, paintings: dict[str, Painting]) -> int:
        """A18's M: paintings already on the wall sharing an edge and the same frame."""
        count = 0
        for i in self.neighbours(spot):
            painting = paintings.get(self.tiles[i].code)
            if painting is not None and painting.frame == frame:
                count += 1
        return count

    def hang(self, code: str, spot: Spot, w: int, h: int) -> None:
        """Put a tile on the wall (the caller has checked `fits`)."""
        index = len(self.tiles)
        self.tiles.append(Hung(code, spot, w, h))
        self.occ |= spot.mask
        grid = self.grid
        for cell in spot.cells:
            grid[cell] = index

    def shields(self) -> int:
        return sum(DECOR_OF.get(t.code, 0) for t in self.tiles)

    def faux_pas(self, paintings: dict[str, Painting]) -> set[int]:
        """A24: indices of paintings sharing an edge with a painting of their genre."""
        out: set[int] = set()
        tiles = self.tiles
        for i, tile in enumerate(tiles):
            painting = paintings.get(tile.code)
            if painting is None:
                continue
            for j in self.neighbours(tile.spot):
                other = paintings.get(tiles[j].code)
                if other is not None and other.genre == painting.genre:
                    out.add(i)
                    break
        return out


def multipliers(prestige: dict[str, int], table: tuple[int, ...]) -> dict[str, int]:
    """A23: rank by prestige; tied genres share the better rank, the next is skipped."""
    return {g: table[sum(1 for other in GENRES if prestige[other] > prestige[g])] for g in GENRES}


@cache
def corners_mask(cols: int, rows: int) -> int:
    """A27: the wall's four corner cells (A1, J1, A10, J10 on a 10 × 10 wall)."""
    last = cols * rows - 1
    return 1 << 0 | 1 << (cols - 1) | 1 << (last - cols + 1) | 1 << last


def painting_points(house: House, multiplier: int, eyeline_bonus: bool) -> int:
    """A24–A25: what one scoring painting adds; `eyeline_bonus`: its genre is first-ranked
    and it covers an eyeline cell."""
    if not eyeline_bonus:
        return multiplier
    return multiplier + house.eyeline_bonus * multiplier + house.eyeline_points


def empty_cost(house: House, cells: int, corners: int) -> int:
    """A27: what `cells` empty cells cost at the end, `corners` of them corners."""
    return house.empty_penalty * cells + house.corner_penalty * corners


def score(
    wall: Wall,
    excess: int,
    prestige: dict[str, int],
    house: House,
    paintings: dict[str, Painting],
) -> dict[str, Any]:
    """A23–A27: one player's points, broken down for the end screen."""
    mult = multipliers(prestige, house.multipliers)
    best = max(prestige.values())
    zero = wall.faux_pas(paintings)
    eyeline = rows_mask(house.eyeline, wall.cols)
    by_genre = {g: {"count": 0, "multiplier": mult[g], "points": 0} for g in GENRES}
    eyeline_points = 0
    for i, tile in enumerate(wall.tiles):
        painting = paintings.get(tile.code)
        if painting is None or i in zero:
            continue
        entry = by_genre[painting.genre]
        multiplier = mult[painting.genre]
        entry["count"] += 1
        entry["points"] += multiplier
        on_eyeline = prestige[painting.genre] == best and bool(tile.spot.mask & eyeline)  # A25
        eyeline_points += painting_points(house, multiplier, on_eyeline) - multiplier
    shields = wall.shields()
    empty = wall.empty_cells()
    corners = (corners_mask(wall.cols, wall.rows) & ~wall.occ).bit_count()
    parts = {
        "paintings": by_genre,
        "faux_pas": len(zero),
        "eyeline": eyeline_points,
        "shields": shields,
        "excess": -house.excess_penalty * excess,
        "empty": -empty_cost(house, empty, 0),
        "corners": -empty_cost(house, 0, corners),
        "full": house.full_bonus if empty == 0 else 0,
    }
    parts["total"] = (
        sum(e["points"] for e in by_genre.values())
        + eyeline_points
        + shields
        + parts["excess"]
        + parts["empty"]
        + parts["corners"]
        + parts["full"]
    )
    return parts
