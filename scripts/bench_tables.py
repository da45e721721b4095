"""Tables of four people at human pace over the terminal doors, with a lobby (issue 31).

    .venv/bin/python scripts/bench_tables.py [--tables 25] [--lobby 100] [--seconds 60]
        [--web-share 0.25] [--lobby-probes 5] [--baseline REV] [--repeat R] [--seed S]
        [--hog K] [--churn S] [--per-worker K]

For each design a `modernart-server --dev --ssh-guests --web-port …` runs as a
subprocess (bench_sessions.py's `start_server`): this tree, and with `--baseline REV`
that commit's tree (bench_sessions.py's `baseline_tree`), the designs in turn `--repeat`
times so that a change of the machine's load falls on each. `--tables 10,20,25` runs each
T in turn (the largest T that holds the aims).

T tables of four people and no bots: every player is a terminal at 80×24 (asyncssh, or
with `--web-share` of the players the browser door: a WebSocket client speaking what
page.js speaks), its screen kept by pyte. Seat 0 makes the room with keys ('c', ctrl+s),
the three others join it from the lobby with keys (the cursor moved to its row, Enter),
one after another, and seat 0 starts the game. A WebSocket spectator of each room tells
its players whose decision it is; each player thinks 1–4 s (uniform, seeded by `--seed`,
the same for every design) and types: a card (a few arrows, Enter), amounts digit by
digit at a typist's pace and Enter, y or p; in an open auction every player but the
auctioneer thinks 1–4 s after each new high bid and shouts a raise of 1–4 over it, or
(one time in four) passes and drops out of that auction; a round's summary is closed with
Enter. L more sessions sit in the lobby (SSH, bytes counted only), and `--lobby-probes`
of them open and close the help (F1, q) at the same pace.

Measured in `--seconds` after every game started:
- key → changed cells: from each player's key to the first bytes its terminal receives
  after it (SSH and browser apart, and together); a key with nothing back in 5 s is lost.
  Bytes that were not the key's answer (another's bid drawn meanwhile) end its time too,
  as in bench_sessions.py: at 1–4 s between decisions they are few;
- a new high bid on every screen: each player's screen, read on every arrival, shows
  "High bid: N by …" in the auction box (tui/modernart/auction.py `describe`); for each
  high bid the time from the first screen of its table showing it to the last (a bid
  some screen never showed, because a higher one came first or the hammer fell, is
  counted apart);
- the lobby probes' keys → first bytes;
- the workers' full garbage collections in the measure (scripts/gcpauses.py), and those
  that did not run at a moment the worker found quiet (its sessions waited for them);
- with `--churn S`, a room made or filled every S seconds of the measure (the list pushed
  to every lobby session each time: scripts/bench_lobby.py measures one session's cost);
- with `--hog K`, K processes each wanting a whole core run beside the measure (when CPU
  is short, the player who must act comes first: server/doors/terminal/priority.py);
- the 1-minute load before each run (each waits for it to fall under 1, 10 min at most),
  the CPU (% of one core) of the server with
  everything under it (zygote, workers), and of each of the bench's client processes.
The client side is three processes besides this one (the lobby, and the tables in two
halves: scripts/tablehelper.py, scripts/tablekit.py), so that a busy client does not
delay the others' measures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pathlib
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scripts import gcpauses  # noqa: E402
from scripts.bench_lobby import Changes  # noqa: E402
from scripts.bench_sessions import (  # noqa: E402
    Helper,
    baseline_tree,
    cpu_seconds,
    listening,
    ms,
    pct,
    start_server,
)
from scripts.loadtest import free_port  # noqa: E402

HELPER = ROOT / "scripts" / "tablehelper.py"
HOG = [sys.executable, "-c", "while True: pass"]  # `--hog`: one core's worth of CPU wanted
PLAYER_PROCESSES = 2
AIMS = {"keys": 0.100, "spreads": 0.100, "lobby": 0.050}  # p99, seconds


@dataclass
class Result:
    design: str
    tables: int  # asked for
    load: float = 0.0  # 1-minute load before the run
    playing: int = 0  # tables whose game started
    setup_s: float = 0.0  # every table made, joined and started (the slowest helper)
    keys: dict[str, list[float]] = field(default_factory=dict)  # door → key → first bytes
    lost: int = 0
    spreads: list[float] = field(default_factory=list)  # a high bid: first screen → last
    partial: int = 0
    lobby: list[float] = field(default_factory=list)
    lobby_lost: int = 0
    cpu_server: float = 0.0  # % of one core
    cpu_bench: list[float] = field(default_factory=list)  # lobby, then the players' halves
    over: int = 0  # games that ended within the measure
    failed: list[str] = field(default_factory=list)
    gc: gcpauses.Pauses = field(default_factory=gcpauses.Pauses)  # the workers', measured

    def add(self, other: Result, runs: int) -> None:
        """Pool a repeat's samples into this one (of `runs`): the load and CPU averaged,
        the slowest set-up, the tables playing summed."""
        self.load += other.load / runs
        self.cpu_server += other.cpu_server / runs
        mine = self.cpu_bench or [0.0] * len(other.cpu_bench)  # a failed run: none
        self.cpu_bench = [a + b / runs for a, b in zip(mine, other.cpu_bench, strict=False)]
        self.setup_s = max(self.setup_s, other.setup_s)
        self.over += other.over
        for door, values in other.keys.items():
            self.keys.setdefault(door, []).extend(values)
        self.spreads += other.spreads
        self.lobby += other.lobby
        self.lost += other.lost
        self.partial += other.partial
        self.lobby_lost += other.lobby_lost
        self.playing += other.playing
        self.gc.collections += other.gc.collections
        self.gc.workers += other.gc.workers
        self.gc.seconds += other.gc.seconds

    @property
    def all_keys(self) -> list[float]:
        return [v for values in self.keys.values() for v in values]


class TableHelper(Helper):
    """scripts/tablehelper.py as a subprocess, told and answering in lines."""

    @classmethod
    async def launch(cls, config: dict[str, Any]) -> TableHelper:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            str(HELPER),
            json.dumps(config),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            limit=1 << 26,  # a report holds every sample
        )
        return cls(proc)


def web_players(tables: int, share: float, seed: int) -> list[int]:
    """The players (table * 4 + seat) who come through the browser door: never a host
    (its name, the SSH user's, names the room)."""
    joiners = [t * 4 + s for t in range(tables) for s in (1, 2, 3)]
    count = min(len(joiners), round(share * 4 * tables))
    return sorted(random.Random(f"{seed}-web").sample(joiners, count))


async def everyone(helpers: list[TableHelper], command: str, key: str, timeout: float) -> list:
    for helper in helpers:
        helper.tell(command)
    return [await helper.answer(key, timeout) for helper in helpers]


async def quiet_machine(below: float = 1.0, limit: float = 600.0) -> None:
    """Until the 1-minute load is under `below` (the last run's tail has gone), or
    `limit` seconds."""
    end = time.monotonic() + limit
    while os.getloadavg()[0] >= below and time.monotonic() < end:
        await asyncio.sleep(5)


async def run_design(design: str, src: pathlib.Path | None, tables: int, args) -> Result:
    await quiet_machine()
    result = Result(design, tables, load=os.getloadavg()[0])
    data = pathlib.Path(tempfile.mkdtemp(prefix=f"bench-tables-{design}-"))
    web_port = free_port()
    gc_dir = data / "gc"  # every collection in the workers (scripts/gcpauses.py)
    gc_dir.mkdir()
    procs, port, ssh_port = await start_server(
        design, src, data, args.per_worker, 0, gc_dir, extra=["--web-port", str(web_port)]
    )
    helpers: list[TableHelper] = []
    hogs: list[subprocess.Popen] = []
    try:
        await listening(web_port, "the browser door")
        base = {"port": port, "ssh_port": ssh_port, "web_port": web_port, "seed": args.seed}
        if args.lobby:
            probes = min(args.lobby_probes, args.lobby)
            config = {"role": "lobby", "first": 4 * tables, "lobby": args.lobby, "probes": probes}
            helpers.append(await TableHelper.launch(base | config))
        web = web_players(tables, args.web_share, args.seed)
        for half in range(PLAYER_PROCESSES):
            mine = list(range(half, tables, PLAYER_PROCESSES))
            if mine:
                config = {"role": "players", "tables": mine, "web": web}
                helpers.append(await TableHelper.launch(base | config))
        players = [h for h in helpers if h is not helpers[0] or not args.lobby]
        for ready in [await h.answer("ready", 900) for h in helpers]:
            result.failed += ready["failed"]
        for answer in await everyone(players, "setup", "set", 120 * tables + 60):
            result.playing += answer["set"]
            result.setup_s = max(result.setup_s, answer["seconds"])
            result.failed += answer["failed"]
        pids = [p.pid for p in procs]
        t0 = time.monotonic()
        server0 = sum(cpu_seconds(pid, tree=True) for pid in pids)
        bench0 = [cpu_seconds(h.proc.pid) for h in helpers]
        gc0 = gcpauses.lines(gc_dir)
        hogs += [subprocess.Popen(HOG) for _ in range(args.hog)]
        await everyone(helpers, "measure", "measuring", 60)
        changes = asyncio.create_task(churn(f"ws://127.0.0.1:{port}/", args.churn, args.seconds))
        await asyncio.sleep(args.seconds)  # the measure: people playing for a while
        await changes
        reports = await everyone(helpers, "report", "report", 120)
        stop_hogs(hogs)
        span = time.monotonic() - t0
        result.gc = gcpauses.read(gc_dir, span, skip=gc0)
        result.cpu_server = 100 * (sum(cpu_seconds(p, tree=True) for p in pids) - server0) / span
        result.cpu_bench = [
            100 * (cpu_seconds(h.proc.pid) - b) / span for h, b in zip(helpers, bench0, strict=True)
        ]
        for helper, answer in zip(helpers, reports, strict=True):
            got = answer["report"]
            result.failed += answer["crashed"]
            if args.lobby and helper is helpers[0]:
                result.lobby += got["keys"].get("lobby", [])
                result.lobby_lost += got["lost"]
                continue
            for door, values in got["keys"].items():
                result.keys.setdefault(door, []).extend(values)
            result.lost += got["lost"]
            result.spreads += got["spreads"]
            result.partial += got["partial"]
            result.over += answer["over"]
    except (AssertionError, OSError, TimeoutError, SystemExit) as exc:
        result.failed.append(f"stopped: {exc!r}"[:300])
    finally:
        stop_hogs(hogs)
        for helper in helpers:
            await helper.stop()
        for proc in reversed(procs):
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
        if result.failed:
            log = (data / "server.log").read_text(errors="replace")
            print(f"{design}: the server's log ends:\n{log[-1500:]}", file=sys.stderr)
        shutil.rmtree(data, ignore_errors=True)
    return result


async def churn(url: str, every: float, seconds: float) -> None:
    """With `--churn S`, the room list changes every S seconds of the measure, as when
    people make and fill rooms while others play: a new room, then a second player in
    it, in turn (each pushed to every session in the lobby)."""
    if not every:
        return
    changes = Changes(url, "churn")
    end = time.monotonic() + seconds - every
    try:
        while time.monotonic() < end:
            await asyncio.sleep(every)
            await changes.next()
    finally:
        await changes.close()


def stop_hogs(hogs: list[subprocess.Popen]) -> None:
    while hogs:
        hog = hogs.pop()
        hog.kill()
        hog.wait()


def verdict(values: list[float], aim: float) -> str:
    if not values:
        return "–"
    return "holds" if pct(values, 0.99) <= aim else "missed"


def report(results: list[Result], args) -> None:
    print(
        f"\nT tables of 4 players ({args.web_share:.0%} through the browser door), "
        f"{args.lobby} lobby sessions ({min(args.lobby, args.lobby_probes)} pressing keys), "
        f"{args.seconds:.0f} s measured after every game started, seed {args.seed}, "
        f"{f'the room list changed every {args.churn:g} s' if args.churn else 'no room made'}; "
        f"load now {os.getloadavg()[0]:.1f}"
    )
    print(
        "| design | T | load before | tables playing (set up in) | "
        "key → changed cells p50 / p99 (n): all | SSH | browser | keys lost | "
        "high bid, first screen → last p50 / p99 (n) | "
        "high bids not on every screen | lobby keys p50 / p99 (n) | CPU server tree | "
        "CPU bench (lobby, players…) | aims: key / high bid / lobby |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        aims = " / ".join(
            verdict(v, AIMS[k])
            for k, v in (("keys", r.all_keys), ("spreads", r.spreads), ("lobby", r.lobby))
        )
        print(
            f"| {r.design} | {r.tables} | {r.load:.1f} | {r.playing} of {r.tables} "
            f"({r.setup_s:.0f} s) | "
            f"{ms(r.all_keys)} | {ms(r.keys.get('ssh', []))} | {ms(r.keys.get('web', []))} | "
            f"{r.lost} | {ms(r.spreads)} | {r.partial} | {ms(r.lobby)} "
            f"(lost {r.lobby_lost}) | {r.cpu_server:.0f}% | "
            f"{', '.join(f'{c:.0f}%' for c in r.cpu_bench)} | {aims} |"
        )
    print("The workers' full collections in the measure: n: pause p50 / p99 / max, over 20 ms")
    print("| design | T | workers | every full collection | those while sessions were busy |")
    print("|---|---|---|---|---|")
    for r in results:
        _, full, busy = gcpauses.summary(r.gc)
        print(f"| {r.design} | {r.tables} | {r.gc.workers} | {full} | {busy} |")
    for r in results:
        for why in r.failed[:5]:
            print(f"{r.design} T={r.tables}: {why}")
    sys.stdout.flush()


async def bench(args) -> None:
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="bench-baseline-") as tmp:
        src = baseline_tree(args.baseline, pathlib.Path(tmp)) if args.baseline else None
        designs = ([(args.baseline, src)] if src is not None else []) + [("now", None)]
        for _ in range(args.repeat):  # the designs in turn, R times
            for tables in args.tables:
                for design, tree in designs:
                    results.append(await run_design(design, tree, tables, args))
                    report(results, args)  # each run's figures as soon as they are in
    if args.repeat > 1:
        pooled: dict[tuple[str, int], Result] = {}
        for r in results:
            into = pooled.setdefault((r.design, r.tables), Result(f"{r.design} (pooled)", r.tables))
            into.add(r, args.repeat)
        print("\nThe repeats pooled (load and CPU averaged, tables playing summed):")
        report(list(pooled.values()), args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tables", type=lambda s: [int(x) for x in s.split(",")], default=[25], help="T, or T1,T2…"
    )
    parser.add_argument("--lobby", type=int, default=100, help="L sessions in the lobby")
    parser.add_argument("--lobby-probes", type=int, default=5, help="lobby sessions pressing keys")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured after the starts")
    parser.add_argument("--web-share", type=float, default=0.25, help="players in the browser")
    parser.add_argument("--baseline", help="also measure this commit's tree (git archive)")
    parser.add_argument("--repeat", type=int, default=1, help="the designs in turn, R times")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument(
        "--hog", type=int, default=0, help="processes burning CPU beside the measure"
    )
    parser.add_argument(
        "--churn", type=float, default=0, help="S: the room list changes every S seconds"
    )
    parser.add_argument(
        "--per-worker", type=int, help="K: terminal sessions a worker (the server's default)"
    )
    asyncio.run(bench(parser.parse_args()))


if __name__ == "__main__":
    main()
