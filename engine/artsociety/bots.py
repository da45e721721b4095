"""Art Society bots: functions from a player's view to an action; they see no hidden state.

`random`: a uniformly random legal action. `heuristic`: hangs each tile where it
earns the most at once (its genre's multiplier, no faux pas, the eyeline,
cells and corners covered, the frame bonus, a snug fit; the points are the
engine's, wall.painting_points and wall.empty_cost, for the game's variant)
and bids by how much more the best painting of the lot is worth to it than an
average one.
"""

from __future__ import annotations

import random
from typing import Any

from ..bots import LegalBot
from .rules import DECOR_OF, GENRES, Painting, catalogue, parse_variant, rows_mask, spot_at, spots
from .state import ACTION_FIELDS
from .wall import Wall, corners_mask, empty_cost, painting_points

Action = dict[str, Any]


def choose_from_legal(legal: dict[str, Any], rng: random.Random) -> Action | None:
    """A uniformly random action type, then uniformly random bounds within `legal`."""
    if not legal:
        return None
    kind = rng.choice(sorted(legal))
    bounds = legal[kind]
    if kind in ("place", "exchange"):  # an option, then one of its cells
        option = rng.choice(bounds)
        cell = rng.choice(option["cells"])
        return {
            "type": kind,
            **{f: cell if f == "cell" else option[f] for f in ACTION_FIELDS[kind]},
        }
    if kind == "shapes":
        left = dict(bounds["piles"])
        chosen = []
        for _ in range(bounds["count"]):
            name = rng.choice(sorted(n for n, c in left.items() if c))
            left[name] -= 1
            chosen.append(name)
        return {"type": "shapes", "shapes": chosen}
    if kind == "bid":
        return {"type": "bid", "card": rng.choice(bounds)}
    if kind == "pick":
        return {"type": "pick", "painting": rng.choice(bounds)}
    if kind == "decor":
        return {"type": "decor", "size": rng.choice(bounds)}
    return {"type": kind}


class RandomBot(LegalBot):
    level = "random"

    def decide(self, view: dict[str, Any], legal: dict[str, Any]) -> Action | None:
        return choose_from_legal(legal, self.rng)


# How much one bid card is worth spending per point of extra want (see _bid).
WANT_SCALE = 8.0
SNUG = 0.25  # per edge of a new tile against a tile or the wall's rim
DECOR_WORTH = 0.8  # per shield of a frame bonus (not every piece finds a spot)
# Per cell a tile covers, beyond what an empty cell costs (A27): below 0, since a painting
# scores whatever its size (A24) and a smaller one leaves room for more
# (docs/decisions/rules-artsociety.md).
CELL_WORTH = -0.2


class Board:
    """The bot's own wall rebuilt from its view, with what it needs to value moves."""

    def __init__(self, view: dict[str, Any]) -> None:
        variant = view["variant"]
        self.paintings: dict[str, Painting] = catalogue(
            tuple(tuple(s) for s in variant["shapes"])  # type: ignore[misc]
        )
        self.cols, self.rows = variant["cols"], variant["rows"]
        self.house = parse_variant(variant)
        self.corners = corners_mask(self.cols, self.rows)
        me = view["seats"][view["you"]]
        self.wall = Wall.from_view(self.cols, self.rows, me["wall"])
        self.zero = self.wall.faux_pas(self.paintings)
        self.mult: dict[str, int] = view["multipliers"]
        prestige = view["prestige"]
        best = max(prestige.values())
        self.top = {g for g in GENRES if prestige[g] == best}
        self.eyeline = rows_mask(tuple(variant["eyeline"]), self.cols)
        self.decor_left = sum(view["decor"])

    def scores(self, genre: str, mask: int) -> int:
        """A24–A25: what a scoring painting of `genre` covering `mask` adds (the engine's)."""
        first = genre in self.top and bool(mask & self.eyeline)
        return painting_points(self.house, self.mult[genre], first)

    def tile_value(self, code: str, w: int, h: int, spot: Any) -> float:
        """Immediate points of hanging `code` (w × h) at `spot`, plus a snug-fit nudge."""
        wall, paintings = self.wall, self.paintings
        corners = (spot.mask & self.corners).bit_count()
        value = CELL_WORTH * w * h + empty_cost(self.house, w * h, corners)
        rim = 0
        if spot.index % self.cols == 0:
            rim += h
        if (spot.index % self.cols) + w == self.cols:
            rim += h
        if spot.index < self.cols:
            rim += w
        if spot.index // self.cols + h == self.rows:
            rim += w
        touching = sum(1 for c in spot.border_cells if wall.grid[c] >= 0)
        value += SNUG * (rim + touching)
        painting = paintings.get(code)
        if painting is None:  # decor
            return value + DECOR_OF[code]
        genre = painting.genre
        frames = 0
        faux_pas = False
        for i in wall.neighbours(spot):
            other = paintings.get(wall.tiles[i].code)
            if other is None:
                continue
            if other.frame == painting.frame:
                frames += 1
            if other.genre == genre:
                faux_pas = True
                if i not in self.zero:  # it scored until now
                    value -= self.scores(genre, wall.tiles[i].spot.mask)
        if not faux_pas:
            value += self.scores(genre, spot.mask)
        if frames and self.decor_left:  # A18: M shields (at most M in revision 1)
            value += DECOR_WORTH * frames
        return value

    def value_at(self, code: str, w: int, h: int, cell: str) -> float:
        return self.tile_value(code, w, h, spot_at(self.cols, self.rows, w, h)[cell])

    def best_spot(
        self, code: str, turns: tuple[bool, ...] = (False,)
    ) -> tuple[float, str, bool] | None:
        """The best (value, cell, turned) for a tile, or None if it cannot be hung."""
        best = None
        occ = self.wall.occ
        for turned in turns:
            if code in DECOR_OF:
                size = DECOR_OF[code]
                w, h = (1, size) if turned else (size, 1)
            else:
                w, h = self.paintings[code].w, self.paintings[code].h
            for spot in spots(self.cols, self.rows, w, h):
                if occ & spot.mask or not occ & spot.border:
                    continue
                value = self.tile_value(code, w, h, spot)
                if best is None or value > best[0]:
                    best = (value, spot.cell, turned)
        return best

    def painting_worth(self, code: str) -> float:
        """What a painting is worth to this wall now: its best spot, or an excess's cost."""
        best = self.best_spot(code)
        return best[0] if best else -float(self.house.excess_penalty)


class HeuristicBot(LegalBot):
    level = "heuristic"

    def decide(self, view: dict[str, Any], legal: dict[str, Any]) -> Action | None:
        if "bid" in legal:
            return self._bid(view, legal["bid"])
        if "shapes" in legal:
            return self._shapes(view, legal["shapes"])
        board = Board(view)
        if "pick" in legal:
            code = max(legal["pick"], key=board.painting_worth)
            return {"type": "pick", "painting": code}
        if "decor" in legal:
            return self._decor(board, legal, view)
        options = legal.get("place", [])
        by_tile: dict[str, tuple[float, str, bool]] = {}
        for option in options:
            tile = option["tile"]
            code = self._code_of(view, tile)
            for cell in option["cells"]:
                value = board.value_at(code, option["w"], option["h"], cell)
                if tile not in by_tile or value > by_tile[tile][0]:
                    by_tile[tile] = (value, cell, option["turned"])
        if "start" in by_tile:
            # The start anchors the wall: near the middle, over the eyeline.
            option = options[0]
            cell = option["cells"][len(option["cells"]) // 2]
            return {"type": "place", "tile": "start", "cell": cell, "turned": False}
        if "decor" in by_tile:
            _, cell, turned = by_tile["decor"]
            return {"type": "place", "tile": "decor", "cell": cell, "turned": turned}
        if "discard" in legal:
            return {"type": "assist"} if "assist" in legal else {"type": "discard"}
        if "picked" in by_tile:
            value, cell, turned = by_tile["picked"]
            if "assist" in legal and value < 1:
                return {"type": "assist"}
            return {"type": "place", "tile": "picked", "cell": cell, "turned": turned}
        if "assistant" in by_tile and (by_tile["assistant"][0] >= 1 or "done" not in legal):
            _, cell, turned = by_tile["assistant"]
            return {"type": "place", "tile": "assistant", "cell": cell, "turned": turned}
        if "done" in legal:
            return {"type": "done"}
        if "assist" in legal:
            return {"type": "assist"}
        if "exchange" in legal:
            best = max(
                (board.value_at(o["painting"], o["w"], o["h"], cell), o["painting"], cell)
                for o in legal["exchange"]
                for cell in o["cells"]
            )
            return {"type": "exchange", "painting": best[1], "cell": best[2]}
        return {"type": "excess"}

    @staticmethod
    def _code_of(view: dict[str, Any], tile: str) -> str:
        me = view["seats"][view["you"]]
        if tile == "start":
            return me["start"]["code"]
        if tile == "decor":
            return f"d{view['turn']['held']}"
        if tile == "assistant":
            return me["assistant"]["code"]
        return view["turn"]["picked"]["code"]

    def _decor(self, board: Board, legal: dict[str, Any], view: dict[str, Any]) -> Action:
        """The biggest piece that fits on the wall; else one the empty assistant can hold."""
        assistant_free = view["seats"][view["you"]]["assistant"] is None
        for size in sorted(legal["decor"], reverse=True):
            if board.best_spot(f"d{size}", (False, True)) is not None or assistant_free:
                return {"type": "decor", "size": size}
        if "decline" in legal:  # revision 1's bonus of at most M
            return {"type": "decline"}
        return {"type": "decor", "size": min(legal["decor"])}  # to be lost (A18)

    def _bid(self, view: dict[str, Any], hand: list[int]) -> Action:
        """A card by how much more the lot's best painting is worth than an average one."""
        board = Board(view)
        worth = sorted((board.painting_worth(p["code"]) for p in view["lot"]), reverse=True)
        want = worth[0] - sum(worth) / len(worth)
        share = min(1.0, max(0.0, want / WANT_SCALE))
        cards = sorted(hand)
        return {"type": "bid", "card": cards[round(share * (len(cards) - 1))]}

    def _shapes(self, view: dict[str, Any], bounds: dict[str, Any]) -> Action:
        """The shapes that fit its own wall best (the genres are still face down)."""
        board = Board(view)
        fits = []
        for name, count in bounds["piles"].items():
            w, h = (int(x) for x in name.split("x"))
            occ = board.wall.occ
            best = max(
                (
                    w * h * (CELL_WORTH + board.house.empty_penalty)
                    + SNUG * sum(1 for c in s.border_cells if board.wall.grid[c] >= 0)
                    for s in spots(board.cols, board.rows, w, h)
                    if not occ & s.mask and occ & s.border
                ),
                default=-10.0,
            )
            fits.append((best + self.rng.random() * 0.01, name, count))
        fits.sort(reverse=True)
        chosen: list[str] = []
        for _, name, count in fits:
            take = min(count, bounds["count"] - len(chosen))
            chosen += [name] * take
            if len(chosen) == bounds["count"]:
                break
        return {"type": "shapes", "shapes": chosen}


BOTS: dict[str, type] = {"random": RandomBot, "heuristic": HeuristicBot}
DEFAULT_LEVEL = "heuristic"
BOT_HELP = {
    "random": "Any legal move, at random.",
    "heuristic": "Hangs for immediate points; bids by how much it wants the lot's best painting.",
}
