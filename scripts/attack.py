#!/usr/bin/env python3
"""Attacks against a fresh `modernart-server` while a healthy game plays.

The script starts its own server (no `--dev`, `--trust-proxy` so that attackers
can pose as many addresses through X-Forwarded-For, on 127.0.0.1 only) with a
fresh data directory. A healthy 3-player game of three websocket clients plays
in its own room all along, one act at a time, each timed from writing `act` to
the socket to its answer (the update that shows it, or an error). Each attack
runs in a separate process for `--seconds`; the table gives the healthy game's
act→answer p50/p99/max before (the `--quiet` seconds before it), during and
after (the `--quiet` seconds after it), the server's RSS before, at the peak and
after, the server's CPU during the attack, and what the attack achieved.

The attacks live in modules of their own (ATTACK_MODULES): issue 7's in attack_ws.py,
issue 21's in attack_ws21.py and attack_ssh.py (`--only 21.1 21.3 21.7 21.10`: the server
has SSH with guests on a free port), issue 33's in attack33_*.py (the server has the browser
door on a free port too), issue 28's in attack28_records.py (the records over SSH and
in the browser) and attack28_doors.py (a reload loop at a household's address), issue
32's in attack32_reviews.py (a flood of review requests, good and bad).

Items 5 (a full disk) and 12 (a read-only data directory) cannot be provoked
from outside; tests/server/test_store_failure.py and test_hardening.py cover them.

Issue 21's attacks are numbered 21.N (`--only 21.4`); 21.9 needs
`--seed-identities 200000 --seconds 70` (see that flag).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import pathlib
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

import attack28_doors
import attack28_records
import attack32_reviews
import attack33_fairness
import attack33_input
import attack33_names
import attack33_ratings
import attack33_web
import attack_ssh
import attack_ws
import attack_ws21
import msgpack
from attackkit import hello, open_ws, pack, until
from bench_sessions import baseline_tree
from loadtest import EVENT_OF, cpu_seconds, free_port, rss_kb

from modernart.engine.modernart.bots import make_bot

# ------------------------------------------------------------ the healthy game


class Healthy:
    """Three clients play one game after another in their own room; every act is timed."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.samples: list[tuple[float, float]] = []  # (when, seconds to the answer)
        self.errors: list[str] = []

    async def run(self, stop: asyncio.Event) -> None:
        rng = random.Random(7)
        clients = [await open_ws(self.url, "10.0.0.1") for _ in range(3)]
        for i, ws in enumerate(clients):
            await hello(ws, f"Healthy{i}")
        bots = [make_bot("random", i) for i in range(3)]
        while not stop.is_set():
            host = clients[0]
            options = {"shout_window_ms": 300, "turn_timeout_s": 0, "takeover_s": 0}
            await host.send(pack({"t": "create", "seats": 3, "options": options}))
            room = (await until(host, lambda m: m["t"] == "joined"))["room"]
            for ws in clients[1:]:
                await ws.send(pack({"t": "join", "room": room}))
                await until(ws, lambda m: m["t"] == "joined")
            await host.send(pack({"t": "start"}))
            views = [(await until(ws, lambda m: m["t"] == "update"))["view"] for ws in clients]
            await self._play(clients, bots, views, rng, stop)
            for ws in clients:
                await ws.send(pack({"t": "leave"}))
                await until(ws, lambda m: m["t"] == "left")
        for ws in clients:
            await ws.close()

    async def _play(self, clients, bots, views, rng, stop: asyncio.Event) -> None:
        ids = iter(range(1, 10**9))
        while not views[0]["finished"] and not stop.is_set():
            ready = [i for i, v in enumerate(views) if v["legal"]]
            if not ready:  # an open auction waits for its hammer: read what comes
                views = await self._refresh(clients, views, 1.0)
                continue
            seat = rng.choice(ready)
            action = bots[seat].choose(views[seat])
            if action is None:
                views = await self._refresh(clients, views, 0.05)
                continue
            rid = next(ids)
            kind = EVENT_OF[action["type"]]
            ws = clients[seat]
            sent = time.perf_counter()
            await ws.send(pack({"t": "act", "id": rid, "action": action}))

            def answer(
                m: dict, seat: int = seat, kind: str = kind, rid: int = rid, views: list = views
            ) -> bool:
                if m["t"] == "error":
                    return m.get("re") == rid
                if m["t"] != "update":
                    return False
                views[seat] = m["view"]
                who = "winner" if kind == "sold" else "seat"
                return any(e["type"] == kind and e.get(who) == seat for e in m["events"])

            try:
                await until(ws, answer, 30)
                self.samples.append((time.monotonic(), time.perf_counter() - sent))
            except TimeoutError:
                self.errors.append(f"no answer to {action}")
            views = await self._refresh(clients, views, 0.005)
            await asyncio.sleep(0.01)  # a brisk but human-ish table

    @staticmethod
    async def _refresh(clients, views, quiet: float) -> list[dict]:
        """Read every client's pending updates (waiting up to `quiet` for more)."""
        views = list(views)
        for i, ws in enumerate(clients):
            with contextlib.suppress(TimeoutError):
                while True:
                    async with asyncio.timeout(quiet):
                        m = msgpack.unpackb(await ws.recv(), strict_map_key=False)
                    if m["t"] == "update":
                        views[i] = m["view"]
        return views


ATTACK_MODULES = [
    attack_ws,
    attack_ssh,
    attack_ws21,
    attack33_names,
    attack33_input,
    attack33_fairness,
    attack33_web,
    attack33_ratings,
    attack28_records,
    attack28_doors,
    attack32_reviews,
]
ATTACKS: dict[str, Callable[[str, float], Awaitable[dict[str, Any]]]] = {
    name: attack for module in ATTACK_MODULES for name, attack in module.ATTACKS.items()
}


def run_attack(name: str, url: str, seconds: float, ports: dict[str, int]) -> dict[str, Any]:
    """In its own process: one attack for `seconds`. The attackers stand in for other
    machines, so they run at the lowest priority: on these two shared cores their own
    CPU must not be what slows the server and the healthy game down."""
    with contextlib.suppress(OSError):
        os.nice(19)
    end = time.monotonic() + seconds
    for module in ATTACK_MODULES:  # the doors' ports, for the attacks on them
        module.SSH_PORT, module.WEB_PORT = ports["ssh"], ports["web"]
    try:
        return asyncio.run(asyncio.wait_for(ATTACKS[name](url, end), seconds + 120))
    except Exception as exc:
        return {"attack failed": f"{type(exc).__name__}: {exc}"}


# -------------------------------------------------------------- measurements


def rss_mb(pid: int) -> float:
    return rss_kb(pid) / 1024


class Sampler(threading.Thread):
    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.samples: list[tuple[float, float]] = []
        self.running = True

    def run(self) -> None:
        while self.running:
            with contextlib.suppress(OSError):
                self.samples.append((time.monotonic(), rss_mb(self.pid)))
            time.sleep(0.1)

    def peak(self, start: float, stop: float) -> float:
        return max((r for t, r in self.samples if start <= t <= stop), default=0.0)


def stats(samples: list[tuple[float, float]], start: float, stop: float) -> str:
    values = sorted(d * 1000 for t, d in samples if start <= t < stop)
    if not values:
        return "no acts"
    p99 = values[min(len(values) - 1, int(0.99 * len(values)))]
    return f"{statistics.median(values):.1f} / {p99:.1f} / {values[-1]:.0f}"


def seed_identities(data: pathlib.Path, count: int) -> None:
    """`count` identities that never took a seat, two days old, stored before the server
    starts (item 21.9: its first sweep forgets them all)."""
    from modernart.server.store.errors import token_hash
    from modernart.server.store.sqlite import Store

    store = Store(data)
    old = time.time() - 48 * 3600
    with store.db:
        store.db.execute("BEGIN")
        store.db.executemany(
            "INSERT INTO identities (id, name, token_hash, created, seated) VALUES (?, ?, ?, ?, 0)",
            ((f"s{i}", "Old", token_hash(f"seed{i}"), old) for i in range(count)),
        )
    store.close()


async def main_async(args: argparse.Namespace) -> int:
    port = free_port()
    data = tempfile.mkdtemp(prefix="modernart-attack-")
    log_path = pathlib.Path(data) / "server.log"
    cmd = [sys.executable, "-m", "modernart.server.cli"]
    cmd += ["--port", str(port), "--data", data, "--trust-proxy"]
    ssh_port = free_port()  # SSH with guests, for the SSH attacks (21.x)
    cmd += ["--ssh-port", str(ssh_port), "--ssh-guests", "--log-level", "info"]
    web_port = free_port()  # the browser door, for issue 33's attacks on it
    cmd += ["--web-port", str(web_port)]
    if args.store:  # the PostgreSQL store (issue 30): an empty database for the run
        cmd += ["--store", args.store]
    env = dict(os.environ)
    if args.baseline:  # the old design, SSH client processes included
        env["PYTHONPATH"] = str(baseline_tree(args.baseline, pathlib.Path(data)))
    elif args.server_src is not None:  # a baseline: that source tree's server
        shim = pathlib.Path(data) / "src"
        (shim / "modernart").mkdir(parents=True)
        (shim / "modernart" / "__init__.py").write_text("")
        for part in ("engine", "server"):
            (shim / "modernart" / part).symlink_to(args.server_src.resolve() / part)
        env["PYTHONPATH"] = str(shim)  # found before the installed (editable) package
    if args.seed_identities:
        seed_identities(pathlib.Path(data), args.seed_identities)
    with log_path.open("wb") as log:  # cwd: not a checkout, whose modernart/ would win
        proc = subprocess.Popen(cmd, stdout=log, stderr=log, env=env, cwd=data)
    url = f"ws://127.0.0.1:{port}/"
    for _ in range(200):
        with contextlib.suppress(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        time.sleep(0.05)
    sampler = Sampler(proc.pid)
    sampler.start()
    healthy = Healthy(url)
    stop = asyncio.Event()
    game = asyncio.create_task(healthy.run(stop))
    rows = []
    loop = asyncio.get_running_loop()
    names = [n for n in ATTACKS if not args.only or any(n.startswith(o + " ") for o in args.only)]
    try:
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            await asyncio.sleep(args.quiet)
            for name in names:
                before_start = time.monotonic() - args.quiet
                rss_before = rss_mb(proc.pid)
                cpu_before = cpu_seconds(proc.pid)
                log_before = log_path.stat().st_size
                start = time.monotonic()
                job = pool.apply_async(
                    run_attack, (name, url, args.seconds, {"ssh": ssh_port, "web": web_port})
                )
                outcome = await loop.run_in_executor(None, job.get)
                stop_at = time.monotonic()
                cpu = cpu_seconds(proc.pid) - cpu_before
                log_growth = log_path.stat().st_size - log_before
                with log_path.open("rb") as grown:  # what the attack made the server log
                    grown.seek(log_before)
                    tracebacks = grown.read().count(b"Traceback")
                await asyncio.sleep(args.quiet)
                after_stop = time.monotonic()
                row = {
                    "attack": name,
                    "before": stats(healthy.samples, before_start, start),
                    "during": stats(healthy.samples, start, stop_at),
                    "after": stats(healthy.samples, stop_at, after_stop),
                    "rss": f"{rss_before:.0f} / {sampler.peak(start, after_stop):.0f} / "
                    f"{rss_mb(proc.pid):.0f}",
                    "cpu": f"{cpu:.1f} s in {stop_at - start:.0f} s",
                    "log": f"{log_growth / 1024:.0f} KiB, {tracebacks} tracebacks",
                    "outcome": outcome,
                }
                rows.append(row)
                print(" | ".join(str(v) for v in row.values()), flush=True)
                if game.done():
                    break
    finally:
        stop.set()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(game, 30)
        sampler.running = False
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
        tail = log_path.read_text(errors="replace").splitlines()[-5:]
        shutil.rmtree(data, ignore_errors=True)
    print()
    print(
        "| attack | healthy act→answer p50 / p99 / max, ms: before | during | after "
        "| server RSS MB before / peak / after | server CPU | log | outcome |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(str(v) for v in row.values()) + " |")
    print(f"healthy acts: {len(healthy.samples)}  healthy errors: {len(healthy.errors)}")
    if healthy.errors:
        print("healthy problems:", healthy.errors[:3], file=sys.stderr)
    if game.done() and not game.cancelled() and game.exception():
        print("the healthy game failed:", repr(game.exception()), file=sys.stderr)
    print("server log tail:", *tail, sep="\n  ")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=8, help="length of each attack")
    parser.add_argument(
        "--quiet",
        type=float,
        default=6,
        help="seconds before/after each (the server hands memory back within 5 s)",
    )
    parser.add_argument("--only", nargs="*", help="attack numbers to run (default: all)")
    parser.add_argument(
        "--baseline",
        help="attack the server of this commit (engine, server and tui: its SSH door too)",
    )
    parser.add_argument(
        "--seed-identities",
        type=int,
        default=0,
        help="store this many old never-seated identities first (21.9: run it with"
        " --only 21.9 --seconds 70, so that the first sweep, 60 s in, falls in it)",
    )
    parser.add_argument(
        "--server-src",
        type=pathlib.Path,
        help="attack the server of this source tree (e.g. `git archive` of an older commit)",
    )
    parser.add_argument(
        "--store", help="the server stores in this (empty) PostgreSQL database (issue 30)"
    )
    return asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
