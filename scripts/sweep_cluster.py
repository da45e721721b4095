#!/usr/bin/env python3
"""The largest load each server setup holds at p99 < 100 ms (issue 30).

Runs `scripts/loadtest.py` against each setup at growing numbers of rooms (four players
each, `--think-ms` between acts): the embedded default (one process, SQLite) and clusters
of `--clusters` processes on a throwaway PostgreSQL and Redis (each room's players spread
over the processes: the worst case). At each step the setups still under the aim run one
after another (so they alternate through the sweep); a setup leaves the sweep at its first
step over `--aim-ms` at p99, or with errors. Reported per setup and step: acts per second
(actions sent / elapsed), p50, p99, the server's CPU per act, errors; then the largest acts
per second under the aim. The 1-minute load average before each run is printed beside it.

Usage: python scripts/sweep_cluster.py [--rooms 100,200,400,800] [--clusters 1,2,4]
           [--duration 30] [--think-ms 250] [--procs 2] [--aim-ms 100]
"""

from __future__ import annotations

import argparse
import os
import pathlib
import subprocess
import sys
from dataclasses import dataclass

ROOT = pathlib.Path(__file__).resolve().parents[1]


@dataclass
class Step:
    setup: str
    rooms: int
    load: float
    acts_per_s: float = 0.0
    p50: float = float("nan")
    p99: float = float("nan")
    cpu_per_act_us: float = float("nan")
    errors: int = 0

    def over(self, aim_ms: float) -> bool:
        return self.errors > 0 or not self.p99 < aim_ms


def run(setup: str, cluster: int, rooms: int, args: argparse.Namespace) -> Step:
    step = Step(setup, rooms, os.getloadavg()[0])
    cmd = [sys.executable, str(ROOT / "scripts" / "loadtest.py"), "--rooms", str(rooms)]
    cmd += ["--duration", str(args.duration), "--think-ms", str(args.think_ms)]
    cmd += ["--procs", str(args.procs), "--ramp", str(args.ramp)]
    if cluster:
        cmd += ["--cluster", str(cluster)]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=False)
    figures: dict[str, str] = {}
    for line in done.stdout.splitlines():
        words = line.split()
        for key, value in zip(words[::2], words[1::2], strict=False):
            figures[key.rstrip(":")] = value
    if done.returncode or "p99_ms" not in figures:
        print(f"{setup} at {rooms} rooms failed:\n{done.stderr[-1500:]}", file=sys.stderr)
        step.errors = max(1, step.errors)
        return step
    elapsed = float(figures["elapsed_s"])
    step.acts_per_s = int(figures["actions_sent"]) / elapsed
    step.p50, step.p99 = float(figures["p50_ms"]), float(figures["p99_ms"])
    step.cpu_per_act_us = float(figures.get("server_cpu_per_act_us", "nan"))
    step.errors = int(figures["errors"])
    return step


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", default="100,200,400,800", help="the steps, rooms")
    parser.add_argument("--clusters", default="1,2,4", help="cluster sizes beside embedded")
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--think-ms", type=float, default=250.0)
    parser.add_argument("--procs", type=int, default=2, help="loadtest's client processes")
    parser.add_argument("--ramp", type=float, default=100.0, help="rooms started per second")
    parser.add_argument("--aim-ms", type=float, default=100.0)
    args = parser.parse_args()
    setups = {"embedded (SQLite)": 0}
    setups |= {f"cluster of {n}": n for n in map(int, args.clusters.split(",")) if n}
    live = dict(setups)
    steps: list[Step] = []
    print(
        f"think {args.think_ms:.0f} ms, {args.duration:.0f} s a run, {args.procs} client "
        f"processes, aim p99 < {args.aim_ms:.0f} ms"
    )
    print("| setup | rooms | load before | acts/s | p50 ms | p99 ms | CPU per act µs | errors |")
    print("|---|---|---|---|---|---|---|---|")
    for rooms in map(int, args.rooms.split(",")):
        for setup, cluster in list(live.items()):
            step = run(setup, cluster, rooms, args)
            steps.append(step)
            print(
                f"| {setup} | {rooms} | {step.load:.2f} | {step.acts_per_s:.0f} | "
                f"{step.p50:.1f} | {step.p99:.1f} | {step.cpu_per_act_us:.0f} | {step.errors} |",
                flush=True,
            )
            if step.over(args.aim_ms):
                del live[setup]
    print()
    for setup in setups:
        held = [s for s in steps if s.setup == setup and not s.over(args.aim_ms)]
        best = max(held, key=lambda s: s.acts_per_s, default=None)
        if best is None:
            print(f"{setup}: no step under the aim")
        else:
            beyond = "" if setup not in live else " (the last step: more may hold)"
            print(f"{setup}: {best.acts_per_s:.0f} acts/s at {best.rooms} rooms{beyond}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
