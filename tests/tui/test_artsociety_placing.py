"""The ghost's logic agrees with the engine on every cell of real games (A7, A13, A18, A24):
a cell is green exactly when `legal` offers it, every other cell gets the engine's reason,
the preview's frame matches are the engine's M and what it says a painting scores is what
the engine's scoring adds (A23–A25), in revision 2 and revision 1."""

from __future__ import annotations

import pytest
from artsociety_offline import NAMES

from modernart.engine.artsociety.bots import HeuristicBot
from modernart.engine.artsociety.rules import spot_at
from modernart.engine.artsociety.state import ArtSociety
from modernart.engine.artsociety.wall import Wall, score
from modernart.tui.artsociety.placing import Preview, place_options, preview, problem


def painting_points(game: ArtSociety, seat: int, code: str | None = None, cell: str = "") -> int:
    """The engine's A24 + A25 points of seat's wall, with `code` hung at `cell` if given."""
    view = game.view(seat)
    wall = Wall.from_view(10, 10, view["seats"][seat]["wall"])
    if code is not None:
        p = game.paintings[code]
        wall.hang(code, spot_at(10, 10, p.w, p.h)[cell], p.w, p.h)
    parts = score(wall, 0, game.prestige, game.house, game.paintings)
    return sum(e["points"] for e in parts["paintings"].values()) + parts["eyeline"]


@pytest.mark.parametrize(("seed", "variant"), [(1, "house"), (2, "house"), (3, "house_r1")])
def test_a13_a18_a25_ghost_matches_the_engine_on_every_cell(seed: int, variant: str) -> None:
    game = ArtSociety(NAMES, variant, seed=seed)
    bots = [HeuristicBot(s) for s in range(4)]
    checked = bonus_seen = eyeline_seen = 0
    while not game.finished and checked < 40:
        seat = game.to_act()[0]
        view = game.view(seat)
        for option in place_options(view):
            for row in range(10):
                for col in range(10):
                    cell = f"{chr(65 + col)}{row + 1}"
                    reason = problem(view, option, col, row)
                    assert (reason is None) == (cell in option.cells), (cell, reason)
                    if reason is not None:
                        assert "(A13)" in reason or "(A7)" in reason
                        continue
                    brings = preview(view, option, col, row)
                    frames, same = brings.frames, brings.faux_pas
                    painting = game.paintings.get(option.tile.get("code", ""))
                    if painting is None:
                        assert brings == Preview()  # decor earns no bonus
                        continue
                    if not same and option.source != "start":
                        now = painting_points(game, seat)
                        then = painting_points(game, seat, painting.code, cell)
                        assert brings.multiplier + brings.eyeline == then - now
                        eyeline_seen += brings.eyeline > 0
                    spot = spot_at(10, 10, option.w, option.h)[cell]
                    m = game.walls[seat].frame_matches(spot, painting.frame, game.paintings)
                    assert frames == m
                    wall = game.walls[seat]
                    touching = [
                        game.paintings.get(wall.tiles[i].code) for i in wall.neighbours(spot)
                    ]
                    assert same == sum(1 for p in touching if p and p.genre == painting.genre)
                    bonus_seen += m > 0
            checked += 1
        game.apply({**bots[seat].choose(view), "seat": seat})
    assert checked >= 10 and bonus_seen and eyeline_seen
