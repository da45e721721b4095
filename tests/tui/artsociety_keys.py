"""A key-only Art Society player for pilot tests: which keys to press for the view on screen.

It reads what the player sees (the view, the ghost's place) and answers with key
presses only; the placement it aims for is the legal spot with the most matching
frames next to it (a player after frame bonuses, A18).
"""

from __future__ import annotations

from typing import Any

from modernart.engine.artsociety.rules import cell_index, spot_at
from modernart.engine.artsociety.wall import Wall
from modernart.tui.artsociety import ArtSocietyTable


def arrows(start: tuple[int, int], goal: tuple[int, int]) -> list[str]:
    (x, y), (gx, gy) = start, goal
    keys = ["right" if gx > x else "left"] * abs(gx - x)
    return keys + ["down" if gy > y else "up"] * abs(gy - y)


def best_cell(view: dict[str, Any], cells: list[str], w: int, h: int, frame: str | None) -> str:
    """The legal cell whose spot touches the most paintings of `frame` (A18's M)."""
    layout = view["wall"]
    cols, rows = layout["cols"], layout["rows"]
    tiles = view["seats"][view["you"]]["wall"]
    frames = {t["code"]: t.get("frame") for t in tiles}
    wall = Wall.from_view(cols, rows, tiles)

    def matches(cell: str) -> int:
        if frame is None:
            return 0
        spot = spot_at(cols, rows, w, h)[cell]
        return sum(1 for i in wall.neighbours(spot) if frames[wall.tiles[i].code] == frame)

    return max(cells, key=matches)


def keys_for(table: ArtSocietyTable, turn: int = 0) -> tuple[list[str], bool]:
    """The key presses for the decision on screen, and whether they send an action."""
    view, legal = table.view, table.legal
    if not legal or view.get("finished"):
        return [], False
    if "shapes" in legal:
        shapes = legal["shapes"]
        piles = list(shapes["piles"])
        name = piles[table.pointer % len(piles)]
        if table.chosen.count(name) >= shapes["piles"][name] or turn % 3 == 0:
            return ["right"], False
        return ["enter"], len(table.chosen) + 1 >= shapes["count"]
    return _sending_keys(table, turn), True


def _sending_keys(table: ArtSocietyTable, turn: int) -> list[str]:
    view, legal = table.view, table.legal
    if "bid" in legal:
        cards = legal["bid"]
        steps = turn % len(cards)  # the cursor stops at the highest card
        card = cards[min(table.pointer + steps, len(cards) - 1)]
        # "Bid 2?" asks first, for a far card the cursor was not moved to
        sure = ["y"] if not steps and table.far_bid(card) is not None else []
        return ["right"] * steps + ["enter", *sure]
    if "pick" in legal:
        return ["down"] * (turn % len(legal["pick"])) + ["enter"]
    if "decor" in legal:
        return [str(max(legal["decor"]))]
    option = table.current()
    if option is not None:
        cols, rows = view["wall"]["cols"], view["wall"]["rows"]
        cell = best_cell(view, option.cells, option.w, option.h, option.tile.get("frame"))
        index = cell_index(cell, cols, rows)
        assert index is not None
        return [*arrows(table.cursor, (index % cols, index // cols)), "enter"]
    for key, kind in (("e", "excess"), ("a", "assist"), ("l", "discard"), ("d", "done")):
        if kind in legal:
            return [key]
    raise AssertionError(f"no key for {legal}")
