"""Small drivers for the Art Society engine tests: fixed decks, hand-built walls, a turn.

`fixed_deck` lays every pile in table order (`WxH.0` on top), so a test knows
the lot a choice of shapes turns up. `hang` puts a tile straight onto a wall
(a hand-built wall, not a rule under test). `to_place` walks a real game to
the moment `seat` has picked `code` and must place it.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from modernart.engine.artsociety.rules import GENRES, catalogue, decor_code, spot_at
from modernart.engine.artsociety.state import PLACE, ArtSociety
from modernart.engine.errors import RuleError

NAMES = ("Ann", "Bo", "Cy", "Dee")


def fixed_deck(n: int, white: list[int] | None = None, starts: list[str] | None = None) -> dict:
    game = ArtSociety(NAMES[:n], seed=0)
    piles = {
        name: sorted(p, key=lambda c: int(c.split(".")[1]))
        for name, p in game.deck["piles"].items()
    }
    return {
        "piles": piles,
        "starts": starts or list(GENRES[:n]),
        "white": white or list(range(1, n + 1)),
    }


def new_game(n: int = 2, variant: object = None, **deck: Any) -> ArtSociety:
    return ArtSociety(NAMES[:n], variant, fixed_deck(n, **deck))


def act(game: ArtSociety, seat: int, kind: str, **fields: Any) -> list[dict]:
    return game.apply({"type": kind, "seat": seat, **fields})


def assert_refused(
    game: ArtSociety, action: dict, error: type = RuleError, match: str | None = None
) -> None:
    """The action is refused with `error` and the game is exactly as before (views and record)."""
    before = [copy.deepcopy(game.view(s)) for s in range(game.n)], len(game.actions)
    with pytest.raises(error, match=match):
        game.apply(action)
    assert ([game.view(s) for s in range(game.n)], len(game.actions)) == before


def hang(game: ArtSociety, seat: int, code: str, cell: str, turned: bool = False) -> None:
    """Put a tile on a wall without the rules (a hand-built wall)."""
    w, h = game.tile_shape(code, turned)
    game.walls[seat].hang(code, spot_at(game.house.cols, game.house.rows, w, h)[cell], w, h)


def painting(game: ArtSociety, w: int, h: int, genre: str, frame: str | None = None) -> str:
    """A painting code of that shape, genre (and frame) not yet on any wall."""
    used = {t.code for wall in game.walls for t in wall.tiles}
    for code, p in catalogue(game.house.shapes).items():
        fits = (p.w, p.h, p.genre) == (w, h, genre) and frame in (None, p.frame)
        if fits and code not in used and not code.startswith("start."):
            return code
    raise LookupError((w, h, genre, frame))


def start_all(game: ArtSociety, cell: str = "E4") -> None:
    """Every seat hangs its starting painting (2×3) at `cell` (E4 covers both stars)."""
    for seat in range(game.n):
        act(game, seat, "place", tile="start", cell=cell)


def to_place(game: ArtSociety, seat: int, code: str) -> None:
    """Walk to `seat` having picked `code`: it is put on top of its pile and bid highest."""
    if game.phase == "setup":
        start_all(game)
    name = code.split(".")[0]
    pile = game.piles[name]
    pile.remove(code)
    pile.append(code)  # the top
    shapes = [name] + [next(n for n, p in game.piles.items() if len(p) > 2 and n != name)] * game.n
    act(game, game.auctioneer, "shapes", shapes=shapes)
    for s in range(game.n):
        card = max(game.hands[s]) if s == seat else min(game.hands[s])
        act(game, s, "bid", card=card)
    assert game.picker == seat
    act(game, seat, "pick", painting=code)
    assert game.phase == PLACE


__all__ = [
    "NAMES",
    "act",
    "assert_refused",
    "decor_code",
    "fixed_deck",
    "hang",
    "new_game",
    "painting",
    "start_all",
    "to_place",
]


def finish_turn(game: ArtSociety, seat: int) -> None:
    """Decline (revision 1) or take and lose any frame bonus, keep the assistant's tile:
    end `seat`'s placement."""
    while game.picker == seat and game.phase == PLACE:
        legal = game.legal(seat)
        kind = next(k for k in ("decline", "discard", "done", "decor") if k in legal)
        if kind == "decor":
            act(game, seat, kind, size=legal["decor"][0])
        else:
            act(game, seat, kind)


def fill(game: ArtSociety, seat: int, keep: set[str]) -> None:
    """Cover every empty cell of the wall but `keep` with 1-shield decor (a hand-built wall)."""
    wall, cols = game.walls[seat], game.house.cols
    for index in range(cols * game.house.rows):
        cell = f"{chr(65 + index % cols)}{index // cols + 1}"
        if wall.grid[index] < 0 and cell not in keep:
            hang(game, seat, "d1", cell)


def block(top_left: str, w: int, h: int) -> set[str]:
    """The cell names of a w × h block."""
    col, row = ord(top_left[0]), int(top_left[1:])
    return {f"{chr(col + dx)}{row + dy}" for dx in range(w) for dy in range(h)}
