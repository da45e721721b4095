#!/usr/bin/env python3
"""Reviews beside live games (issue 32): how much the review worker slows the load test.

The load of scripts/loadtest.py (rooms of four websocket random-bot clients against one
`modernart-server --dev`; act→update latency as it measures it; the server's own CPU per
act, start-up left out) is run several times in one run, alternating: without reviews,
and while `--reviews K` clients keep asking, over the real wire `review` message, for
reviews of finished games, so the server's review worker (server/rooms/reviews.py: one
process of its own at niceness +19) is busy the whole time. `--repeat 2` runs without,
with, with, without (old/new style, so a drift of the machine shows).

The finished games are played once, before the runs: `--games` games of four `hard`
bots (one websocket client and three server bots, no pause) on a server of their own;
each run starts its server on a fresh copy of that data directory, so every run has
the same games and no review stored yet, and both kinds of run the same database.

Per run it prints the 1-minute load at its start, the load test's figures, the reviews
completed and decisions reviewed (including the reviews under way), and the review
worker's CPU time (read from /proc: the server's child at the lowest priority), whole,
as a share of the run's wall time, per decision reviewed, and per review (that per
decision times a completed review's decisions: the worker's CPU also holds the reviews
still under way at the end). A row whose reviews ran out (every game reviewed
before the end) says so: the worker was not busy the whole time; ask for more games.
The CPU of one review at rest, for each game: scripts/bench_review.py.

Quick check (runs of about 20 s): `--rooms 8 --duration 10 --think-ms 50 --games 6`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import pathlib
import resource
import shutil
import signal
import subprocess
import tempfile
import time
from collections import deque
from dataclasses import dataclass, field

import loadtest as lt
import msgpack
from websockets.asyncio.client import connect

from modernart.engine.modernart.bots import make_bot
from modernart.server.rooms.botpool import REVIEW_NICE
from modernart.server.store.sqlite import Store

GAME_OPTIONS = {"shout_window_ms": 100, "takeover_s": 0, "bot_delay_ms": 0}


@dataclass
class Reviews:
    """What the reviewing clients got in one run."""

    completed: int = 0
    decisions: int = 0  # in the reviews completed
    under_way: dict[int, int] = field(default_factory=dict)  # client -> decisions done
    ran_out: bool = False  # every reviewer found no game left: the worker went idle
    errors: list[str] = field(default_factory=list)


def children(pid: int) -> list[tuple[int, int]]:
    """(pid, niceness) of each child process of `pid`."""
    found = []
    for entry in pathlib.Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:  # gone meanwhile
                continue
            if int(fields[1]) == pid:
                found.append((int(entry.name), int(fields[16])))
    return found


def review_worker_cpu(server: int) -> float:
    """CPU seconds of the server's review worker (its child at the lowest priority;
    0 before the first review spawned it)."""
    total = 0.0
    for pid, nice in children(server):
        if nice >= REVIEW_NICE:
            with contextlib.suppress(OSError):  # it exited meanwhile
                total += lt.cpu_seconds(pid)
    return total


def stop_server(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()


async def play_game(url: str, index: int, stats: lt.Stats) -> None:
    """One game of four hard bots: a client and three server bots, played to its end."""
    player = lt.Player(url, f"Prep{index}", 0.005, stats, index)
    player.bot = make_bot("hard", index)
    await player.open()
    await player.expect("welcome")
    await player.send({"t": "create", "seats": lt.SEATS, "options": GAME_OPTIONS})
    await player.expect("joined")
    player.seat = 0
    for _ in range(lt.SEATS - 1):
        await player.send({"t": "add_bot", "level": "hard"})
        await player.expect("room")
    await player.send({"t": "start"})
    await player.play()
    await player.ws.close()


def prepare(games: int) -> tuple[str, list[str]]:
    """A data directory with `games` finished games, and their room ids."""
    data = tempfile.mkdtemp(prefix="modernart-reviewload-")
    port = lt.free_port()
    proc = lt.start_server(port, data)
    stats = lt.Stats()

    async def play_all() -> None:
        url = f"ws://127.0.0.1:{port}/"
        await asyncio.gather(*(play_game(url, i, stats) for i in range(games)))

    try:
        asyncio.run(play_all())
    finally:
        stop_server(proc)
    store = Store(pathlib.Path(data))
    rooms = store.finished_room_ids()
    store.close()
    if len(rooms) < games or stats.errors:
        shutil.rmtree(data, ignore_errors=True)
        raise SystemExit(f"preparing games: {len(rooms)} finished, {stats.problems}")
    return data, rooms


async def reviewer(url: str, n: int, rooms: deque[str], got: Reviews) -> None:
    """Ask for the review of the next game not yet taken, wait for it, ask again."""
    ws = await connect(url, compression=None, max_size=None, open_timeout=60)
    try:
        await ws.send(msgpack.packb({"t": "hello", "v": 1, "name": f"Reviewer{n}"}))
        rid = 0
        while rooms:
            rid += 1
            room = rooms.popleft()
            got.under_way[n] = 0
            await ws.send(msgpack.packb({"t": "review", "id": rid, "room": room}))
            while True:
                msg = msgpack.unpackb(await ws.recv(), strict_map_key=False)
                if msg.get("re") != rid:
                    continue
                if msg["t"] == "reviewing":
                    got.under_way[n] = msg["done"]
                    continue
                if msg["t"] == "review":
                    got.completed += 1
                    got.decisions += len(msg["review"]["decisions"])
                else:
                    got.errors.append(f"review of {room}: {msg}")
                got.under_way[n] = 0
                break
    finally:
        await ws.close()


async def load_beside_reviews(
    args: argparse.Namespace, rooms: list[str], clients: int
) -> tuple[list[lt.Stats], Reviews]:
    """The load test's rooms, and `clients` reviewers until the rooms are done."""
    got = Reviews()
    queue = deque(rooms)
    asking = [asyncio.create_task(reviewer(args.url, n, queue, got)) for n in range(clients)]
    if args.procs == 1:
        results = [await lt.run_rooms(0, args.rooms, args)]
    else:
        shares = [
            args.rooms // args.procs + (i < args.rooms % args.procs) for i in range(args.procs)
        ]
        jobs = [(sum(shares[:i]), n, args) for i, n in enumerate(shares)]
        with multiprocessing.get_context("spawn").Pool(args.procs) as pool:
            results = await asyncio.to_thread(pool.starmap, lt.worker, jobs)
    got.ran_out = clients > 0 and all(task.done() for task in asking)
    for task in asking:
        if task.done() and task.exception() is not None:
            got.errors.append(f"reviewer: {task.exception()!r}")
        task.cancel()
    await asyncio.gather(*asking, return_exceptions=True)
    return results, got


def run(args: argparse.Namespace, template: str, rooms: list[str], clients: int) -> dict:
    """One load test on a fresh copy of `template`, with `clients` reviewers."""
    data = tempfile.mkdtemp(prefix="modernart-reviewload-run-")
    shutil.copytree(template, data, dirs_exist_ok=True)
    load = os.getloadavg()[0]
    port = lt.free_port()
    extra = ["--review-worlds", str(args.review_worlds)] if args.review_worlds else []
    proc = lt.start_server(port, data, extra=extra)
    args.url = f"ws://127.0.0.1:{port}/"
    cpu_at_start = lt.cpu_seconds(proc.pid)
    client_cpu = resource.getrusage(resource.RUSAGE_SELF)
    began = time.monotonic()
    try:
        results, got = asyncio.run(load_beside_reviews(args, rooms, clients))
    finally:
        elapsed = time.monotonic() - began
        server_cpu = lt.cpu_seconds(proc.pid) - cpu_at_start
        worker_cpu = review_worker_cpu(proc.pid)
        stop_server(proc)
        shutil.rmtree(data, ignore_errors=True)
    after = resource.getrusage(resource.RUSAGE_SELF)
    latencies = sorted(x for r in results for x in r.latencies)
    acts = sum(r.actions for r in results)
    reviewed = got.decisions + sum(got.under_way.values())

    def pct(q: float) -> float:
        if not latencies:
            return float("nan")
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000

    for problem in [p for r in results for p in r.problems][:5] + got.errors[:5]:
        print("problem:", problem, flush=True)
    return {
        "reviews": clients,
        "load": load,
        "elapsed": elapsed,
        "games": sum(r.finished for r in results),
        "measured": len(latencies),
        "cpu_act_us": server_cpu / max(1, acts) * 1e6,
        "p50": pct(0.50),
        "p99": pct(0.99),
        "max": pct(1.0),
        "client_cpu": sum(r.cpu_s for r in results)  # the pool's processes (lt.worker)
        if args.procs > 1
        else (after.ru_utime + after.ru_stime) - (client_cpu.ru_utime + client_cpu.ru_stime),
        "completed": got.completed,
        "decisions": reviewed,
        # a review's CPU: its decisions' (the worker's CPU a decision) — the worker's CPU
        # also holds the reviews under way at the end, which are not completed
        "per_review": worker_cpu / reviewed * got.decisions / got.completed
        if got.completed
        else None,
        "worker_cpu": worker_cpu,
        "ran_out": got.ran_out,
        "errors": sum(r.errors for r in results) + len(got.errors),
    }


def per(value: float, count: int, scale: float = 1.0) -> str:
    return f"{value / count * scale:.1f}" if count else "-"


def report(rows: list[dict]) -> None:
    head = (
        "| reviews | load before | CPU per act µs | p50 / p99 / max ms | acts measured"
        " | games played | reviews done | decisions | worker CPU s (share) | s a review"
        " | ms a decision | errors |"
    )
    print(head)
    print("|" + "---|" * head.count(" | ") + "---|")
    for r in rows:
        share = r["worker_cpu"] / r["elapsed"]
        per_review = "-" if r["per_review"] is None else f"{r['per_review']:.1f}"
        print(
            f"| {r['reviews']}{' (ran out)' if r['ran_out'] else ''} | {r['load']:.2f}"
            f" | {r['cpu_act_us']:.0f} | {r['p50']:.1f} / {r['p99']:.1f} / {r['max']:.1f}"
            f" | {r['measured']} | {r['games']} | {r['completed']} | {r['decisions']}"
            f" | {r['worker_cpu']:.1f} ({share:.2f}) | {per_review}"
            f" | {per(r['worker_cpu'], r['decisions'], 1000)} | {r['errors']} |"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=100, help="concurrent rooms (4 clients each)")
    parser.add_argument("--duration", type=float, default=120, help="seconds of each run")
    parser.add_argument("--reviews", type=int, default=2, help="reviewing clients (1 to 8)")
    parser.add_argument("--repeat", type=int, default=2, help="pairs of runs (2: -, R, R, -)")
    parser.add_argument("--games", type=int, default=16, help="finished games to review")
    parser.add_argument("--review-worlds", type=int, help="the server's --review-worlds")
    parser.add_argument("--think-ms", type=float, default=250, help="mean think time per action")
    parser.add_argument("--shout-window-ms", type=int, default=1000)
    parser.add_argument("--ramp", type=float, default=50, help="rooms started per second")
    parser.add_argument("--procs", type=int, default=1, help="client processes for the rooms")
    args = parser.parse_args()
    if not 1 <= args.reviews <= 8:  # the server queues 8 (server/rooms/reviews.py REVIEW_QUEUE)
        parser.error("--reviews: 1 to 8")
    args.bots, args.bot_delay_ms = None, 0  # loadtest's rooms of four clients

    print(f"preparing {args.games} finished games ...", flush=True)
    template, rooms = prepare(args.games)
    rows = []
    try:
        for i in range(args.repeat):
            for clients in (0, args.reviews) if i % 2 == 0 else (args.reviews, 0):
                rows.append(run(args, template, rooms, clients))
                shown = {k: round(v, 2) if isinstance(v, float) else v for k, v in rows[-1].items()}
                print(f"run {len(rows)}: {shown}", flush=True)
    finally:
        shutil.rmtree(template, ignore_errors=True)
    print(f"rooms: {args.rooms}  connections: {args.rooms * lt.SEATS}  duration_s: {args.duration}")
    print(f"think_ms: {args.think_ms}  shout_window_ms: {args.shout_window_ms}", end="")
    print(f"  cpus: {os.cpu_count()}")
    print(f"review_worlds: {args.review_worlds or 'server default'}  games: {args.games}")
    report(rows)
    return 0 if all(r["errors"] == 0 for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
