"""What one expert search costs: CPU per search and per playout, Modern Art's expert
against three hard bots, the same seeded games for every tree measured.

Usage: python scripts/searchcost.py --games 5 --worlds 4 [--src /tmp/main-src]
With `--src` (a `git archive` of another commit's engine/) it also measures that
tree's expert in a subprocess, side by side, prints the ratio and whether both
played the very same games (the same final money in each). CPU time
(`time.process_time`) rather than wall time, so other load on the machine
changes the figures less.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import random
import subprocess
import sys
import tempfile
import time
from typing import Any


def measure(games: int, worlds: int) -> dict[str, Any]:
    """Play `games` seeded games in this interpreter's `modernart` package."""
    from modernart.engine.modernart import Game
    from modernart.engine.modernart.bots import make_bot
    from modernart.engine.modernart.bots.expert import ExpertBot
    from modernart.engine.modernart.bots.selfplay import play_out

    cpu = searches = playouts = 0.0
    money: list[list[int]] = []  # each game's final money: the same play, the same money
    for g in range(games):
        expert = ExpertBot(g, budget_s=3600.0, max_worlds=worlds)
        bots = [expert] + [make_bot("hard", 10 * g + s) for s in range(1, 4)]
        start = time.process_time()
        game = play_out(Game(["a", "b", "c", "d"], "classic", seed=g), bots, random.Random(g))
        cpu += time.process_time() - start
        money.append(list(game.money))
        searches += expert.searches
        playouts += expert.simulations
    return {"cpu_s": cpu, "searches": searches, "playouts": playouts, "money": money}


def in_tree(src: pathlib.Path, games: int, worlds: int) -> dict[str, Any]:
    """`measure` run by the engine of the source tree `src`, in a subprocess."""
    with tempfile.TemporaryDirectory() as shim:
        package = pathlib.Path(shim) / "modernart"
        package.mkdir()
        (package / "__init__.py").write_text("")
        (package / "engine").symlink_to(src.resolve() / "engine")
        env = {**os.environ, "PYTHONPATH": shim}
        code = (
            f"import json, sys; sys.path.insert(0, {str(pathlib.Path(__file__).parent)!r}); "
            f"from searchcost import measure; print(json.dumps(measure({games}, {worlds})))"
        )
        out = subprocess.run(
            [sys.executable, "-S", "-c", code], env=env, cwd=shim, capture_output=True, check=True
        )
    return json.loads(out.stdout)


def report(name: str, m: dict[str, Any]) -> float:
    per_search = m["cpu_s"] / m["searches"] * 1000
    print(
        f"{name}: {m['searches']:.0f} searches, {m['playouts']:.0f} playouts, CPU "
        f"{per_search:.1f} ms a search, {m['cpu_s'] / m['playouts'] * 1000:.2f} ms a playout"
    )
    return per_search


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--worlds", type=int, default=4)
    parser.add_argument("--src", type=pathlib.Path, help="a baseline source tree")
    args = parser.parse_args()
    print(f"games: {args.games}, worlds a search: {args.worlds} (CPU includes the hard bots)")
    mine = measure(args.games, args.worlds)
    new = report("this tree", mine)
    if args.src:
        theirs = in_tree(args.src, args.games, args.worlds)
        old = report(f"{args.src}", theirs)
        print(f"ratio (baseline / this tree): {old / new:.2f}")
        same = mine["money"] == theirs["money"]
        print(f"the same games (every final money equal): {same}")


if __name__ == "__main__":
    main()
