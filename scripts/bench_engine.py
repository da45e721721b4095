"""Engine speed on one core: random-bot games and record replays per second, per game.

Usage: python scripts/bench_engine.py [--games N] [--game modernart|serengeti|all]
       python scripts/bench_engine.py --baseline COMMIT [--rounds R] [--games N] [--game G]
For each game, the last lines are `<game> random_games_per_s: N` and
`<game> replay_games_per_s: N`; Modern Art's lines also appear without the prefix
(the figures docs/benchmarks.md has always quoted). Both games run in the same
process, one after the other, so their ratio is measured under the same load.

`--baseline COMMIT` measures that commit's engine beside this one: R rounds, each
running this script once on COMMIT's `engine/` (a `git archive` put first on the
path) and once on this tree's, alternating, one process at a time; it prints each
run and the best of each side, and new against old.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import platform
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

import modernart.engine
from modernart.engine import record_of
from modernart.engine.games import GameState, get_game
from modernart.engine.modernart import Game
from modernart.engine.modernart.bots.random_bot import choose_from_legal

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
CLOSE = {"type": "close"}


def random_game(seed: int) -> Game:
    """One full 4-player Modern Art game of random bots: legal + choose + apply each step."""
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


def random_serengeti(seed: int) -> GameState:
    """One full 4-player Serengeti game: each turn, legal + a random bot's choice + apply."""
    info = get_game("serengeti")
    game = info.create(PLAYERS, seed=seed)
    bot = info.make_bot("random", seed)
    while not game.finished:
        seat = game.to_act()[0]
        action = bot.choose({"legal": game.legal(seat)})
        action["seat"] = seat
        game.apply(action)
    return game


def random_artsociety(seed: int) -> GameState:
    """One full 4-player Art Society game: legal (every placement enumerated) + a random
    bot's choice + apply, the first seat the game waits for deciding each step."""
    info = get_game("artsociety")
    game = info.create(PLAYERS, seed=seed)
    bot = info.make_bot("random", seed)
    while not game.finished:
        seat = game.to_act()[0]
        action = bot.choose({"legal": game.legal(seat)})
        action["seat"] = seat
        game.apply(action)
    return game


GAMES: dict[str, Callable[[int], GameState]] = {
    "modernart": random_game,
    "serengeti": random_serengeti,
    "artsociety": random_artsociety,
}


def bench(name: str, games: int) -> dict[str, float]:
    play = GAMES[name]
    start = time.perf_counter()
    records = [record_of(play(seed)) for seed in range(games)]
    play_s = time.perf_counter() - start
    actions = sum(len(r.actions) for r in records)
    start = time.perf_counter()
    for record in records:
        record.played()
    replay_s = time.perf_counter() - start
    return {
        "actions_per_game": actions / games,
        "replay_us_per_action": replay_s / actions * 1e6,
        "random_games_per_s": games / play_s,
        "replay_games_per_s": games / replay_s,
    }


def engine_of(commit: str, into: pathlib.Path) -> None:
    """`commit`'s engine as the package `modernart.engine` under `into`."""
    top = pathlib.Path(__file__).resolve().parent.parent
    tar = subprocess.run(
        ["git", "-C", str(top), "archive", commit, "engine"], check=True, capture_output=True
    ).stdout
    (into / "modernart").mkdir()
    (into / "modernart" / "__init__.py").write_text("")
    subprocess.run(["tar", "-x", "-C", str(into / "modernart")], input=tar, check=True)


def run_script(script: str, args: list[str], path: str | None) -> str:
    """`script` with `args` in a process of its own (`path`, a tree, first on PYTHONPATH):
    what it printed. Also bench_session_objects.py's way to measure a tree."""
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = path
    command = [sys.executable, script, *args]
    return subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout


def run_once(game: str, games: int, path: str | None) -> dict[str, float]:
    """This script in a process of its own (`path` first on PYTHONPATH): its figures."""
    out = run_script(__file__, ["--game", game, "--games", str(games)], path)
    engine = re.search(r"^engine: (.*)$", out, re.M)
    print(f"  ({engine.group(1) if engine else '?'})", flush=True)
    found = re.findall(r"^(\w+) (random|replay)_games_per_s: (\d+)$", out, re.M)
    return {f"{name} {kind}": float(value) for name, kind, value in found}


def against(commit: str, rounds: int, game: str, games: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        engine_of(commit, pathlib.Path(tmp))
        best: dict[str, dict[str, float]] = {"old": {}, "new": {}}
        for r in range(rounds):
            for side in ("old", "new") if r % 2 == 0 else ("new", "old"):
                load = os.getloadavg()[0]
                figures = run_once(game, games, tmp if side == "old" else None)
                shown = ", ".join(f"{k} {v:.0f}/s" for k, v in figures.items())
                print(f"round {r + 1} {side} (load {load:.2f}): {shown}", flush=True)
                for key, value in figures.items():
                    best[side][key] = max(best[side].get(key, 0.0), value)
        for key, new in best["new"].items():
            old = best["old"].get(key)
            ratio = f", new/old {new / old:.2f}" if old else ""
            print(f"best {key}: old {old or 0:.0f}/s, new {new:.0f}/s{ratio}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--game", choices=[*GAMES, "all"], default="all")
    parser.add_argument("--baseline", help="a commit whose engine to measure beside this one")
    parser.add_argument("--rounds", type=int, default=3, help="with --baseline: old/new pairs")
    args = parser.parse_args()
    if args.baseline:
        against(args.baseline, args.rounds, args.game, args.games)
        return
    names = list(GAMES) if args.game == "all" else [args.game]

    print(f"python: {platform.python_version()} on {platform.machine()} ({platform.processor()})")
    print(f"engine: {pathlib.Path(modernart.engine.__file__).parent}")
    results = {name: bench(name, args.games) for name in names}
    for name, r in results.items():
        print(f"{name}: games: {args.games}, {r['actions_per_game']:.0f} actions per game")
        print(f"{name} replay_us_per_action: {r['replay_us_per_action']:.2f}")
        print(f"{name} random_games_per_s: {r['random_games_per_s']:.0f}")
        print(f"{name} replay_games_per_s: {r['replay_games_per_s']:.0f}")
    if len(results) > 1:
        base = results["modernart"]
        for name, r in results.items():
            ratio = r["random_games_per_s"] / base["random_games_per_s"]
            print(f"{name} random games/s relative to modernart: {ratio:.2f}")
    if "modernart" in results:
        r = results["modernart"]
        print(f"replay_us_per_action: {r['replay_us_per_action']:.2f}")
        print(f"random_games_per_s: {r['random_games_per_s']:.0f}")
        print(f"replay_games_per_s: {r['replay_games_per_s']:.0f}")


if __name__ == "__main__":
    main()
