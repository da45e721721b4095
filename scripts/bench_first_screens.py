"""Each screen's first answer in a fresh SSH session, and its second (issue 31).

Usage: python scripts/bench_first_screens.py [--sessions N] [--per-worker K] [--baseline REV]

A `modernart-server` with the SSH door (this tree's, and with `--baseline` also REV's,
both running, a session on each in turn); N guest sessions one after the other, each
fresh: in the lobby it opens every screen a player can open there (F1, create, who,
ranks, past games, devices, name) a first time and a second time, then hosts a table
with three bots, starts it and opens F1 there twice. A figure is the time from the key
sent to the screen's own words on the terminal (pyte), closing with Escape between.
Prints p50 and max for each screen, first and second opening, per design.
"""

from __future__ import annotations

import argparse
import asyncio
import pathlib
import statistics
import sys
import tempfile
import time
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scripts.bench_sessions import baseline_tree, start_server  # noqa: E402
from tests.server.sshterm import F1, Terminal, open_terminal, ssh_connect  # noqa: E402

ESC = "\x1b"
# (what, key, words the screen shows): the lobby's screens, then the table's F1.
LOBBY = [
    ("help (F1)", F1, "Escape closes"),
    ("create (c)", "c", "Create a room"),
    ("who (o)", "o", "Online now"),
    ("ranks (g)", "g", "Leaderboard"),
    ("past games (p)", "p", "Past games"),
    ("devices (d)", "d", "Your devices"),
    ("name (n)", "n", "Your name"),
]
TABLE_HELP = ("table help (F1)", F1, "Escape closes")


async def opened(term: Terminal, key: str, words: str) -> float:
    """Seconds from `key` to `words` on screen; then Escape, and wait until they go."""
    t0 = time.monotonic()
    term.send(key)
    await term.wait_text(words, timeout=60)
    seconds = time.monotonic() - t0
    term.send(ESC)
    await term.wait(lambda: words not in term.text(), f"{words!r} closed", 60)
    return seconds


async def one_session(ssh_port: int, name: str, times: dict[tuple[str, int], list[float]]) -> None:
    conn = await ssh_connect(ssh_port, name, None)
    try:
        term = await open_terminal(conn)
        await term.wait_text("Rooms", timeout=120)
        for what, key, words in LOBBY:
            for nth in (1, 2):
                times[(what, nth)].append(await opened(term, key, words))
        term.send("c")
        await term.wait_text("Create a room", timeout=60)
        term.send("\x13")  # ctrl+s: the defaults (Modern Art, 4 seats)
        await term.wait_text("You host", timeout=60)
        term.send("bbb")
        await term.wait(lambda: term.text().count("(R)") + term.text().count("(H)") >= 3, "bots")
        term.send("s")
        await term.wait(lambda: "You host" not in term.text(), "the table", 60)
        what, key, words = TABLE_HELP
        for nth in (1, 2):
            times[(what, nth)].append(await opened(term, key, words))
    finally:
        conn.close()


def ms(values: list[float]) -> str:
    if not values:
        return "–"
    return f"{statistics.median(values) * 1000:.0f} / {max(values) * 1000:.0f} ms"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=5, help="fresh sessions per design")
    parser.add_argument("--per-worker", type=int, default=8, help="sessions per worker process")
    parser.add_argument("--baseline", default="", help="also this commit's server (git archive)")
    args = parser.parse_args()
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="bench-first-"))
    designs: list[tuple[str, Any]] = [("this tree", None)]
    if args.baseline:
        (tmp / "baseline").mkdir()
        designs.append((args.baseline, baseline_tree(args.baseline, tmp / "baseline")))
    servers = {}
    try:
        for design, src in designs:
            data = tmp / f"data-{len(servers)}"
            data.mkdir()
            proc, _, ssh_port = await start_server(design, src, data, args.per_worker, 500)
            servers[design] = (proc, ssh_port)
        times: dict[str, dict[tuple[str, int], list[float]]] = {
            design: {(w, n): [] for w, _, _ in [*LOBBY, TABLE_HELP] for n in (1, 2)}
            for design, _ in designs
        }
        for i in range(args.sessions):
            for design, _ in designs:  # alternating: one fresh session on each in turn
                await one_session(servers[design][1], f"first{i}", times[design])
        print(f"{args.sessions} fresh sessions per design, {args.per_worker} per worker")
        print("p50 / max, the first opening | the second")
        for what, _, _ in [*LOBBY, TABLE_HELP]:
            cells = [f"{ms(times[d][(what, 1)])} | {ms(times[d][(what, 2)])}" for d, _ in designs]
            print(
                f"{what:18} " + "   ".join(f"{d}: {c}" for d, c in zip(servers, cells, strict=True))
            )
        for design, _ in designs:
            firsts = [t for (_, nth), ts in times[design].items() if nth == 1 for t in ts]
            print(f"{design}: every first opening, max {max(firsts) * 1000:.0f} ms")
    finally:
        for proc, _ in servers.values():
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    asyncio.run(main())
