"""A playing session's objects and what a full garbage collection of them costs (issue 31).

Usage: python scripts/bench_session_objects.py [--baseline REV] [--updates 150] [--rounds 2]

For each game, a process of its own: the offline client at 80×24 (tests/tui/tui_offline.py,
what a terminal worker runs for a session, less the screen relay) shows a game of random
bots for `--updates` updates. Everything made before the app is frozen first, as a
worker's zygote freezes what it imported; then the objects the collector tracks are
counted (by type, the largest kinds) and a full collection is timed (CPU, best of 7): what
each full collection in a worker walks for that session. With `--baseline`, the same for
REV's engine/, server/ and tui/ (a `git archive`), alternating, `--rounds` times.
"""

from __future__ import annotations

import argparse
import collections
import gc
import os
import pathlib
import random
import re
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
GAMES = ("modernart", "serengeti", "artsociety")


async def measure(name: str, updates: int) -> None:
    """One game's session, printed as `objects N` and `collection_ms X` and the kinds."""
    sys.path.insert(0, str(ROOT / "tests" / "tui"))
    from tui_offline import OfflineApp

    from modernart.engine.games import get_game
    from modernart.engine.selfplay import bot_move

    info = get_game(name)
    game = info.create(["Ann", "Bob", "Cy", "Dee"], seed=4)
    rng = random.Random(4)
    gc.collect()
    gc.freeze()
    app = OfflineApp(game, 0)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.begin()
        await pilot.pause()
        bots = [info.make_bot("random", seat) for seat in range(game.n)]
        for _ in range(updates):
            if game.finished:
                break
            events = bot_move(game, bots, rng)
            app.push_view(game.apply(dict(info.hammer)) if events is None else events)
            await pilot.pause()
        gc.collect()
        kinds = collections.Counter(type(o).__qualname__ for o in gc.get_objects())
        best = min(_collection_cpu() for _ in range(7))
    print(f"objects {sum(kinds.values())}")
    print(f"collection_ms {best * 1000:.2f}")
    print("kinds " + ", ".join(f"{k} {v}" for k, v in kinds.most_common(6)))


def _collection_cpu() -> float:
    began = time.process_time()
    gc.collect()
    return time.process_time() - began


def run(name: str, updates: int, path: str | None) -> dict[str, str]:
    """One game's session measured in a process of its own, `path`'s tree first."""
    from bench_engine import run_script

    out = run_script(__file__, ["--one", name, "--updates", str(updates)], path)
    return dict(re.findall(r"^(objects|collection_ms|kinds) (.*)$", out, re.M))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline")
    parser.add_argument("--updates", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--one", choices=GAMES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        import asyncio

        asyncio.run(measure(args.one, args.updates))
        return
    sys.path.insert(0, str(ROOT / "scripts"))
    from bench_sessions import baseline_tree

    print(f"load before: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"this tree": None}
        if args.baseline:
            trees = {args.baseline: str(baseline_tree(args.baseline, pathlib.Path(tmp))), **trees}
        for round_ in range(args.rounds):
            order = list(trees) if round_ % 2 == 0 else list(reversed(trees))
            for name in GAMES:
                for tree in order:
                    got = run(name, args.updates, trees[tree])
                    print(
                        f"{name} · {tree}: {got['objects']} objects, a full collection"
                        f" {got['collection_ms']} ms of CPU ({got['kinds']})",
                        flush=True,
                    )


if __name__ == "__main__":
    main()
