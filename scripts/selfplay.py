"""Play N games between chosen bots and print each level's win rate.

Usage: python scripts/selfplay.py --bots heuristic,random,random,random --games 400
Seats rotate from game to game so no level keeps the first turn; a shared win
(R26) counts as a fraction.
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict

from modernart.engine import Game
from modernart.engine.bots import BOT_LEVELS, make_bot
from modernart.engine.bots.selfplay import play_out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bots", default="heuristic,random,random,random")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    levels = args.bots.split(",")
    unknown = set(levels) - set(BOT_LEVELS)
    if unknown:
        parser.error(f"unknown bot levels {sorted(unknown)}; choose from {BOT_LEVELS}")

    wins: dict[str, float] = defaultdict(float)
    seats_played: dict[str, int] = defaultdict(int)
    money: dict[str, int] = defaultdict(int)
    for g in range(args.games):
        shift = g % len(levels)
        seated = levels[shift:] + levels[:shift]
        rng = random.Random(args.seed * 1_000_003 + g)
        bots = [make_bot(level, rng.randrange(1 << 30)) for level in seated]
        names = [f"{level}{i}" for i, level in enumerate(seated)]
        game = play_out(Game(names, args.variant, seed=rng.randrange(1 << 30)), bots, rng)
        for seat, level in enumerate(seated):
            seats_played[level] += 1
            money[level] += game.money[seat]
            if seat in game.winners:
                wins[level] += 1 / len(game.winners)

    print(f"games: {args.games}, seats: {','.join(levels)}, variant: {args.variant}")
    for level in sorted(seats_played):
        share = wins[level] / args.games
        per_seat = wins[level] / seats_played[level]
        avg = money[level] / seats_played[level]
        print(
            f"{level}: wins {share:.1%} of games, {per_seat:.1%} per seat, average money {avg:.0f}"
        )


if __name__ == "__main__":
    main()
