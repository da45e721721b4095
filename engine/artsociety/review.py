"""Art Society's terms for the expert's review (engine/review.py): losses in points."""

from __future__ import annotations

from typing import Any

from ..review import ReviewTerms

Action = dict[str, Any]
Box = tuple[int, int, int, int]  # column, row, width, height


def reason(view: dict[str, Any], action: Action, better: Action | None) -> str | None:
    """A24: a painting hung beside a painting of its genre makes a faux pas."""
    if action["type"] != "place":
        return None
    painting = _tile(view, action["tile"])
    size = next(
        (
            (o["w"], o["h"])
            for o in view["legal"].get("place", [])
            if o["tile"] == action["tile"] and o["turned"] == action.get("turned", False)
        ),
        None,
    )
    if painting is None or size is None or "genre" not in painting:
        return None
    box = (*_cell(action["cell"]), *size)
    for tile in view["seats"][view["you"]]["wall"]:
        if tile.get("genre") == painting["genre"] and _touch(
            box, (*_cell(tile["cell"]), tile["w"], tile["h"])
        ):
            genre = painting["genre"].replace("_", " ")
            return f"this {genre} touches another {genre}: both score nothing (faux pas)"
    return None


def _tile(view: dict[str, Any], tile: str) -> dict[str, Any] | None:
    turn = view.get("turn") or {}
    found = turn.get(tile)
    return found if isinstance(found, dict) else None


def _cell(cell: str) -> tuple[int, int]:
    return ord(cell[0]) - ord("A"), int(cell[1:]) - 1


def _touch(a: Box, b: Box) -> bool:
    """Two rectangles share an edge (corners do not count, A13)."""
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    rows_overlap = ay < by + bh and by < ay + ah
    cols_overlap = ax < bx + bw and bx < ax + aw
    side = (ax + aw == bx or bx + bw == ax) and rows_overlap
    top = (ay + ah == by or by + bh == ay) and cols_overlap
    return side or top


# Points: the seat's points less its rivals' at the round's end (the expert's score).
TERMS = ReviewTerms(
    unit="points",
    measure="your points less your rivals' at the round's end",
    thresholds=(3, 8, 15),
    reason=reason,
)
