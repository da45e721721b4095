"""Art Society's components and house rules (ARTSOCIETY.md A1–A5, A18, A23–A27).

Every house-rule number is a field of `House`, the game's variant: a preset
name, or a mapping that overrides some of ARTSOCIETY.md's defaults, so a
verified value can replace a guess without code changes. `house` is revision 2
of those rules; `house_r1` keeps revision 1's values, and a mapping written
before revision 2 (a record's whole variant object) reads as revision 1.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import cache
from typing import Any, NamedTuple

from ..errors import VariantError

GENRES = ("portrait", "landscape", "still_life", "city")  # A1, in this order
FRAMES = ("f1", "f2", "f3", "f4")  # A1
BID_CARDS = 20  # A5: each player's cards 1..20
WHITE_CARDS = (1, 2, 3, 4)  # A5: the white starting cards
START_SHAPE = (2, 3)  # A3: the starting paintings, 2×3
DECOR_SIZES = (1, 2, 3)  # A4: shields of a decor piece (1×1, 2×1, 3×1)
EXCESS_TO_END = 2  # A22
EXCHANGES = ("same", "any")  # A16 and its variant
FRAME_BONUSES = ("exact", "at_most")  # A18: revision 2, revision 1

# A3's table (house rule): w, h, count, in table order.
DEFAULT_SHAPES = (
    (2, 2, 16),
    (3, 2, 12),
    (2, 3, 12),
    (3, 3, 8),
    (4, 2, 8),
    (2, 4, 8),
    (4, 3, 8),
    (3, 4, 8),
    (5, 2, 4),
    (2, 5, 4),
    (4, 4, 4),
    (5, 3, 4),
    (3, 5, 4),
    (5, 4, 4),
    (4, 5, 4),
    (5, 5, 4),
)


@dataclass(frozen=True, slots=True)
class House:
    """The house rules of ARTSOCIETY.md as settings; defaults are the document's."""

    cols: int = 10  # A2
    rows: int = 10  # A2
    eyeline: tuple[int, ...] = (5, 6)  # A2: rows (1 = top)
    stars: tuple[str, ...] = ("E5", "F6")  # A2
    shapes: tuple[tuple[int, int, int], ...] = DEFAULT_SHAPES  # A3
    decor: tuple[int, int, int] = (48, 36, 24)  # A4: pieces of 1, 2 and 3 shields
    multipliers: tuple[int, int, int, int] = (5, 4, 3, 2)  # A23: ranks 1-4
    eyeline_bonus: int = 0  # A25: extra times the multiplier (revision 1: 1)
    excess_penalty: int = 2  # A27: per excess painting
    empty_penalty: int = 0  # A27: per empty wall cell (revision 1: 1)
    full_bonus: int = 5  # A27
    exchange: str = "same"  # A16: "same" genre, or "any"
    # Added by revision 2; a mapping without them is read as revision 1 (parse_variant).
    frame_bonus: str = "exact"  # A18: "exact" M shields, or "at_most" M (revision 1)
    eyeline_points: int = 3  # A25: points more per painting (revision 1: 0)
    corner_penalty: int = 2  # A27: per empty corner cell (revision 1: 0)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able: tuples become lists."""
        out = asdict(self)
        for key, value in out.items():
            if isinstance(value, tuple):
                out[key] = [list(v) if isinstance(v, tuple) else v for v in value]
        return out


# Revision 1's scoring (A18, A23, A25, A27): what every game before revision 2 played.
REVISION_1: dict[str, Any] = {
    "frame_bonus": "at_most",
    "multipliers": (5, 3, 2, 1),
    "eyeline_bonus": 1,
    "eyeline_points": 0,
    "excess_penalty": 3,
    "empty_penalty": 1,
    "corner_penalty": 0,
}
REVISION_2_KEYS = ("frame_bonus", "eyeline_points", "corner_penalty")  # the fields it added

PRESETS: dict[str, House] = {
    "house": House(),
    "exchange_any": House(exchange="any"),
    "house_r1": House(**REVISION_1),
}
PRESET_HELP: dict[str, str] = {
    "house": "Our house rules where the printed rules were unavailable (F1 at the table).",
    "exchange_any": "As house, but a museum exchange may take a painting of any genre (A16).",
    "house_r1": "Revision 1 of the house rules (decor up to M, ranks ×5 ×3 ×2 ×1, eyeline "
    "the multiplier again, −3 per excess, −1 per empty cell), as games before it played.",
}

_INT_FIELDS = (
    "cols",
    "rows",
    "eyeline_bonus",
    "eyeline_points",
    "excess_penalty",
    "empty_penalty",
    "corner_penalty",
    "full_bonus",
)


def _int(value: object, name: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise VariantError(f"{name} must be an integer from {low} to {high}")
    return value


def _ints(value: object, name: str, count: int | None, low: int, high: int) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or (count is not None and len(value) != count):
        raise VariantError(f"{name} must be a list of {count or 'some'} integers")
    return tuple(_int(v, name, low, high) for v in value)


PARSED_KEPT = 64  # variants parsed and kept: every replay of a record parses its variant
_parsed: dict[str, House] = {}


def parse_variant(value: object, players: int | None = None) -> House:
    """A `House` from None (the defaults), a preset name, a House or a partial mapping.

    A mapping's missing keys take `house`'s values, but a mapping with none of the
    keys revision 2 added and every other key (the whole object a record or a room
    wrote before revision 2) takes revision 1's: such a game scores as it did.
    """
    if value is None:
        return PRESETS["house"]
    if isinstance(value, House):
        return value
    if isinstance(value, str):
        if value not in PRESETS:
            raise VariantError(f"unknown variant preset {value!r}")
        return PRESETS[value]
    if not isinstance(value, dict):
        raise VariantError("variant must be a preset name or an object")
    key = repr(value)  # a record's or a room's plain JSON values: equal reprs, equal objects
    house = _parsed.get(key)
    if house is None:
        house = _parse_mapping(value)
        if len(_parsed) >= PARSED_KEPT:
            _parsed.clear()
        _parsed[key] = house
    return house


def _parse_mapping(value: dict[Any, Any]) -> House:
    """`parse_variant` of a mapping (checked, and parsed afresh)."""
    fields = House.__dataclass_fields__
    extra = set(value) - set(fields)
    if extra:
        raise VariantError(f"unknown variant keys: {sorted(map(str, extra))}")
    settings: dict[str, Any] = {}
    if set(value) == set(fields) - set(REVISION_2_KEYS):
        settings.update(REVISION_1)
    for key in _INT_FIELDS:
        if key in value:
            low, high = (5, 26) if key in ("cols", "rows") else (0, 100)
            settings[key] = _int(value[key], key, low, high)
    cols = settings.get("cols", PRESETS["house"].cols)
    rows = settings.get("rows", PRESETS["house"].rows)
    if "eyeline" in value:
        settings["eyeline"] = _ints(value["eyeline"], "eyeline", None, 1, rows)
    if "decor" in value:
        settings["decor"] = _ints(value["decor"], "decor", 3, 0, 1000)
    if "multipliers" in value:
        settings["multipliers"] = _ints(value["multipliers"], "multipliers", 4, 0, 100)
    if "exchange" in value:
        if value["exchange"] not in EXCHANGES:
            raise VariantError(f"exchange must be one of {EXCHANGES}")
        settings["exchange"] = value["exchange"]
    if "frame_bonus" in value:
        if value["frame_bonus"] not in FRAME_BONUSES:
            raise VariantError(f"frame_bonus must be one of {FRAME_BONUSES}")
        settings["frame_bonus"] = value["frame_bonus"]
    if "stars" in value:
        stars = value["stars"]
        if not isinstance(stars, list | tuple) or not stars:
            raise VariantError("stars must be a non-empty list of cells")
        settings["stars"] = tuple(stars)
    if "shapes" in value:
        shapes = value["shapes"]
        if not isinstance(shapes, list | tuple) or not shapes:
            raise VariantError("shapes must be a non-empty list of [w, h, count]")
        table = tuple(_ints(s, "shapes", 3, 1, 64) for s in shapes)
        if len({(w, h) for w, h, _ in table}) != len(table):
            raise VariantError("each shape may appear once in shapes")
        if any(w > cols or h > rows for w, h, _ in table):
            raise VariantError("every shape must fit on the wall")
        settings["shapes"] = table
    house = House(**settings)
    for star in house.stars:
        if cell_index(star, house.cols, house.rows) is None:
            raise VariantError(f"star {star!r} is not a cell of the wall")
    if any(row > house.rows for row in house.eyeline):
        raise VariantError("eyeline rows must be rows of the wall")
    return house


# ------------------------------------------------------------------ paintings


class Painting(NamedTuple):
    code: str
    w: int
    h: int
    genre: str
    frame: str
    value: int  # A3: w + h - 1


def shape_name(w: int, h: int) -> str:
    return f"{w}x{h}"


def start_code(genre: str) -> str:
    return f"start.{genre}"


@cache
def catalogue(shapes: tuple[tuple[int, int, int], ...]) -> dict[str, Painting]:
    """Every painting of A3: auction paintings `WxH.j` and the four `start.<genre>`."""
    out: dict[str, Painting] = {}
    for k, (w, h, count) in enumerate(shapes):
        for j in range(count):
            genre = GENRES[j % 4]
            frame = FRAMES[(j // 4 + j % 4 + k) % 4]
            code = f"{shape_name(w, h)}.{j}"
            out[code] = Painting(code, w, h, genre, frame, w + h - 1)
    w, h = START_SHAPE
    for g, genre in enumerate(GENRES):
        code = start_code(genre)
        out[code] = Painting(code, w, h, genre, FRAMES[g], w + h - 1)
    return out


def decor_code(size: int) -> str:
    """A decor piece of `size` shields: `d1`, `d2`, `d3` (A4)."""
    return f"d{size}"


DECOR_OF = {decor_code(s): s for s in DECOR_SIZES}


# ----------------------------------------------------------------------- wall


def cell_name(index: int, cols: int) -> str:
    """`A1` is the top-left cell; columns are letters, rows numbers (A2)."""
    return f"{chr(65 + index % cols)}{index // cols + 1}"


def cell_index(name: object, cols: int, rows: int) -> int | None:
    """The index of a cell name on a cols × rows wall, or None if it is not one."""
    if not isinstance(name, str) or not 2 <= len(name) <= 3:
        return None
    col = ord(name[0]) - 65
    digits = name[1:]
    if not digits.isdigit() or digits[0] == "0" or not 0 <= col < cols:
        return None
    row = int(digits) - 1
    if not 0 <= row < rows:
        return None
    return row * cols + col


class Spot(NamedTuple):
    """A tile of w × h with its top-left corner at `index`."""

    index: int
    cell: str
    mask: int  # the cells it covers
    border: int  # the wall cells outside it that share an edge with it
    border_cells: tuple[int, ...]
    cells: tuple[int, ...]  # the cells it covers, by index


@cache
def spots(cols: int, rows: int, w: int, h: int) -> tuple[Spot, ...]:
    """Every position where a w × h tile lies entirely on the wall (A13), top-left first."""
    out = []
    for y in range(rows - h + 1):
        for x in range(cols - w + 1):
            cells = tuple((y + dy) * cols + x + dx for dy in range(h) for dx in range(w))
            mask = 0
            for c in cells:
                mask |= 1 << c
            border_cells = []
            for dx in range(w):
                if y > 0:
                    border_cells.append((y - 1) * cols + x + dx)
                if y + h < rows:
                    border_cells.append((y + h) * cols + x + dx)
            for dy in range(h):
                if x > 0:
                    border_cells.append((y + dy) * cols + x - 1)
                if x + w < cols:
                    border_cells.append((y + dy) * cols + x + w)
            border = 0
            for c in border_cells:
                border |= 1 << c
            index = y * cols + x
            name = cell_name(index, cols)
            out.append(Spot(index, name, mask, border, tuple(border_cells), cells))
    return tuple(out)


@cache
def spot_at(cols: int, rows: int, w: int, h: int) -> dict[str, Spot]:
    return {s.cell: s for s in spots(cols, rows, w, h)}


def rows_mask(rows_list: tuple[int, ...], cols: int) -> int:
    mask = 0
    for row in rows_list:
        mask |= ((1 << cols) - 1) << ((row - 1) * cols)
    return mask
