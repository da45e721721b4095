"""The event log's CPU: a line written, and a run of shouts redrawn in place (issue 31).

Usage: python scripts/bench_log.py [--baseline REV] [--steps 150] [--rounds 2]

For each tree (REV's engine/, server/ and tui/ from a `git archive`, then this one, the
order alternating by round), a process of its own: Modern Art's offline table at 80×24
under `run_test` (tests/tui/tui_offline.py), its log holding 60 lines (it scrolls), then
`--steps` times each of: nothing (the pilot's pause alone), a line written (`add_note`),
and the log's last line redrawn longer (`replace_last`, Modern Art's run of shouts), each
followed by the pause that draws it. Prints each step's CPU (`time.process_time`, the
whole process) and, beside it, less the pause alone: what the log itself costs.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
STEPS = ("pause alone", "a line written", "a run redrawn")


async def measure(steps: int) -> None:
    """One tree's figures, printed as `step NAME MS`."""
    sys.path.insert(0, str(ROOT / "tests" / "tui"))
    from rich.text import Text
    from tui_offline import OfflineApp

    from modernart.engine.games import get_game
    from modernart.tui.eventlog import EventLog

    game = get_game("modernart").create(["Ann", "Bob", "Cy", "Dee"], seed=5, first=0)
    app = OfflineApp(game, seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        log = app.table.query_one("#log", EventLog)
        for n in range(60):
            log.add_note(f"line {n}: Ann plays an open auction of Yoko")
        await pilot.pause()
        acts = {
            "pause alone": lambda i: None,
            "a line written": lambda i: log.add_note(f"Bob bids {i}"),
            "a run redrawn": lambda i: log.replace_last(Text(f"Bids: Bob {i}, Cy {i + 1}")),
        }
        for name in STEPS:
            began = time.process_time()
            for i in range(steps):
                acts[name](i)
                await pilot.pause()
            print(f"step {name} {(time.process_time() - began) / steps * 1000:.3f}")


def run(steps: int, path: str | None) -> dict[str, float]:
    from bench_engine import run_script

    out = run_script(__file__, ["--one", "--steps", str(steps)], path)
    return {name: float(ms) for name, ms in re.findall(r"^step (.+) ([\d.]+)$", out, re.M)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline")
    parser.add_argument("--steps", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        import asyncio

        asyncio.run(measure(args.steps))
        return
    sys.path.insert(0, str(ROOT / "scripts"))
    from bench_sessions import baseline_tree

    print(f"load before: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        trees: dict[str, str | None] = {"this tree": None}
        if args.baseline:
            trees = {args.baseline: str(baseline_tree(args.baseline, pathlib.Path(tmp))), **trees}
        for round_ in range(args.rounds):
            order = list(trees) if round_ % 2 == 0 else list(reversed(trees))
            for tree in order:
                got = run(args.steps, trees[tree])
                idle = got["pause alone"]
                told = ", ".join(
                    f"{name} {got[name]:.2f} ms ({got[name] - idle:+.2f})" for name in STEPS[1:]
                )
                print(f"{tree}: pause alone {idle:.2f} ms; {told}", flush=True)


if __name__ == "__main__":
    main()
