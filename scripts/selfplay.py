"""Play N games between chosen bots and print each level's win rate.

Usage: python scripts/selfplay.py --bots heuristic,random,random,random --games 400
       python scripts/selfplay.py --bots expert,hard,hard,hard --worlds 4 --games 400
       python scripts/selfplay.py --game serengeti --variant don --games 1000
       python scripts/selfplay.py --game artsociety --bots normal,easy,easy,easy
Seats rotate from game to game so no level keeps the first turn; a shared win
(R26, S17, A28) counts as a fraction. Each level's share of games won comes with a
95 % Wilson interval, and its think time per decision (p50/p99). A searching
bot (any game's `expert`, engine/search.py) searches a fixed number of worlds
(`--worlds`, so that the machine's load does not change the bot) unless
`--budget` gives it seconds instead; its CPU time per search is reported too.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections import defaultdict
from typing import Any

from modernart.engine.games import DEFAULT_GAME, GAME_NAMES, get_game
from modernart.engine.selfplay import play_out


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win share."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


class Timed:
    """A bot whose every decision's think time goes into `times`, and a searching
    bot's CPU time per search into `searches`."""

    def __init__(
        self, bot: Any, times: list[float], searches: list[float], events: bool = True
    ) -> None:
        self.bot, self.times, self.searches, self.level = bot, times, searches, bot.level
        if events and hasattr(bot, "observe"):
            self.observe = bot.observe

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        """Times the decisions that give an action (an open auction asks often)."""
        before = getattr(self.bot, "searches", 0)
        start, cpu = time.perf_counter(), time.process_time()
        action = self.bot.choose(view)
        if action is not None:
            self.times.append(time.perf_counter() - start)
        if getattr(self.bot, "searches", 0) > before:
            self.searches.append(time.process_time() - cpu)
        return action


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def make(info: Any, level: str, seed: int, budget: float | None, worlds: int | None) -> Any:
    """A bot of `level`; a searching one with the given worlds (or seconds) a search."""
    bot = info.make_bot(level, seed)
    if hasattr(bot, "budget_s") and (budget or worlds):
        bot.budget_s = budget or 3600.0  # a world count alone: no time cap
        bot.max_worlds = worlds
    return bot


def score(name: str, state: Any, seat: int) -> int:
    """What each game counts at the end: Modern Art money, the others' points."""
    if name == "modernart":
        return state.money[seat]
    return get_game(name).replay_fields(state)["points"][seat]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", choices=GAME_NAMES, default=DEFAULT_GAME)
    parser.add_argument("--bots", default="heuristic,random,random,random")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--variant", default=None, help="a preset (default: the game's)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=float, default=None, help="expert's seconds a move")
    parser.add_argument(
        "--worlds", type=int, default=None, help="expert's sampled worlds a move (load-proof)"
    )
    parser.add_argument(
        "--blind", action="store_true", help="bots see views only, no events (as in rooms today)"
    )
    args = parser.parse_args()
    info = get_game(args.game)
    variant = args.variant or info.default_preset
    levels = args.bots.split(",")
    unknown = set(levels) - set(info.bots)
    if unknown:
        parser.error(f"unknown bot levels {sorted(unknown)}; choose from {sorted(info.bots)}")

    wins: dict[str, float] = defaultdict(float)
    seats_played: dict[str, int] = defaultdict(int)
    total: dict[str, int] = defaultdict(int)
    think: dict[str, list[float]] = defaultdict(list)
    search_cpu: dict[str, list[float]] = defaultdict(list)
    for g in range(args.games):
        shift = g % len(levels)
        seated = levels[shift:] + levels[:shift]
        rng = random.Random(args.seed * 1_000_003 + g)
        bots = [
            Timed(
                make(info, level, rng.randrange(1 << 30), args.budget, args.worlds),
                think[level],
                search_cpu[level],
                events=not args.blind,
            )
            for level in seated
        ]
        names = [f"{level}{i}" for i, level in enumerate(seated)]
        seed = rng.randrange(1 << 30)
        state = play_out(info.create(names, variant, seed=seed), bots, rng)
        for seat, level in enumerate(seated):
            seats_played[level] += 1
            total[level] += score(args.game, state, seat)
            if seat in state.winners:
                wins[level] += 1 / len(state.winners)

    measure = "money" if args.game == "modernart" else "points"
    print(f"game: {args.game}, games: {args.games}, seats: {','.join(levels)}, variant: {variant}")
    if args.budget is not None or args.worlds is not None:
        print(f"expert budget: {args.budget or 'default'} s, {args.worlds or 'any'} worlds a move")
    if args.blind:
        print("bots see no events")
    for level in sorted(seats_played):
        share = wins[level] / args.games
        low, high = wilson(wins[level], args.games)
        per_seat = wins[level] / seats_played[level]
        avg = total[level] / seats_played[level]
        print(
            f"{level}: wins {share:.1%} of games (95% {low:.1%}–{high:.1%}), "
            f"{per_seat:.1%} per seat, average {measure} {avg:.1f}, think p50 "
            f"{percentile(think[level], 0.5) * 1000:.3f} ms p99 "
            f"{percentile(think[level], 0.99) * 1000:.3f} ms"
        )
        if search_cpu[level]:
            cpu = search_cpu[level]
            print(
                f"{level}: {len(cpu)} searches, CPU per search mean "
                f"{sum(cpu) / len(cpu) * 1000:.1f} ms, p99 {percentile(cpu, 0.99) * 1000:.1f} ms"
            )


if __name__ == "__main__":
    main()
