"""What the expert's review of a finished game costs (issue 32; engine/review.py): CPU
for a whole review and per decision, for each game, on games of hard bots dealt
from fixed seeds (the same games every run).

Usage: python scripts/bench_review.py [--games 2] [--worlds 16] [--game modernart ...]
CPU time (`time.process_time`) rather than wall time, so other load on the machine
changes the figures less; the 1-minute load is printed beside them. One review
runs at a time, in this process.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from typing import Any

from modernart.engine.games import GAME_NAMES, get_game
from modernart.engine.records import record_of
from modernart.engine.review import DEFAULT_WORLDS, review_decisions
from modernart.engine.selfplay import play_out

PLAYERS = {"modernart": 4, "serengeti": 4, "artsociety": 3}


def finished_record(game: str, seed: int) -> Any:
    """A game of hard bots in every seat, dealt and played from `seed`."""
    info = get_game(game)
    n = PLAYERS.get(game, info.players[0])
    state = info.create([f"P{s}" for s in range(n)], None, seed=seed)
    bots = [info.make_bot("hard", 100 * seed + s) for s in range(n)]
    return record_of(play_out(state, bots, random.Random(seed)))


def measure(game: str, games: int, worlds: int) -> dict[str, Any]:
    cpu = 0.0
    decisions = searched = marked = 0
    for seed in range(games):
        record = finished_record(game, seed)
        start = time.process_time()
        reviewed = list(review_decisions(record, worlds, seed))
        cpu += time.process_time() - start
        decisions += len(reviewed)
        searched += sum(1 for d in reviewed if d.worlds)
        marked += sum(1 for d in reviewed if d.mark)
    return {
        "game": game,
        "games": games,
        "worlds": worlds,
        "cpu_s_per_review": round(cpu / games, 2),
        "decisions_per_review": round(decisions / games, 1),
        "cpu_ms_per_decision": round(1000 * cpu / max(1, decisions), 1),
        "cpu_ms_per_searched_decision": round(1000 * cpu / max(1, searched), 1),
        "marked_per_review": round(marked / games, 1),
        "load_1min": round(os.getloadavg()[0], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--worlds", type=int, default=DEFAULT_WORLDS)
    parser.add_argument("--game", action="append", choices=GAME_NAMES)
    args = parser.parse_args()
    for game in args.game or GAME_NAMES:
        print(json.dumps(measure(game, args.games, args.worlds)), flush=True)


if __name__ == "__main__":
    main()
