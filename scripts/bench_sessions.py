"""SSH sessions at scale, designs side by side in one run (issue 16).

Used by `scripts/bench_ssh.py --sessions N`. For each design a `modernart-server
--dev --ssh-guests` runs as a subprocess: this tree with `--terminal-sessions-per-worker
K` for each K of `--per-worker` (K=1: a process per session, main's isolation), and,
with `--baseline REV`, the tree of that commit (`git archive` of engine/, server/ and
tui/). asyncssh guests at 80×24 open sessions in waves of `--wave` (a wave's sessions
all show the lobby before the next opens). The client side is three processes, so
that a busy client does not delay the others' measures (their CPU is reported):
- the crowd (a subprocess): the N − probes lobby sessions that only count bytes
  (no terminal emulation);
- this process: the `--probes` sessions (pyte screens), which time a key ('c', then
  Escape) → the first bytes of its answer, `--rounds` times each, one key at a time;
- the players (a subprocess, with `--playing M`): M more sessions each create a 4-seat
  room, add three bots and play a game with keys (a WebSocket spectator of the room
  says when the seat must act and what), each decision key timed to the first bytes
  of its answer; the bots pause `--bot-delay-ms` (jittered ±50 %) before each act, and
  the games stop after `--game-timeout` seconds. Meanwhile the probes time their keys
  again.
Measured besides: memory, the PSS of the server and every process under it
(smaps_rollup), idle, then with N sessions in the lobby: (with − idle) / N per
session; after the games, (PSS − PSS with the lobby sessions only) / M; first
screen: channel opened → the lobby's "Rooms"; the CPU (% of one core) of the server
(everything under it), of the game server's process alone, and of the bench's
processes while the probes type.

Every garbage collection in the workers is timed, the same way for every design
(scripts/gcpauses.py: a `sitecustomize` hook in the forked workers, issue 31): their
count and pauses are reported after the table. With `--repeat R` the designs run R
times, in turn (baseline, K …, baseline, K …), so that a change of the machine's load
falls on all of them.

With `--door-machine` (issue 30) one more design: the game server without doors, and a
`modernart-server door` process (the door machine, here on the same two cores) with the
SSH door, its sessions playing on the game server through signed tickets.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import pathlib
import shutil
import signal
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import asyncssh
import psutil

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scripts import gcpauses  # noqa: E402
from scripts.loadtest import free_port  # noqa: E402
from tests.server.sshterm import UP, Terminal, open_terminal, ssh_connect  # noqa: E402
from tests.server.wsclient import Client  # noqa: E402


def tree_pss_mb(pid: int) -> float:
    """The PSS of a process and all its descendants, in MB."""
    total = 0
    pids = [pid]
    while pids:
        p = pids.pop()
        with contextlib.suppress(OSError):
            for line in pathlib.Path(f"/proc/{p}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
                    break
        with contextlib.suppress(OSError):
            for task in pathlib.Path(f"/proc/{p}/task").iterdir():
                children = (task / "children").read_text().split()
                pids += [int(c) for c in children]
    return total / 1024


def cpu_seconds(pid: int, tree: bool = False) -> float:
    """User + system CPU of a process (and, with `tree`, of all its descendants now)."""
    total = 0.0
    with contextlib.suppress(psutil.Error):
        proc = psutil.Process(pid)
        for p in [proc, *(proc.children(recursive=True) if tree else [])]:
            with contextlib.suppress(psutil.Error):
                times = p.cpu_times()
                total += times.user + times.system
    return total


def baseline_tree(rev: str, into: pathlib.Path) -> pathlib.Path:
    """engine/, server/ and tui/ of `rev`, as an importable `modernart` package."""
    archive = into / "src.tar"
    with archive.open("wb") as f:
        subprocess.run(
            ["git", "archive", rev, "engine", "server", "tui"], cwd=ROOT, stdout=f, check=True
        )
    tree = into / "tree"
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    # A client process per session (before the zygote) gets a clean environment: let it
    # find this tree too. A zygote inherits the server's.
    pty = tree / "server" / "ssh" / "pty.py"
    if pty.exists():
        code = pty.read_text()
        line = '"PATH": os.environ.get("PATH", "/usr/bin:/bin"),'
        assert line in code, "the baseline's client environment changed"
        pty.write_text(code.replace(line, line + ' "PYTHONPATH": os.environ["PYTHONPATH"],'))
    shim = into / "shim" / "modernart"
    shim.mkdir(parents=True)
    (shim / "__init__.py").write_text("")
    for part in ("engine", "server", "tui"):
        (shim / part).symlink_to(tree / part)
    return shim.parent


@dataclass
class Result:
    design: str
    idle_mb: float = 0.0
    lobby_mb: float = 0.0
    game_mb: float = 0.0  # a playing session after its game
    total_mb: float = 0.0  # everything, at the end (server, zygote, workers)
    games: int = 0  # whole games played to their end
    started: int = 0  # games started
    game_seconds: list[float] = field(default_factory=list)
    first_alone: list[float] = field(default_factory=list)  # one session opening at a time
    first_screen: list[float] = field(default_factory=list)  # a wave opening at once
    keys: list[float] = field(default_factory=list)  # the probes' 'c'
    escapes: list[float] = field(default_factory=list)  # the probes' Escape
    keys_playing: list[float] = field(default_factory=list)  # the probes' 'c' while games run
    escapes_playing: list[float] = field(default_factory=list)
    keys_players: list[float] = field(default_factory=list)  # the players' decisions
    refused: int = 0
    # CPU, % of one core, while the probes type: (server, bench) in the lobby, with games
    cpu_lobby: tuple[float, float] = (0.0, 0.0)
    cpu_games: tuple[float, float] = (0.0, 0.0)
    # the game server's own process (not the doors' zygote and workers), lobby / games
    cpu_game_server: tuple[float, float] = (0.0, 0.0)
    load: list[float] = field(default_factory=list)  # 1-minute load average, per phase
    lost: int = 0  # probes that stopped answering (their keys after that not measured)
    failed: str = ""  # what stopped the run of this design before its end
    gc: gcpauses.Pauses | None = None  # the workers' collections (scripts/gcpauses.py)


# `modernart-server --dev` whose rooms' bots pause `argv[1]` ms (jittered) unless a room
# says otherwise: --dev's 0 lets a game go as fast as its one player types, many
# updates a second, far from the pace of people playing.
WITH_BOT_DELAY = """
import runpy, sys
try:
    from modernart.server.rooms import options
except ImportError:  # a baseline from before server/ had folders (issue 29)
    from modernart.server import options
delay, real = int(sys.argv.pop(1)), options.parse_options
def parse_options(raw, seats, **kw):
    chosen = real(raw, seats, **kw)
    if not (isinstance(raw, dict) and "bot_delay_ms" in raw):
        chosen.bot_delay_ms = delay
    return chosen
options.parse_options = parse_options
runpy.run_module("modernart.server.cli", run_name="__main__")
"""


DOOR_MACHINE = "door machine"  # the design whose doors are a process of their own


async def start_server(
    design: str,
    src: pathlib.Path | None,
    data: pathlib.Path,
    per_worker: int | None,
    bot_delay_ms: int,
    gc_dir: pathlib.Path | None = None,
    extra: Sequence[str] = (),
) -> tuple:
    """The design's processes (the game server first), its WebSocket and SSH ports;
    `extra`: more arguments for the server with the doors (e.g. `--web-port`)."""
    port, ssh_port = free_port(), free_port()
    cmd = [sys.executable, "-c", WITH_BOT_DELAY, str(bot_delay_ms), "--dev", "--port", str(port)]
    cmd += ["--data", str(data), "--log-level", "warning"]
    procs = []
    if design.startswith(DOOR_MACHINE):
        secret = data / "door-secret"
        secret.write_text(os.urandom(24).hex())
        cmd += ["--door-secret-file", str(secret)]
        log = (data / "game.log").open("wb")
        procs.append(subprocess.Popen(cmd, cwd=data, stdout=log, stderr=log))
        await listening(port, "the game server")  # its store made before the door opens it
        cmd = [sys.executable, "-m", "modernart.server.cli", "door", "--door-secret-file"]
        cmd += [str(secret), "--server", f"ws://127.0.0.1:{port}/", "--port", "0"]
        cmd += ["--data", str(data), "--log-level", "warning"]  # the same store (SQLite)
    cmd += ["--ssh-port", str(ssh_port), "--ssh-guests", "--ssh-max-per-address", "0"]
    if design == "e42ddb0":  # before the zygote
        cmd += ["--ssh-max-sessions", "0"]
    else:
        cmd += ["--ssh-memory-mb", "100000", "--ssh-max-startups", "0:100:0"]
        cmd += ["--ssh-per-address-startups", "0", "--ssh-start-rate", "0/1"]
        cmd += ["--ssh-total-start-rate", "0/1"]
    if per_worker is not None:
        cmd += ["--terminal-sessions-per-worker", str(per_worker)]
    cmd += extra
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    if gc_dir is not None:  # every collection in the workers timed (scripts/gcpauses.py)
        hook = gcpauses.hook(gc_dir / "hook")
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(hook), env.get("PYTHONPATH")]))
        env[gcpauses.ENV] = str(gc_dir)
    log = (data / "server.log").open("wb")
    procs.append(subprocess.Popen(cmd, env=env, cwd=data, stdout=log, stderr=log))
    await listening(ssh_port, f"the {design} server")
    return procs, port, ssh_port


async def listening(port: int, what: str) -> None:
    for _ in range(600):
        try:
            _, w = await asyncio.open_connection("127.0.0.1", port)
            w.close()
            return
        except OSError:
            await asyncio.sleep(0.1)  # a process starting: nothing to wait on but its port
    raise SystemExit(f"{what} did not start")


class Counter(asyncssh.SSHClientSession):  # type: ignore[type-arg]
    """A crowd session: counts the bytes it receives, emulates no terminal. `shown` is
    set once the lobby's title ("Rooms", one run of cells) has come."""

    def __init__(self) -> None:
        self.received = 0
        self.tail = b""
        self.shown = asyncio.Event()
        self.chan: asyncssh.SSHClientChannel[bytes] | None = None

    def connection_made(self, chan: asyncssh.SSHClientChannel[bytes]) -> None:  # type: ignore[override]
        self.chan = chan

    def data_received(self, data: bytes, datatype: int | None) -> None:
        self.received += len(data)
        if not self.shown.is_set():
            self.tail = (self.tail + data)[-4096:]
            if b"Rooms" in self.tail:
                self.shown.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.shown.set()


def address(name: str) -> str:
    """Session `sN`'s own loopback address: a worker takes at most two sessions of one
    address (pool.py `per_address`), players come from many, so workers fill to K."""
    n = int(name[1:]) if name[1:].isdigit() else 0
    return f"127.0.{1 + n // 250}.{1 + n % 250}"


async def open_counter(port: int, name: str) -> Counter:
    conn = await ssh_connect(port, name, None, address(name))  # a guest
    _, counter = await conn.create_session(
        Counter, term_type="xterm-256color", term_size=(80, 24), encoding=None
    )
    return counter  # type: ignore[return-value]


async def open_session(port: int, name: str, crowd: bool) -> tuple[Any, float | None, str]:
    """(the session, seconds to its lobby, what failed) for a crowd or a screen session."""
    t0 = time.monotonic()
    try:
        if crowd:
            term: Any = await open_counter(port, name)
            t0 = time.monotonic()
            async with asyncio.timeout(120):
                await term.shown.wait()
            if term.chan is None or term.chan.is_closing():
                raise AssertionError("closed before the lobby")
        else:
            conn = await ssh_connect(port, name, None, address(name))
            t0 = time.monotonic()
            term = await open_terminal(conn)
            await term.wait_text("Rooms", timeout=120)
    except (OSError, asyncssh.Error, AssertionError, TimeoutError) as exc:
        return None, None, repr(exc)[:300]
    return term, time.monotonic() - t0, ""


async def open_waves(port: int, names: list[str], wave: int, crowd: bool) -> dict[str, Any]:
    """Open the sessions `wave` at a time, each wave in the lobby before the next."""
    terms: list[Any] = []
    firsts: list[float] = []
    failed: list[str] = []
    for i in range(0, len(names), wave):
        opened = await asyncio.gather(*(open_session(port, n, crowd) for n in names[i : i + wave]))
        for term, seconds, why in opened:
            if term is None:
                failed.append(why)
            else:
                terms.append(term)
                firsts.append(seconds)
    return {"terms": terms, "first_screen": firsts, "refused": len(failed), "why": failed[:1]}


async def key_to_screen(term: Terminal, key: str, timeout: float = 60) -> float:
    before = term.received
    t0 = time.monotonic()
    term.send(key)
    await term.wait(lambda: term.received > before, "an answer", timeout=timeout)
    return time.monotonic() - t0


async def probe(terms: list[Terminal], rounds: int, opens: list[float], closes: list[float]) -> int:
    """The probe sessions in turn, one key at a time: 'c' (the create dialog opens) then
    Escape (it closes; a lone ESC waits ESCAPE_TICK, 0.1 s, for the rest of a sequence
    first), `rounds` times each. One key at a time: each measures a key against the
    load of the others (the crowd, the games), not of other probes in its worker."""
    lost: list[Terminal] = []
    for _ in range(rounds):
        for term in terms:
            if term in lost:
                continue
            try:
                opens.append(await key_to_screen(term, "c", timeout=30))
                await term.wait_text("Create a room", timeout=30)
                closes.append(await key_to_screen(term, "\x1b", timeout=30))
                await term.wait(lambda t=term: "Create a room" not in t.text(), "closed", 30)
            except AssertionError as exc:  # e.g. its session restarted: not a probe any more
                print(f"a probe lost: {str(exc)[:900]}", file=sys.stderr)
                lost.append(term)
    return len(lost)


ACT_KEYS = {  # a quick player's keys for the phase that waits on its seat
    "play": "\r",  # the chosen card
    "offer": "d",  # no second card for a double
    "sealed": UP + "\r",  # the lowest amount
    "price": UP + "\r",
}


async def play_a_game(term: Terminal, name: str, port: int, out: dict[str, Any]) -> None:
    """Host a 4-seat room with three bots, start it, and play every decision with keys."""
    term.send("c")
    await term.wait_text("Create a room", timeout=120)
    term.send("\x13")  # ctrl+s: the defaults (Modern Art, 4 seats)
    await term.wait_text("You host", timeout=120)
    term.send("bbb")
    await term.wait(lambda: term.text().count("(R)") + term.text().count("(H)") >= 3, "bots", 120)
    spectator = await Client.hello(f"ws://127.0.0.1:{port}/", f"{name}-eye")
    update: asyncio.Future | None = None
    try:
        await spectator.send("rooms")
        rooms = (await spectator.expect("rooms"))["rooms"]
        (room,) = [r for r in rooms if r["name"] == f"{name}'s table"]
        await spectator.send("watch", room=room["id"])
        await spectator.expect("joined")
        term.send("s")
        out["started"] += 1
        started = time.monotonic()
        sent: tuple[int, int] | None = None
        pressing: asyncio.Task[None] | None = None

        async def press(keys: str) -> None:
            with contextlib.suppress(AssertionError):  # keys that changed nothing: not timed
                out["keys_players"].append(await key_to_screen(term, keys, timeout=5))

        view: dict | None = None
        update = asyncio.ensure_future(spectator.next_update(timeout=120))
        while True:  # a new view, or the last press answered: decide again
            waits = {update} if pressing is None or pressing.done() else {update, pressing}
            done, _ = await asyncio.wait(waits, timeout=3, return_when=asyncio.FIRST_COMPLETED)
            if not done:  # our keys came too early or changed nothing: type them again
                sent = None
            if update in done:
                view = update.result()["view"]
                if view.get("status") == "finished" or view.get("phase") == "over":
                    out["games"] += 1
                    out["game_seconds"].append(time.monotonic() - started)
                    return
                update = asyncio.ensure_future(spectator.next_update(timeout=120))
            if view is None or 0 not in (view.get("to_act") or []):
                continue
            if pressing is not None and not pressing.done():
                continue
            keys = ACT_KEYS.get(view.get("phase"), "p")  # open, once around, buy: pass
            mark = (spectator.seq, term.received)
            if mark != sent:
                sent = mark
                pressing = asyncio.create_task(press(keys))
    finally:
        if update is not None:
            update.cancel()
        await spectator.close()


def say(msg: dict[str, Any]) -> None:
    print(json.dumps(msg), flush=True)


async def commands() -> asyncio.Queue[str]:
    """This helper's stdin, a line at a time ("" at its end)."""
    lines: asyncio.Queue[str] = asyncio.Queue()

    async def read() -> None:
        while True:
            line = await asyncio.to_thread(sys.stdin.readline)
            await lines.put(line.strip() if line else "")
            if not line:
                return

    asyncio.get_running_loop().create_task(read())
    return lines


async def helper_main(role: str, ssh_port: int, port: int, first: int, count: int, args) -> None:
    """A client-side process: the crowd (byte counters) or the players (games)."""
    names = [f"s{first + i}" for i in range(count)]
    lines = await commands()
    opened = await open_waves(ssh_port, names, args.wave, crowd=role == "crowd")
    terms = opened.pop("terms")
    say({"ready": len(terms), **opened})
    out: dict[str, Any] = {"games": 0, "started": 0, "game_seconds": [], "keys_players": []}
    games: asyncio.Future | None = None
    while True:
        line = await lines.get()
        if line == "stat":
            say({"received": sum(t.received for t in terms), **out})
        elif line == "go" and role == "players":
            games = asyncio.gather(
                *(play_a_game(t, names[i], port, out) for i, t in enumerate(terms)),
                return_exceptions=True,
            )

            async def bounded(games: asyncio.Future = games) -> None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(games, args.game_timeout)
                say({"over": 1, **out})

            asyncio.get_running_loop().create_task(bounded())
        elif not line:
            for term in terms:
                term.chan.close()
            return


class Helper:
    """A client-side subprocess (`helper_main`), talked to by lines of JSON."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    @classmethod
    async def start(cls, role: str, ssh_port: int, port: int, first: int, count: int, args):
        cmd = [sys.executable, __file__, role, str(ssh_port), str(port), str(first), str(count)]
        cmd += ["--wave", str(args.wave), "--game-timeout", str(args.game_timeout)]
        proc = await asyncio.create_subprocess_exec(
            *cmd,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            limit=1 << 24,  # a line of every player's key times is long
        )
        return cls(proc)

    async def answer(self, key: str, timeout: float = 3600) -> dict[str, Any]:
        assert self.proc.stdout is not None
        async with asyncio.timeout(timeout):
            while True:
                line = await self.proc.stdout.readline()
                if not line:
                    raise SystemExit(f"a bench helper ended (code {await self.proc.wait()})")
                msg = json.loads(line)
                if key in msg:
                    return msg

    async def ask(self, command: str, key: str) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(command.encode() + b"\n")
        return await self.answer(key, 60)

    def tell(self, command: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(command.encode() + b"\n")

    async def stop(self) -> None:
        if self.proc.returncode is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                await asyncio.wait_for(self.proc.wait(), 60)
            except TimeoutError:
                self.proc.kill()


async def settle(received, quiet: float = 2.0, limit: float = 30.0) -> None:
    """Until the sessions (`received()`: their bytes so far) have had nothing for `quiet` s."""
    before = await received()
    for _ in range(int(limit / quiet)):
        await asyncio.sleep(quiet)  # a measure over time: nothing to wait for
        now = await received()
        if now == before:
            return
        before = now


class Clock:
    """CPU (% of one core) of the server's tree and of the bench's processes, over a span."""

    def __init__(self, servers: list[int], bench: list[int]) -> None:
        self.servers, self.bench = servers, bench
        self.start = self._now()

    def _now(self) -> tuple[float, float, float, float]:
        bench = sum(cpu_seconds(pid) for pid in self.bench)
        servers = sum(cpu_seconds(pid, tree=True) for pid in self.servers)
        return time.monotonic(), servers, bench, cpu_seconds(self.servers[0])

    def percent(self) -> tuple[float, float]:
        """(the servers' trees, the bench) since the start, % of one core."""
        t1, s1, b1, _ = self._now()
        t0, s0, b0, _ = self.start
        return 100 * (s1 - s0) / (t1 - t0), 100 * (b1 - b0) / (t1 - t0)

    def game_server(self) -> float:
        """The game server's own process since the start, % of one core."""
        t1, _, _, g1 = self._now()
        t0, _, _, g0 = self.start
        return 100 * (g1 - g0) / (t1 - t0)


async def run_design(
    design: str, src: pathlib.Path | None, args, per_worker: int | None = None
) -> Result:
    result = Result(design)
    data = pathlib.Path(tempfile.mkdtemp(prefix=f"bench-sessions-{design}-"))
    gc_dir = data / "gc"
    gc_dir.mkdir()
    began = time.monotonic()
    procs, port, ssh_port = await start_server(
        design, src, data, per_worker, args.bot_delay_ms, gc_dir
    )
    pids = [p.pid for p in procs]

    def pss() -> float:
        return sum(tree_pss_mb(pid) for pid in pids)

    helpers: list[Helper] = []
    probes: list[Terminal] = []
    try:
        await asyncio.sleep(3)  # the server (and the zygote) at rest: a measure over time
        result.idle_mb = pss()
        result.load.append(os.getloadavg()[0])
        for i in range(args.probes):
            term, seconds, why = await open_session(ssh_port, f"s{i}", crowd=False)
            if term is None:
                print(f"{design}: a probe failed: {why}", file=sys.stderr)
                result.refused += 1
                continue
            probes.append(term)
            result.first_alone.append(seconds)
        crowd = await Helper.start(
            "crowd", ssh_port, port, args.probes, args.sessions - args.probes, args
        )
        helpers.append(crowd)
        ready = await crowd.answer("ready")
        result.first_screen += ready["first_screen"]
        result.refused += ready["refused"]
        if ready["why"]:
            print(f"{design}: a session failed: {ready['why'][0]}", file=sys.stderr)

        async def received() -> int:
            answers = [await h.ask("stat", "received") for h in helpers]
            return sum(a["received"] for a in answers) + sum(t.received for t in probes)

        await settle(received)
        sessions = len(probes) + ready["ready"]
        lobby_total = pss()
        result.lobby_mb = (lobby_total - result.idle_mb) / max(1, sessions)
        bench_pids = [os.getpid(), crowd.proc.pid]
        result.load.append(os.getloadavg()[0])
        clock = Clock(pids, bench_pids)
        result.lost += await probe(probes, args.rounds, result.keys, result.escapes)
        result.cpu_lobby = clock.percent()
        game_server_lobby = clock.game_server()
        if args.playing:
            players = await Helper.start(
                "players", ssh_port, port, args.sessions, args.playing, args
            )
            helpers.append(players)
            ready = await players.answer("ready")
            result.first_screen += ready["first_screen"]
            result.refused += ready["refused"]
            await settle(received)
            lobby_total = pss()  # with the players in the lobby too
            players.tell("go")
            await asyncio.sleep(5)  # the games under way: a measure over time
            result.load.append(os.getloadavg()[0])
            clock = Clock(pids, [*bench_pids, players.proc.pid])
            result.lost += await probe(
                probes, args.rounds, result.keys_playing, result.escapes_playing
            )
            result.cpu_games = clock.percent()
            result.cpu_game_server = (game_server_lobby, clock.game_server())
            over = await players.answer("over", args.game_timeout + 300)
            result.games, result.started = over["games"], over["started"]
            result.game_seconds = over["game_seconds"]
            result.keys_players = over["keys_players"]
            await settle(received)
            grown = pss() - lobby_total
            result.game_mb = grown / max(1, ready["ready"]) + result.lobby_mb
        result.total_mb = pss()
        result.load.append(os.getloadavg()[0])
    except (AssertionError, OSError, asyncssh.Error, TimeoutError) as exc:
        result.failed = repr(exc).splitlines()[0][:160]  # the figures so far are reported
        print(f"{design} failed: {exc}"[:3000], file=sys.stderr)
    finally:
        for term in probes:
            term.chan.close()
        for helper in helpers:
            await helper.stop()
        for proc in reversed(procs):  # the door machine before its game server
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
        result.gc = gcpauses.read(gc_dir, time.monotonic() - began)
        log = (data / "server.log").read_text(errors="replace")
        if result.refused:
            print(log[-2000:], file=sys.stderr)
        lines = log.splitlines()
        # A worker whose loop stalled for --ssh-hang-timeout: killed, its sessions restart
        # (before the watchdog told starvation apart, every such stall was a kill) ...
        kills = [line for line in lines if "no heartbeat" in line and "waiting for CPU" not in line]
        if kills:
            result.failed += f" ({len(kills)} workers killed by the watchdog)"
            print(f"{design}: {len(kills)} workers killed: {kills[0]}", file=sys.stderr)
        # ... or, only waiting for a core, spared (server/doors/terminal/pool.py `stuck`).
        spared = [line for line in lines if "waiting for CPU" in line]
        if spared:
            print(f"{design}: {len(spared)} starved workers spared: {spared[0]}", file=sys.stderr)
        shutil.rmtree(data, ignore_errors=True)
    return result


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def seconds(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} / {max(values):.2f} s" if values else "–"


def ms(values: list[float]) -> str:
    if not values:
        return "–"
    return f"{pct(values, 0.5) * 1000:.0f} / {pct(values, 0.99) * 1000:.0f} ms ({len(values)})"


def cpu(pair: tuple[float, float]) -> str:
    return f"{pair[0]:.0f}% / {pair[1]:.0f}%"


def report(results: list[Result], args) -> None:
    print(
        f"sessions {args.sessions} in the lobby, probes {args.probes} x {args.rounds} rounds "
        f"x 2 keys, playing {args.playing} (games bound {args.game_timeout:.0f} s), waves of "
        f"{args.wave}, bots' delay {args.bot_delay_ms} ms; load average now "
        f"{os.getloadavg()[0]:.1f}"
    )
    print(
        "| design | load (start, lobby, games, end) | idle server | per lobby session | "
        "per session after a game | total | first screen alone p50 / max | in a wave p50 / "
        "max | key→first bytes p50 / p99 (n): lobby 'c' | lobby Escape | lobby 'c' while "
        "games run | Escape while games run | players' decisions | CPU server / bench: "
        "lobby | while games run | CPU of the game server's process: lobby / games | "
        "games ended of started (p50 / max) | refused |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        game = f"{r.game_mb:.1f} MB" if args.playing else "–"
        print(
            f"| {r.design} | {', '.join(f'{x:.1f}' for x in r.load)} | {r.idle_mb:.1f} MB | "
            f"{r.lobby_mb:.1f} MB | {game} | {r.total_mb:.0f} MB | {seconds(r.first_alone)} | "
            f"{seconds(r.first_screen)} | {ms(r.keys)} | {ms(r.escapes)} | {ms(r.keys_playing)} | "
            f"{ms(r.escapes_playing)} | "
            f"{ms(r.keys_players)} | {cpu(r.cpu_lobby)} | {cpu(r.cpu_games)} | "
            f"{cpu(r.cpu_game_server)} | "
            f"{r.games} of {r.started} in {seconds(r.game_seconds)} | {r.refused} |"
            + (f" probes lost: {r.lost} |" if r.lost else "")
            + (f" failed: {r.failed} |" if r.failed else "")
        )
    print("The workers' garbage collections: n: p50 / p99 / max, over the aim (20 ms)")
    print(
        "| design | workers | minutes | measure | every collection | full (generation 2) "
        "| full, sessions not quiet |"
    )
    print("|---|---|---|---|---|---|---|")
    for r in results:
        for on_cpu in (False, True) if r.gc is not None else ():
            every, full, busy = gcpauses.summary(r.gc, on_cpu)
            print(
                f"| {r.design} | {r.gc.workers} | {r.gc.seconds / 60:.1f} | "
                f"{'CPU' if on_cpu else 'pause'} | {every} | {full} | {busy} |"
            )
    for r in results:
        if r.gc is not None:
            print(f"{r.design}, full collections: {gcpauses.sizes(r.gc)}")
    base = results[0]
    for r in results[1:]:
        if base.lobby_mb:
            line = f"{r.design}/{base.design}: per lobby session {r.lobby_mb / base.lobby_mb:.2f}"
            if base.game_mb:
                line += f", after a game {r.game_mb / base.game_mb:.2f}"
            print(line)
    sys.stdout.flush()


async def quiet_machine(below: float | None, longest: float = 300.0) -> None:
    """Until the 1-minute load is under `below` (at most `longest` s): each design starts
    on a machine as quiet as the first, not in the load its predecessor left."""
    waited = 0.0
    while below is not None and os.getloadavg()[0] >= below and waited < longest:
        await asyncio.sleep(5)  # the load average moves over seconds: nothing to wait on
        waited += 5


async def bench(args) -> None:
    results = []
    below = getattr(args, "quiet_load", None)
    with tempfile.TemporaryDirectory(prefix="bench-baseline-") as tmp:
        src = baseline_tree(args.baseline, pathlib.Path(tmp)) if args.baseline else None
        for _ in range(getattr(args, "repeat", 1)):  # the designs in turn, R times
            if src is not None:
                await quiet_machine(below)
                results.append(await run_design(args.baseline, src, args))
                report(results, args)  # each design's figures as soon as they are in
            for k in args.per_worker:
                await quiet_machine(below)
                results.append(await run_design(f"K={k}", None, args, k))
                report(results, args)
                if args.door_machine:
                    results.append(await run_design(f"{DOOR_MACHINE} K={k}", None, args, k))
                    report(results, args)


if __name__ == "__main__":  # a client-side helper process of `run_design`
    parser = argparse.ArgumentParser(description="a bench helper: the crowd or the players")
    parser.add_argument("role", choices=["crowd", "players"])
    parser.add_argument("ssh_port", type=int)
    parser.add_argument("port", type=int)
    parser.add_argument("first", type=int)
    parser.add_argument("count", type=int)
    parser.add_argument("--wave", type=int, default=10)
    parser.add_argument("--game-timeout", type=float, default=300.0)
    a = parser.parse_args()
    asyncio.run(helper_main(a.role, a.ssh_port, a.port, a.first, a.count, a))
