#!/usr/bin/env python3
"""Cost of building one update's frames for every member of a room, for each game.

For whole random-bot games of each game, every update's frames (one per seat and
one for the spectators) are built the server's way (`server/wire/updates.py`: the
shared public part packed once, then each seat's `GameInfo.seat_keys` entries)
and, as the baseline in the same run, the fallback way (each seat's `view(seat)`
packed whole). Prints microseconds per update and the ratio baseline / server.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import time
from typing import Any

from modernart.engine.games import GAME_NAMES, get_game
from modernart.server.wire.updates import UpdateFrames

ROOM_FIELDS = {"room": "r1", "status": "playing", "deadline_ms": 1234}


def public_view(game: Any) -> dict[str, Any]:
    view = {**game.view(None), **ROOM_FIELDS}
    view["seats"] = [
        {**s, "connected": True, "bot": False, "autopilot": False} for s in view["seats"]
    ]
    return view


def states(name: str, players: int, games: int) -> list[Any]:
    """Every state (deep-copied lazily by replay) of `games` whole games: their records."""
    info = get_game(name)
    out = []
    for seed in range(games):
        game = info.create([f"P{i}" for i in range(players)], seed=seed)
        bots = [info.make_bot("random", seed * 10 + i) for i in range(players)]
        rng = random.Random(seed)
        out.append(game)
        while not game.finished:
            if game.realtime() and rng.random() < 0.2:
                game.apply(dict(info.hammer))
                continue
            seat = rng.choice(game.to_act())
            game.apply({"seat": seat, **bots[seat].choose(game.view(seat))})
    return out


def fanout_seconds(name: str, players: int, games: int, whole: bool) -> tuple[float, int]:
    """Seconds spent building every update's frames while replaying the games."""
    info = get_game(name)
    used = dataclasses.replace(info, seat_keys=None) if whole else info
    spent, count = 0.0, 0
    for finished in states(name, players, games):
        game = info.create(finished.players, seed=None, **_deal(info, finished))
        for action in finished.actions:
            game.apply(action)
            start = time.perf_counter()
            frames = UpdateFrames(game, 1, [], public_view(game), used)
            for seat in range(game.n):
                frames.for_seat(seat)
            frames.for_spectators()
            spent += time.perf_counter() - start
            count += 1
    return spent, count


def _deal(info: Any, game: Any) -> dict[str, Any]:
    header = info.record_header(game)
    return {
        "variant": header["variant"],
        "deck": header["deck"],
        "first": header["first_auctioneer"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="whole games per game and mode")
    args = parser.parse_args()
    print("game | players | updates | server µs/update | whole views µs/update | ratio")
    for name in GAME_NAMES:
        players = 4
        server, n = fanout_seconds(name, players, args.games, whole=False)
        whole, _ = fanout_seconds(name, players, args.games, whole=True)
        print(
            f"{name} | {players} | {n} | {server / n * 1e6:.0f} | {whole / n * 1e6:.0f}"
            f" | {whole / server:.2f}"
        )


if __name__ == "__main__":
    main()
