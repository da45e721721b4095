"""SSH sessions at scale, designs side by side in one run (issue 16).

Used by `scripts/bench_ssh.py --sessions N`. For each design a `modernart-server
--dev --ssh-guests` runs as a subprocess: this tree with `--terminal-sessions-per-worker
K` for each K of `--per-worker` (K=1: a process per session, main's isolation), and,
with `--baseline REV`, the tree of that commit (`git archive` of engine/, server/ and
tui/). N asyncssh guests at 80×24 open sessions (8 at a time) and wait for the
lobby. Measured:
- memory: the PSS of the server and every process under it (smaps_rollup),
  idle, then with N sessions in the lobby: (with − idle) / N per session;
- first screen: channel opened → the lobby's "Rooms" on the client's screen;
- key to screen: a key ('c', then Escape) sent by one of `--probes` sessions →
  the first bytes of its answer, repeated;
- with `--playing M`: M more sessions each create a 4-seat room, add three bots
  and play a whole game with keys (a WebSocket spectator of the room says when
  the seat must act and what); meanwhile the probes time their keys again, and
  each player's decision keys are timed to the first bytes of their answer.
  After the games: (PSS − PSS with the lobby sessions only) / M, per session
  after a whole game, and the total.
"""

from __future__ import annotations

import asyncio
import contextlib
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
from dataclasses import dataclass, field

import asyncssh

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

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
    game_mb: float = 0.0  # a playing session after its whole game
    total_mb: float = 0.0  # everything, at the end (server, zygote, workers)
    games: int = 0  # whole games played to their end
    game_seconds: list[float] = field(default_factory=list)
    first_alone: list[float] = field(default_factory=list)  # one session opening at a time
    first_screen: list[float] = field(default_factory=list)  # 8 opening at a time
    keys: list[float] = field(default_factory=list)
    keys_playing: list[float] = field(default_factory=list)  # the probes', while games run
    keys_players: list[float] = field(default_factory=list)  # the players' decisions
    refused: int = 0


async def start_server(
    design: str, src: pathlib.Path | None, data: pathlib.Path, per_worker: int | None
) -> tuple:
    port, ssh_port = free_port(), free_port()
    cmd = [sys.executable, "-m", "modernart.server.cli", "--dev", "--port", str(port)]
    cmd += ["--data", str(data), "--ssh-port", str(ssh_port), "--ssh-guests"]
    cmd += ["--ssh-max-per-address", "0", "--log-level", "warning"]
    if design == "e42ddb0":  # before the zygote
        cmd += ["--ssh-max-sessions", "0"]
    else:
        cmd += ["--ssh-memory-mb", "100000", "--ssh-max-startups", "0:100:0"]
        cmd += ["--ssh-per-address-startups", "0", "--ssh-start-rate", "0/1"]
        cmd += ["--ssh-total-start-rate", "0/1"]
    if per_worker is not None:
        cmd += ["--terminal-sessions-per-worker", str(per_worker)]
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    log = (data / "server.log").open("wb")
    proc = subprocess.Popen(cmd, env=env, cwd=data, stdout=log, stderr=log)
    for _ in range(600):
        try:
            _, w = await asyncio.open_connection("127.0.0.1", ssh_port)
            w.close()
            break
        except OSError:
            await asyncio.sleep(0.1)  # a process starting: nothing to wait on but its port
    else:
        raise SystemExit(f"the {design} server did not start")
    return proc, port, ssh_port


async def open_session(
    port: int, name: str, result: Result, into: list[float] | None = None
) -> Terminal | None:
    try:
        conn = await ssh_connect(port, name, None)
        t0 = time.monotonic()
        term = await open_terminal(conn)
        await term.wait_text("Rooms", timeout=120)
    except (OSError, asyncssh.Error, AssertionError) as exc:
        if not result.refused:
            print(f"{result.design}: a session failed: {exc!r}"[:400], file=sys.stderr)
        result.refused += 1
        return None
    (result.first_screen if into is None else into).append(time.monotonic() - t0)
    return term


async def key_to_screen(term: Terminal, key: str, timeout: float = 60) -> float:
    before = term.received
    t0 = time.monotonic()
    term.send(key)
    await term.wait(lambda: term.received > before, "an answer", timeout=timeout)
    return time.monotonic() - t0


async def probe(terms: list[Terminal], rounds: int, into: list[float]) -> None:
    """Each probe session types 'c' (the create dialog) then Escape, `rounds` times."""

    async def one(term: Terminal) -> None:
        for _ in range(rounds):
            into.append(await key_to_screen(term, "c"))
            await term.wait_text("Create a room", timeout=60)
            into.append(await key_to_screen(term, "\x1b"))
            await term.wait(lambda: "Create a room" not in term.text(), "closed", timeout=60)

    await asyncio.gather(*(one(t) for t in terms))


async def settle(terms: list[Terminal], quiet: float = 2.0, limit: float = 30.0) -> None:
    for _ in range(int(limit / quiet)):
        before = sum(t.received for t in terms)
        await asyncio.sleep(quiet)  # a measure over time: nothing to wait for
        if sum(t.received for t in terms) == before:
            return


ACT_KEYS = {  # a quick player's keys for the phase that waits on its seat
    "play": "\r",  # the chosen card
    "offer": "d",  # no second card for a double
    "sealed": UP + "\r",  # the lowest amount
    "price": UP + "\r",
}


async def play_a_game(term: Terminal, name: str, port: int, result: Result) -> None:
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
        started = time.monotonic()
        sent: tuple[int, str] | None = None
        pressing: asyncio.Task[None] | None = None

        async def press(keys: str) -> None:
            with contextlib.suppress(AssertionError):  # keys that changed nothing: not timed
                result.keys_players.append(await key_to_screen(term, keys, timeout=5))

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
                    result.games += 1
                    result.game_seconds.append(time.monotonic() - started)
                    return
                update = asyncio.ensure_future(spectator.next_update(timeout=120))
            if view is None or 0 not in (view.get("to_act") or []):
                continue
            if pressing is not None and not pressing.done():
                continue
            keys = ACT_KEYS.get(view.get("phase"), "p")  # open, once around, buy: pass
            mark = (spectator.seq, term.text())
            if mark != sent:
                sent = mark
                pressing = asyncio.create_task(press(keys))
    finally:
        if update is not None:
            update.cancel()
        await spectator.close()


async def run_design(
    design: str, src: pathlib.Path | None, args, per_worker: int | None = None
) -> Result:
    result = Result(design)
    data = pathlib.Path(tempfile.mkdtemp(prefix=f"bench-sessions-{design}-"))
    proc, port, ssh_port = await start_server(design, src, data, per_worker)
    try:
        await asyncio.sleep(3)  # the server (and the zygote) at rest: a measure over time
        result.idle_mb = tree_pss_mb(proc.pid)
        gate = asyncio.Semaphore(8)

        async def limited(i: int) -> Terminal | None:
            async with gate:
                return await open_session(ssh_port, f"s{i}", result)

        alone = [
            await open_session(ssh_port, f"s{i}", result, result.first_alone)
            for i in range(args.probes)
        ]
        rest = await asyncio.gather(*(limited(i) for i in range(args.probes, args.sessions)))
        terms = [t for t in [*alone, *rest] if t]
        await settle(terms)
        lobby_total = tree_pss_mb(proc.pid)
        result.lobby_mb = (lobby_total - result.idle_mb) / max(1, len(terms))
        probes = terms[: args.probes]
        await probe(probes, args.rounds, result.keys)
        players = []
        if args.playing:
            opened = [limited(args.sessions + i) for i in range(args.playing)]
            players = [t for t in await asyncio.gather(*opened) if t]
            await settle(players)
            lobby_total = tree_pss_mb(proc.pid)  # with the players in the lobby too
            games = asyncio.gather(
                *(
                    play_a_game(t, f"s{args.sessions + i}", port, result)
                    for i, t in enumerate(players)
                )
            )
            await asyncio.sleep(2)  # the games under way: a measure over time
            await probe(probes, args.rounds, result.keys_playing)
            try:
                await asyncio.wait_for(games, args.game_timeout)
            except TimeoutError:
                print(f"{design}: {result.games} of {len(players)} games ended in time")
            await settle(players)
            result.game_mb = (tree_pss_mb(proc.pid) - lobby_total) / max(1, len(players))
            result.game_mb += result.lobby_mb  # a session in the lobby, grown by its game
        result.total_mb = tree_pss_mb(proc.pid)
        for term in [*terms, *players]:
            term.chan.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
        if result.refused:
            print((data / "server.log").read_text()[-2000:], file=sys.stderr)
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
    return f"{pct(values, 0.5) * 1000:.0f} / {pct(values, 0.99) * 1000:.0f} ms"


def report(results: list[Result], args) -> None:
    print(
        f"sessions {args.sessions} in the lobby, probes {args.probes} x {args.rounds} rounds "
        f"x 2 keys, playing {args.playing}; load average {os.getloadavg()[0]:.1f}"
    )
    print(
        "| design | idle server | per lobby session | per session after a game | total | "
        "first screen alone p50 / max | 8 at once p50 / max | key→screen p50 / p99: lobby | "
        "lobby while games run | players | games (p50 / max) | refused |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        game = f"{r.game_mb:.1f} MB" if args.playing else "–"
        print(
            f"| {r.design} | {r.idle_mb:.1f} MB | {r.lobby_mb:.1f} MB | {game} | "
            f"{r.total_mb:.0f} MB | {seconds(r.first_alone)} | {seconds(r.first_screen)} | "
            f"{ms(r.keys)} | {ms(r.keys_playing)} | {ms(r.keys_players)} | "
            f"{r.games} in {seconds(r.game_seconds)} | "
            f"{r.refused} |"
        )
    base = results[0]
    for r in results[1:]:
        if base.lobby_mb:
            line = f"{r.design}/{base.design}: per lobby session {r.lobby_mb / base.lobby_mb:.2f}"
            if base.game_mb:
                line += f", after a game {r.game_mb / base.game_mb:.2f}"
            print(line)


async def bench(args) -> None:
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-baseline-") as tmp:
        if args.baseline:
            src = baseline_tree(args.baseline, pathlib.Path(tmp))
            results.append(await run_design(args.baseline, src, args))
            print(f"{args.baseline} done: {results[-1].lobby_mb:.1f} MB a session", flush=True)
        for k in args.per_worker:
            results.append(await run_design(f"K={k}", None, args, k))
            print(f"K={k} done: {results[-1].lobby_mb:.1f} MB a session", flush=True)
    report(results, args)
