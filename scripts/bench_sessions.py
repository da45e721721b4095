"""SSH sessions at scale, the old design against the new in one run (issue 16).

Used by `scripts/bench_ssh.py --sessions N`. For each design a `modernart-server
--dev --ssh-guests` runs as a subprocess (the old one from `git archive REV` of
engine/, server/ and tui/); N asyncssh guests at 80×24 open sessions (8 at a
time) and wait for the lobby. Measured:
- memory: the PSS of the server and every process under it (smaps_rollup),
  idle, then with N sessions in the lobby: (with − idle) / N per session;
- first screen: channel opened → the lobby's "Rooms" on the client's screen;
- key to screen: a key ('c', then Escape) sent by one of `--probes` sessions →
  the first bytes of its answer, repeated; optionally while `--playing`
  further sessions watch games that `scripts/loadtest.py` clients play.
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
from tests.server.sshterm import Terminal, open_terminal, ssh_connect  # noqa: E402


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
    # Its client processes get a clean environment: let them find this tree too.
    pty = tree / "server" / "ssh" / "pty.py"
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
    first_alone: list[float] = field(default_factory=list)  # one session opening at a time
    first_screen: list[float] = field(default_factory=list)  # 8 opening at a time
    keys: list[float] = field(default_factory=list)
    keys_playing: list[float] = field(default_factory=list)
    refused: int = 0


async def start_server(design: str, src: pathlib.Path | None, data: pathlib.Path) -> tuple:
    port, ssh_port = free_port(), free_port()
    cmd = [sys.executable, "-m", "modernart.server.cli", "--dev", "--port", str(port)]
    cmd += ["--data", str(data), "--ssh-port", str(ssh_port), "--ssh-guests"]
    cmd += ["--ssh-max-per-address", "0", "--log-level", "warning"]
    if design == "old":
        cmd += ["--ssh-max-sessions", "0"]
    else:
        cmd += ["--ssh-memory-mb", "100000", "--ssh-max-startups", "0:100:0"]
        cmd += ["--ssh-per-address-startups", "0", "--ssh-start-rate", "0/1"]
        cmd += ["--ssh-total-start-rate", "0/1"]
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


async def key_to_screen(term: Terminal, key: str) -> float:
    before = term.received
    t0 = time.monotonic()
    term.send(key)
    await term.wait(lambda: term.received > before, "an answer", timeout=60)
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


async def run_design(design: str, src: pathlib.Path | None, args) -> Result:
    result = Result(design)
    data = pathlib.Path(tempfile.mkdtemp(prefix=f"bench-sessions-{design}-"))
    proc, port, ssh_port = await start_server(design, src, data)
    loadtest = None
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
        result.lobby_mb = (tree_pss_mb(proc.pid) - result.idle_mb) / max(1, len(terms))
        probes = terms[: args.probes]
        await probe(probes, args.rounds, result.keys)
        if args.playing:
            env = dict(os.environ)
            if src is not None:
                env["PYTHONPATH"] = str(src)
            rooms = max(1, args.playing // 4)
            loadtest = subprocess.Popen(
                [
                    sys.executable,
                    str(ROOT / "scripts/loadtest.py"),
                    "--url",
                    f"ws://127.0.0.1:{port}/",
                    "--rooms",
                    str(rooms),
                    "--duration",
                    "600",
                    "--think-ms",
                    "250",
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env=env,
            )
            watchers = [
                t
                for t in await asyncio.gather(
                    *(limited(args.sessions + i) for i in range(args.playing))
                )
                if t
            ]
            for i, term in enumerate(watchers):  # each watches one of the games in play
                await term.wait(lambda t=term: "playing" in t.text(), "a game listed", timeout=120)
                term.send("\x1b[B" * (i % rooms) + "w")
            await asyncio.gather(
                *(
                    w.wait(lambda w=w: "Rooms" not in w.text(), "a table", timeout=120)
                    for w in watchers
                )
            )
            await probe(probes, args.rounds, result.keys_playing)
            for term in watchers:
                term.chan.close()
        for term in terms:
            term.chan.close()
    finally:
        if loadtest is not None:
            loadtest.kill()
            loadtest.wait()
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


def report(results: list[Result], args) -> None:
    print(
        f"sessions {args.sessions}, probes {args.probes} x {args.rounds} rounds x 2 keys, "
        f"playing {args.playing}; load average {os.getloadavg()[0]:.1f}"
    )
    print(
        "| design | idle server | per lobby session | first screen alone p50 / max | "
        "8 at once p50 / max | key→screen p50 / p99 (lobby) | with games watched | refused |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for r in results:
        playing = (
            f"{pct(r.keys_playing, 0.5) * 1000:.0f} / {pct(r.keys_playing, 0.99) * 1000:.0f} ms"
            if r.keys_playing
            else "–"
        )
        print(
            f"| {r.design} | {r.idle_mb:.1f} MB | {r.lobby_mb:.1f} MB | "
            f"{seconds(r.first_alone)} | {seconds(r.first_screen)} | "
            f"{pct(r.keys, 0.5) * 1000:.0f} / {pct(r.keys, 0.99) * 1000:.0f} ms | {playing} | "
            f"{r.refused} |"
        )
    if len(results) == 2 and results[0].lobby_mb:
        print(f"new/old per lobby session: {results[1].lobby_mb / results[0].lobby_mb:.2f}")


async def bench(args) -> None:
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-baseline-") as tmp:
        if args.baseline:
            src = baseline_tree(args.baseline, pathlib.Path(tmp))
            results.append(await run_design("old", src, args))
            print(f"old design done: {results[-1].lobby_mb:.1f} MB a session", flush=True)
        results.append(await run_design("new", None, args))
    report(results, args)
