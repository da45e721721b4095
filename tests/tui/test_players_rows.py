"""Issue 31: the players' panels keep each seat's row by all it shows (`made`), since the
turn marker moves with every update and the other rows stay. Over whole games, from
every seat and a watcher's view, the rows kept are the rows built afresh."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rich.text import Text

from modernart.engine.games import get_game
from modernart.engine.selfplay import bot_move
from modernart.tui.modernart.players import players_lines as modernart_rows
from modernart.tui.serengeti.players import players_lines as serengeti_rows

NAMES = ["Ann", "Bob", "Cy", "Dee"]


def drawn(rows: list[Text]) -> list[tuple[str, list[Any]]]:
    return [(row.plain, list(row.spans)) for row in rows]


@pytest.mark.parametrize("name", ["modernart", "serengeti"])
def test_rows_kept_are_the_rows_built_afresh_over_whole_games(name: str) -> None:
    info = get_game(name)
    rows = {
        "modernart": lambda view, made: modernart_rows(view, 10, made),
        "serengeti": lambda view, made: serengeti_rows(view, 10, 76, made),
    }[name]
    kept = 0
    for seed in (1, 2):
        game = info.create(NAMES, seed=seed)
        bots = [info.make_bot("random", seat) for seat in range(game.n)]
        rng = random.Random(seed)
        made: dict[str, Any] = {}
        while not game.finished:
            for seat in (*range(game.n), None):
                view = game.view(seat)
                before = len(made)
                assert drawn(rows(view, made)) == drawn(rows(view, None))
                kept += len(made) == before  # every row came from `made`
            if bot_move(game, bots, rng) is None:
                game.apply(dict(info.hammer))
    assert kept > 100  # the rows were taken from what was kept, not only built
