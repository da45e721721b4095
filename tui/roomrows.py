"""The lobby's rooms as table rows: the columns, and each room's cells.

Where even the widest cells fit (`WIDE`) each column takes what its cells need. On a
narrower screen every column still shows (play-tests 2026-12-03 evening #7: at 80 "Variant"
was cut and Lock and Watch were off the screen; night #3: at 101 columns, a 760 px page,
Watch was cut to "W" beside a horizontal scroll bar): the cells are set in fixed widths one
space apart, not Textual's two, and the room's name, its players and its variant share what
the others leave, each cut with "…" where longer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text

from modernart.engine.games import DEFAULT_GAME, GAME_NAMES, GameInfo, get_game

from .away import status_word
from .createroom import game_choice
from .tablekeys import hints_allowed
from .words import short_name

COLUMNS = ("Room", "Game", "Seats", "Players", "Status", "Variant", "Lock", "Watch")
# The columns whose cells have a known longest ("Art Society*", "finished") …
FIXED = {"Game": 12, "Seats": 5, "Status": 8, "Lock": 4, "Watch": 5}
# … and the shares of the width they leave, for those whose cells are cut to fit, each
# at most as wide as its cells get: a room's name (the server's 40), whole players' names,
# a variant ("classic_3p_virtual, no hints"; longer ones are cut).
SHARES = {"Room": 0.4, "Players": 0.3, "Variant": 0.3}
MOST = {"Room": 40, "Players": 30, "Variant": 28}
# The table's own: its border (2), a vertical scroll bar (1: app.tcss) and the cursor's
# mark with its space (2), then one space after each column.
FRAME = 5
# From this screen width on, columns as wide as their cells (Textual's two spaces apart):
# the widest cells fit.
WIDE = FRAME + 2 * len(COLUMNS) + sum(FIXED.values()) + sum(MOST.values())


def game_info(name: Any) -> GameInfo | None:
    """The registered game `name` (None: Modern Art, as from a server without games)."""
    name = name or DEFAULT_GAME
    return get_game(name) if name in GAME_NAMES else None


def variant_label(variant: Any, game: str | None = None) -> str:
    """A preset's name when the variant is one of its game's, else its settings."""
    if isinstance(variant, str):
        return variant
    info = game_info(game)
    if isinstance(variant, dict):
        for name, preset in (info.presets if info else {}).items():
            if preset == variant:
                return name
        return "+".join(str(v) for v in variant.values())
    return "?"


def fit_names(names: list[str], width: int) -> str:
    """Whole names, as many as fit in `width`, then "+N" for the others ("alice, bob
    +2"), never a name cut in the middle ("alice, bob, Hu")."""
    shown: list[str] = []
    for i, name in enumerate(names):
        rest = len(names) - i - 1
        more = f" +{rest}" if rest else ""
        line = ", ".join([*shown, name]) + more
        if len(line) > width:
            if not shown:
                return short_name(name, width - len(more)) + more
            return ", ".join(shown) + f" +{len(names) - i}"
        shown.append(name)
    return ", ".join(shown)


def needs(rooms: list[dict[str, Any]]) -> dict[str, int]:
    """The widths the shared columns' cells take whole, for `Layout.of` (no rooms: none
    said, and the columns take their shares)."""
    cells = [_shared_cells(room) for room in rooms]
    return {name: max(len(c[i]) for c in cells) for i, name in enumerate(SHARES)} if cells else {}


def _shared_cells(room: dict[str, Any]) -> tuple[str, str, str]:
    """A room's name, players and variant, whole (the columns of `SHARES`, in order)."""
    variant = variant_label(room.get("variant"), room.get("game"))
    if not hints_allowed(room):
        variant += ", no hints"
    players = ", ".join(s for s in room.get("seated") or [] if s)
    return str(room.get("name") or room["id"]), players, variant


def has_free_seat(room: dict[str, Any]) -> bool:
    """A waiting room with a seat for one more player."""
    seated = room.get("seated") or []
    return room.get("status") == "waiting" and sum(1 for s in seated if s) < room.get("seats", 0)


@dataclass(frozen=True)
class Layout:
    """The columns' widths for a screen's width (None: each as wide as its cells)."""

    widths: tuple[int, ...] | None

    @classmethod
    def of(cls, screen_width: int, needs: dict[str, int] | None = None) -> Layout:
        """The widths for `screen_width`; `needs`: what the shared columns' widest cells
        take (`needs(rooms)`; None: their most). A column gets its share at most, and what
        the others leave goes to those still cut, the room's name first (play-test
        2026-12-05: at 101 columns "alice's tab… · rematch" beside an empty Variant)."""
        if screen_width >= WIDE:
            return cls(None)
        rest = screen_width - FRAME - len(COLUMNS) - sum(FIXED.values())
        want = {n: min(MOST[n], max(len(n), (needs or MOST).get(n, MOST[n]))) for n in SHARES}
        shared = {n: min(want[n], max(4, int(rest * share))) for n, share in SHARES.items()}
        left = max(0, rest - sum(shared.values()))  # what rounding, caps and needs left over
        for name in SHARES:
            more = max(0, min(left, want[name] - shared[name]))
            shared[name] += more
            left -= more
        return cls(tuple(FIXED.get(name) or shared[name] for name in COLUMNS))

    def width(self, column: str, wide: int) -> int:
        return wide if self.widths is None else self.widths[COLUMNS.index(column)]

    def cells(self, room: dict[str, Any]) -> list[Any]:
        """A room's row, in COLUMNS' order. What players typed (room and player names)
        is text, never markup (issue 21): a DataTable parses markup in plain strings."""
        seated = room.get("seated") or []
        taken = sum(1 for s in seated if s)
        info = game_info(room.get("game"))
        name, _, variant = _shared_cells(room)
        return [
            Text(short_name(name, self.width("Room", MOST["Room"]))),
            game_choice(info) if info else Text(str(room.get("game"))),
            f"{taken}/{room.get('seats', len(seated))}",
            Text(fit_names([s for s in seated if s], self.width("Players", MOST["Players"]))),
            Text(status_word(room)),
            Text(short_name(variant, self.width("Variant", MOST["Variant"]))),
            "yes" if room.get("locked") else "",
            str(room.get("spectators", 0)),
        ]
