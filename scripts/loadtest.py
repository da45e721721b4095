#!/usr/bin/env python3
"""Load test: N concurrent rooms of websocket bot clients against one server process.

Each room has four clients (four connections) that play whole games with the
engine's random bot, thinking `--think-ms` on average (uniform 0.5×–1.5×)
before each action; when a game ends the room starts a new one until
`--duration` has passed (games under way then are played to their end).
Latency is measured from writing `act` to the socket to the moment the update
that reflects it is read off the socket (stamped as the bytes arrive, before
this process's own queueing and decoding). By default the script starts its
own `modernart-server --dev` on a free port with a fresh data directory and
reports its memory per room (RSS growth at the peak / rooms).

With `--bots LEVEL` (issue 12) each room is one client beside three server bots
of that level (`add_bot`, thinking `--bot-delay-ms`): the client's act→update
latency shows whether the server's loop stalls while bots decide, and for
`expert` the server reports at its exit how its searches went (full budget in a
worker, or `hard` at once because every worker was busy); the script prints
that line and the share that got the full budget. Games still running at the
deadline are left unfinished in this mode (a game against bots is long).

With `--cluster N` (issue 30) the script starts N server processes as one cluster on a
PostgreSQL and a Redis (`--store`, `--redis`, or throwaway ones: the tests' helpers); room
i is made on process i mod N and its seat s plays from process (i + s) mod N, so with N > 1
three of a room's four players cross to the room's process through Redis. The server's
CPU and memory are the processes' sum.

The last lines are `rooms_finished_per_s: N`, `p50_ms: N`, `p99_ms: N`, `errors: N`.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import pathlib
import random
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect
from websockets.frames import DATA_OPCODES, Frame

from modernart.engine.modernart.bots import make_bot

SEATS = 4
# Which event shows that a seat's action was applied.
EVENT_OF = {
    "play": "played",
    "add": "added",
    "decline": "declined",
    "bid": "bid",
    "pass": "pass",
    "sealed": "sealed_in",
    "price": "price",
    "buy": "sold",
}
NOT_SENT = float("inf")  # an act decided on but not yet written to the socket
# Answers to an act sent on a view that was already stale (another player was
# faster, or the game just ended): expected under concurrency, not errors.
LATE = {"too_low", "not_your_turn", "illegal", "insufficient_funds", "not_allowed"}


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    finished: int = 0
    actions: int = 0
    refused: int = 0  # stale actions the rules refused (someone was faster)
    errors: int = 0
    cpu_s: float = 0.0  # this client process's CPU time
    problems: list[str] = field(default_factory=list)

    def error(self, what: str) -> None:
        self.errors += 1
        if len(self.problems) < 20:
            self.problems.append(what)


class StampedConnection(ClientConnection):
    """Notes when each message came off the socket, so that a latency ends when the
    server's update arrived, not when this busy client process got round to reading it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.arrivals: deque[float] = deque()  # one per message not yet read by recv()
        self._chunk_at = 0.0

    def data_received(self, data: bytes) -> None:
        self._chunk_at = time.perf_counter()
        super().data_received(data)

    def process_event(self, event: Any) -> None:
        if isinstance(event, Frame) and event.opcode in DATA_OPCODES and event.fin:
            self.arrivals.append(self._chunk_at)
        super().process_event(event)


class Player:
    """One websocket client playing one seat with a random bot and a think time."""

    def __init__(self, url: str, name: str, think: float, stats: Stats, seed: int) -> None:
        self.url, self.name, self.think, self.stats = url, name, think, stats
        self.bot = make_bot("random", seed)
        self.rng = random.Random(seed)
        self.view: dict[str, Any] | None = None
        self.seat: int | None = None
        self.pending: tuple[str, float] | None = None  # (event type, sent at)
        self.arrived = 0.0  # when the last message read came off the socket
        self.decision: asyncio.TimerHandle | None = None
        self.ws: Any = None
        self.finished = asyncio.Event()
        self.act_ids: set[int] = set()
        self.next_id = 0

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(msgpack.packb(message))

    async def send_act(self, message: dict[str, Any], kind: str) -> None:
        """The clock starts as the act is written to the socket."""
        data = msgpack.packb(message)
        if self.pending == (kind, NOT_SENT):  # still awaited (not reset by a game's end)
            self.pending = (kind, time.perf_counter())
        await self.ws.send(data)

    async def receive(self, timeout: float) -> dict[str, Any]:
        async with asyncio.timeout(timeout):  # no extra task per message (unlike wait_for)
            data = await self.ws.recv()
        self.arrived = self.ws.arrivals.popleft()
        return msgpack.unpackb(data)

    async def open(self) -> None:
        self.ws = await connect(
            self.url,
            compression=None,
            max_size=None,
            open_timeout=60,
            create_connection=StampedConnection,
        )
        await self.send({"t": "hello", "v": 1, "name": self.name})

    async def expect(self, kind: str) -> dict[str, Any]:
        while True:
            msg = await self.receive(60)
            if msg["t"] == kind:
                return msg
            if msg["t"] == "error" and not self.refused(msg):
                raise RuntimeError(f"{self.name}: {msg}")

    def schedule(self) -> None:
        if self.decision is None and self.pending is None:
            delay = self.think * self.rng.uniform(0.5, 1.5)
            self.decision = asyncio.get_running_loop().call_later(delay, self.decide)

    def decide(self) -> None:
        self.decision = None
        view = self.view
        if view is None or view["finished"] or not view["legal"]:
            return
        action = self.bot.choose(view)
        if action is None:
            return
        self.pending = (EVENT_OF[action["type"]], NOT_SENT)
        self.stats.actions += 1
        self.next_id += 1
        self.act_ids.add(self.next_id)
        message = {"t": "act", "id": self.next_id, "action": action}
        asyncio.get_running_loop().create_task(self.send_act(message, EVENT_OF[action["type"]]))

    def refused(self, msg: dict[str, Any]) -> bool:
        """An answer to one of our acts that the game no longer allowed (we were late)."""
        if msg.get("re") in self.act_ids and msg["code"] in LATE:
            self.stats.refused += 1
            return True
        return False

    def on_update(self, msg: dict[str, Any]) -> None:
        self.view = msg["view"]
        if self.pending is not None:
            kind, sent = self.pending
            for event in msg["events"]:
                who = event.get("winner") if kind == "sold" else event.get("seat")
                if event["type"] == kind and who == self.seat:
                    self.stats.latencies.append(self.arrived - sent)
                    self.pending = None
                    break
        if self.view["finished"]:
            self.finished.set()
            return
        if self.view["legal"]:
            self.schedule()

    async def play(self) -> None:
        """Read until the game ends."""
        while not self.finished.is_set():
            msg = await self.receive(120)
            if msg["t"] == "update":
                self.on_update(msg)
            elif msg["t"] == "error":
                if self.refused(msg):
                    self.pending = None
                    self.schedule()
                else:
                    self.stats.error(f"{self.name}: {msg}")
        if self.decision is not None:
            self.decision.cancel()
            self.decision = None
        self.pending = None


async def join(player: Player, room: str) -> int:
    """The player's seat in `room`; in a cluster the room shows on the player's process
    with the room's process's next beat (at most 50 ms after it was made)."""
    for _ in range(200):
        await player.send({"t": "join", "room": room})
        answer = await player.receive(10)
        while answer["t"] not in ("joined", "error"):
            answer = await player.receive(10)
        if answer["t"] == "joined":
            return answer["seat"]
        if answer.get("code") != "no_such_room":
            raise RuntimeError(f"join refused: {answer}")
        await asyncio.sleep(0.02)
    raise RuntimeError(f"room {room} never showed")


async def run_room(index: int, args: argparse.Namespace, stats: Stats, deadline: float) -> None:
    clients = 1 if args.bots else SEATS
    urls = args.urls
    players = [
        Player(
            urls[(index + s) % len(urls)],
            f"L{index}-{s}",
            args.think_ms / 1000,
            stats,
            index * 10 + s,
        )
        for s in range(clients)
    ]
    try:
        for p in players:
            await p.open()
            await p.expect("welcome")
        while time.monotonic() < deadline:
            host = players[0]
            options = {"shout_window_ms": args.shout_window_ms, "takeover_s": 0}
            if args.bots:
                options["bot_delay_ms"] = args.bot_delay_ms
            await host.send({"t": "create", "seats": SEATS, "options": options})
            room = (await host.expect("joined"))["room"]
            host.seat = 0
            for _ in range(SEATS - clients):
                await host.send({"t": "add_bot", "level": args.bots})
                await host.expect("room")
            for p in players[1:]:
                p.seat = await join(p, room)
            for p in players:
                p.finished.clear()
                p.view = None
            await host.send({"t": "start"})
            if args.bots:  # stop at the deadline: a game against bots takes minutes
                try:
                    async with asyncio.timeout(max(1.0, deadline - time.monotonic())):
                        await host.play()
                except TimeoutError:
                    if host.decision is not None:
                        host.decision.cancel()
                    break
            else:
                await asyncio.gather(*(p.play() for p in players))
            stats.finished += 1
            for p in players:
                await p.send({"t": "leave"})
                await p.expect("left")
    except Exception as exc:  # a dropped connection, a timeout: an error for the report
        stats.error(f"room {index}: {type(exc).__name__}: {exc}")
    finally:
        for p in players:
            if p.ws is not None:
                await p.ws.close()


async def run_rooms(first: int, count: int, args: argparse.Namespace) -> Stats:
    stats = Stats()
    start = time.monotonic()
    deadline = start + args.duration
    tasks = []
    for i in range(count):
        tasks.append(asyncio.create_task(run_room(first + i, args, stats, deadline)))
        await asyncio.sleep(1 / args.ramp)  # rooms per second per process
    await asyncio.gather(*tasks)
    return stats


def worker(first: int, count: int, args: argparse.Namespace) -> Stats:
    stats = asyncio.run(run_rooms(first, count, args))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    stats.cpu_s = usage.ru_utime + usage.ru_stime
    return stats


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kb(pid: int) -> int:
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(
    port: int, data: str, src: pathlib.Path | None = None, extra: list[str] | None = None
) -> subprocess.Popen:
    """`modernart-server --dev` on `port`; with `src`, the one of that source tree (a
    checkout's engine/ and server/), for a baseline measured in the same conditions.
    Its log (warnings, and the bot decisions at exit) goes to `data`/server.log."""
    cmd = [sys.executable, "-m", "modernart.server.cli"]
    cmd += ["--port", str(port), "--data", data, "--dev", "--log-level", "info"]
    cmd += extra or []
    env = dict(os.environ)
    if src is not None:
        shim = pathlib.Path(data) / "src"
        (shim / "modernart").mkdir(parents=True)
        (shim / "modernart" / "__init__.py").write_text("")
        for part in ("engine", "server"):
            (shim / "modernart" / part).symlink_to(src.resolve() / part)
        env["PYTHONPATH"] = str(shim)  # found before the installed (editable) package
    log = open(pathlib.Path(data) / "server.log", "wb")  # noqa: SIM115 (the server's life)
    # cwd: not a checkout, whose modernart/ would win
    proc = subprocess.Popen(cmd, env=env, cwd=data, stderr=log)
    for _ in range(200):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("the server did not start")


def report_bots(log: pathlib.Path) -> None:
    """The server's log lines, with the share of expert decisions with a full budget
    and how many frames a socket write and rows a commit carried (server/wire/outbox.py)."""
    for line in log.read_text(errors="replace").splitlines():
        print("server:", line, file=sys.stderr)
        if "bot decisions:" in line:
            counts = dict(
                (k, int(v)) for k, v in (p.split("=") for p in line.split(": ", 2)[-1].split())
            )
            total = sum(counts.values())
            if total:
                full = counts["full"] + counts.get("quick", 0)  # quick: nothing to search
                print(f"expert_decisions: {total}  full_budget_share: {full / total:.3f}")
        if "turns' ends:" in line:  # the server's writes and group commits (issue 21)
            counts = dict(
                (k, int(v)) for k, v in (p.split("=") for p in line.split(": ", 2)[-1].split())
            )
            frames, rows = counts["frames"], counts["batched"]
            print(
                f"frames_per_write: {frames / max(1, counts['writes']):.2f}"
                f"  rows_per_commit: {rows / max(1, counts['commits']):.2f}"
            )


def cluster_flags(args: argparse.Namespace, helpers: list[Any]) -> list[str]:
    """`--store`/`--redis` for a cluster's processes: those given, else throwaway ones
    (the tests' helpers; stopped with the run)."""
    top = pathlib.Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(top))
    store, redis = args.store, args.redis
    if store is None:
        from tests.server.pgcluster import Cluster

        helpers.append(Cluster())
        store = helpers[-1].database()
    if redis is None:
        from tests.server.rediscluster import RedisServer

        helpers.append(RedisServer())
        redis = helpers[-1].url
    return ["--store", store, "--redis", redis]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=100, help="concurrent rooms (4 clients each)")
    parser.add_argument("--duration", type=float, default=120, help="seconds to keep playing")
    parser.add_argument("--think-ms", type=float, default=250, help="mean think time per action")
    parser.add_argument("--shout-window-ms", type=int, default=1000)
    parser.add_argument("--ramp", type=float, default=50, help="rooms started per second")
    parser.add_argument("--procs", type=int, default=1, help="client processes")
    parser.add_argument(
        "--bots", help="one client and three server bots of this level per room (e.g. expert)"
    )
    parser.add_argument("--bot-delay-ms", type=int, default=1500, help="the bots' think pause")
    parser.add_argument("--bot-workers", type=int, help="the server's --bot-workers")
    parser.add_argument("--url", help="an already running server (default: start one)")
    parser.add_argument("--cluster", type=int, default=0, help="N server processes on Redis")
    parser.add_argument("--store", help="--cluster's PostgreSQL (default: a throwaway one)")
    parser.add_argument("--redis", help="--cluster's Redis (default: a throwaway one)")
    parser.add_argument(
        "--server-src",
        type=pathlib.Path,
        help="run the server of this source tree (e.g. `git archive` of an older commit)",
    )
    args = parser.parse_args()

    procs: list[subprocess.Popen] = []
    datas: list[str] = []
    helpers: list[Any] = []  # the cluster's throwaway PostgreSQL and Redis
    extra = ["--bot-workers", str(args.bot_workers)] if args.bot_workers else []
    if args.cluster:
        extra += cluster_flags(args, helpers)
    if args.url is None:
        args.urls = []
        for _ in range(max(1, args.cluster)):
            port = free_port()
            datas.append(tempfile.mkdtemp(prefix="modernart-load-"))
            procs.append(start_server(port, datas[-1], args.server_src, extra))
            args.urls.append(f"ws://127.0.0.1:{port}/")
    else:
        args.urls = [args.url]
    proc = procs[0] if procs else None
    peak = [0]
    base = sum(rss_kb(p.pid) for p in procs)
    sampling = True

    def sample() -> None:
        while sampling and procs and all(p.poll() is None for p in procs):
            peak[0] = max(peak[0], sum(rss_kb(p.pid) for p in procs))
            time.sleep(0.5)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    began = time.monotonic()
    cpu_at_start = sum(cpu_seconds(p.pid) for p in procs)  # imports, startup
    try:
        shares = [
            args.rooms // args.procs + (i < args.rooms % args.procs) for i in range(args.procs)
        ]
        firsts = [sum(shares[:i]) for i in range(args.procs)]
        if args.procs == 1:
            results = [worker(0, args.rooms, args)]
        else:
            with multiprocessing.get_context("spawn").Pool(args.procs) as pool:
                jobs = [(f, n, args) for f, n in zip(firsts, shares, strict=True)]
                results = pool.starmap(worker, jobs)
    finally:
        elapsed = time.monotonic() - began
        sampling = False
        server_cpu = None
        if procs:
            server_cpu = sum(cpu_seconds(p.pid) for p in procs)
            for p in procs:
                p.send_signal(signal.SIGTERM)
            for p in procs:
                try:
                    p.wait(30)
                except subprocess.TimeoutExpired:
                    p.kill()
            for data in datas:
                report_bots(pathlib.Path(data) / "server.log")
                shutil.rmtree(data, ignore_errors=True)
        for helper in helpers:
            helper.stop()

    latencies = sorted(x for r in results for x in r.latencies)
    finished = sum(r.finished for r in results)
    errors = sum(r.errors for r in results)
    for problem in [p for r in results for p in r.problems][:10]:
        print("problem:", problem, file=sys.stderr)

    def pct(q: float) -> float:
        if not latencies:
            return float("nan")
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000

    clients = 1 if args.bots else SEATS
    print(f"rooms: {args.rooms}  connections: {args.rooms * clients}  procs: {args.procs}")
    if args.cluster:
        print(f"server_processes: {args.cluster} (PostgreSQL and Redis)")
    if args.bots:
        print(f"bots: 3 x {args.bots} per room  bot_delay_ms: {args.bot_delay_ms}")
    print(f"think_ms: {args.think_ms}  shout_window_ms: {args.shout_window_ms}")
    print(f"elapsed_s: {elapsed:.1f}  games_finished: {finished}")
    print(f"actions_sent: {sum(r.actions for r in results)}  measured: {len(latencies)}")
    print(f"refused_stale: {sum(r.refused for r in results)}")
    if latencies:
        print(f"mean_ms: {statistics.fmean(latencies) * 1000:.1f}  max_ms: {pct(1.0):.1f}")
    if proc is not None:
        per_room = (peak[0] - base) / max(1, args.rooms)
        print(f"server_rss_peak_mb: {peak[0] / 1024:.1f}  memory_per_room_kb: {per_room:.0f}")
    print(f"cpus: {os.cpu_count()}  client_cpu_s: {sum(r.cpu_s for r in results):.1f}", end="")
    print(f"  server_cpu_s: {server_cpu:.1f}" if server_cpu is not None else "")
    if server_cpu is not None:  # the server's own CPU time, its start-up left out
        acts = max(1, sum(r.actions for r in results))
        print(f"server_cpu_per_act_us: {(server_cpu - cpu_at_start) / acts * 1e6:.0f}")
    print(f"rooms_finished_per_s: {finished / elapsed:.3f}")
    print(f"p50_ms: {pct(0.50):.1f}")
    print(f"p99_ms: {pct(0.99):.1f}")
    print(f"errors: {errors}")
    return 0 if errors == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
