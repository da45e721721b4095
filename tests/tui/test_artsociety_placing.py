"""The ghost's logic agrees with the engine on every cell of real games (A7, A13, A18, A24):
a cell is green exactly when `legal` offers it, every other cell gets the engine's reason,
and the preview's frame matches are the engine's M."""

from __future__ import annotations

import pytest
from artsociety_offline import NAMES

from modernart.engine.artsociety.bots import HeuristicBot
from modernart.engine.artsociety.rules import spot_at
from modernart.engine.artsociety.state import ArtSociety
from modernart.tui.artsociety.placing import place_options, preview, problem


@pytest.mark.parametrize("seed", [1, 2])
def test_a13_a18_ghost_matches_the_engine_on_every_cell(seed: int) -> None:
    game = ArtSociety(NAMES, seed=seed)
    bots = [HeuristicBot(s) for s in range(4)]
    checked = bonus_seen = 0
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
                    frames, same = preview(view, option, col, row)
                    painting = game.paintings.get(option.tile.get("code", ""))
                    if painting is None:
                        assert frames == 0  # decor earns no bonus
                        continue
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
    assert checked >= 10 and bonus_seen
