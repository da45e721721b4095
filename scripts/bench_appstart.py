"""CPU of an app's start: each game's table (the offline client at 80×24, begun and drawn
once, then closed), with Textual parsing its CSS for each app against
`parse_rules_once` (tui/textual_internals.py: each source once a process), alternating,
each round in the other order.

Usage: python scripts/bench_appstart.py [--rounds 8]

An SSH or browser session starts such an app in a worker; so does each client test.
"""

from __future__ import annotations

import argparse
import asyncio
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "tui"))

from textual.css.stylesheet import Stylesheet  # noqa: E402
from tui_offline import OfflineApp  # noqa: E402

from modernart.engine.games import GAME_NAMES, get_game  # noqa: E402
from modernart.tui import textual_internals  # noqa: E402

WAYS = {
    "Textual's parse for each app": textual_internals.textuals_parse_rules,
    "parse_rules_once": textual_internals.parse_rules_once,
}


async def start(name: str) -> float:
    """CPU seconds from an app's construction to its table drawn and the app closed."""
    game = get_game(name).create(["Ann", "Bob", "Cy"], seed=1)
    began = time.process_time()
    app = OfflineApp(game, 0)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.begin()
        await pilot.pause()
    return time.process_time() - began


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8)
    args = parser.parse_args()
    times: dict[str, list[float]] = {way: [] for way in WAYS}
    for round_ in range(args.rounds + 1):
        # Each round in the other order: the second way of a round ran measurably cheaper
        # (about 15 %) whatever it was, so a fixed order measured the order.
        order = list(WAYS.items())
        for way, parse in order if round_ % 2 else order[::-1]:
            Stylesheet._parse_rules = parse  # type: ignore[method-assign]
            for name in GAME_NAMES:
                spent = await start(name)
                if round_:  # the first round warms imports and caches
                    times[way].append(spent)
    Stylesheet._parse_rules = textual_internals.parse_rules_once  # type: ignore[method-assign]
    for way, spent in times.items():
        print(f"{way}: {1000 * statistics.median(spent):.0f} ms an app (median of {len(spent)})")


if __name__ == "__main__":
    asyncio.run(main())
