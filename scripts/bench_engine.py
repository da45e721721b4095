"""Engine speed on one core: random-bot games and record replays per second.

Usage: python scripts/bench_engine.py [--games N] [--seconds S]
The last lines are `random_games_per_s: N` and `replay_games_per_s: N`.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from modernart.engine import Game, record_of
from modernart.engine.bots.random_bot import choose_from_legal

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
CLOSE = {"type": "close"}


def random_game(seed: int) -> Game:
    """One full 4-player game of random bots: legal + choose + apply each step."""
    rng = random.Random(seed)
    game = Game(PLAYERS, seed=seed)
    while not game.finished:
        seats = game.to_act()
        if not seats:  # an open auction everyone still in has left to the hammer
            game.apply(CLOSE)
            continue
        seat = seats[int(rng.random() * len(seats))]
        action = choose_from_legal(game.legal(seat), rng)
        action["seat"] = seat
        game.apply(action)
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()

    start = time.perf_counter()
    records = [record_of(random_game(seed)) for seed in range(args.games)]
    play_s = time.perf_counter() - start
    actions = sum(len(r.actions) for r in records)

    start = time.perf_counter()
    for record in records:
        record.played()
    replay_s = time.perf_counter() - start

    print(f"python: {platform.python_version()} on {platform.machine()} ({platform.processor()})")
    print(f"games: {args.games}, actions: {actions} ({actions / args.games:.0f} per game)")
    print(f"replay_us_per_action: {replay_s / actions * 1e6:.2f}")
    print(f"random_games_per_s: {args.games / play_s:.0f}")
    print(f"replay_games_per_s: {args.games / replay_s:.0f}")


if __name__ == "__main__":
    main()
