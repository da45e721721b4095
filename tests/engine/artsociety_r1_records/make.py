"""How the records in this folder were made: by main at de5acb5, before revision 2.

Each `NAME.json` is a record (`record_of`, as the server writes it) of bots playing
Art Society; `NAME.result.json` is what `modernart replay` said of it then. Re-running
this with a later engine writes later records, not revision 1's: keep the files.

    .venv/bin/python tests/engine/artsociety_r1_records/make.py
"""

from __future__ import annotations

import json
from pathlib import Path

from modernart.engine.artsociety.bots import HeuristicBot, RandomBot
from modernart.engine.artsociety.state import ArtSociety
from modernart.engine.records import dump_record, record_of, replay

HERE = Path(__file__).parent
NAMES = ("Ann", "Bo", "Cy", "Dee")
# name: (players, variant, seed, heuristic seats, actions to stop after or None)
GAMES = {
    "house_2p": (2, "house", 11, (0,), None),
    "house_3p": (3, "house", 12, (0, 2), None),
    "house_4p": (4, "house", 13, (1,), None),
    "random_4p": (4, "house", 14, (), None),
    "exchange_any_3p": (3, "exchange_any", 15, (0,), None),
    "unfinished_3p": (3, "house", 16, (1,), 60),
}


def play(n: int, variant: str, seed: int, heuristic: tuple[int, ...], stop: int | None):
    game = ArtSociety(NAMES[:n], variant, seed=seed)
    bots = [HeuristicBot(seed + s) if s in heuristic else RandomBot(seed + s) for s in range(n)]
    while not game.finished and (stop is None or len(game.actions) < stop):
        seat = game.to_act()[-1]
        game.apply({**bots[seat].choose(game.view(seat)), "seat": seat})
    return game


def main() -> None:
    for name, spec in GAMES.items():
        record = record_of(play(*spec))
        (HERE / f"{name}.json").write_text(dump_record(record), encoding="utf-8")
        result = json.dumps(replay(record), indent=1) + "\n"
        (HERE / f"{name}.result.json").write_text(result, encoding="utf-8")


if __name__ == "__main__":
    main()
