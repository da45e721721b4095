#!/usr/bin/env python3
"""A playing client's CPU per game update, and what Textual does with it (issue 16).

Usage: python scripts/bench_redraw.py [--baseline main] [--games modernart,serengeti,artsociety]
           [--updates 150] [--bot-delay 150] [--profile] [--top 25] [--floor]

An in-process dev server (this tree) on 127.0.0.1; for each source tree (the baseline's
`git archive`, then this tree) and each game, a client process: a `ClientApp` with
Textual's own LinuxDriver on a PTY of its own at 80×24 (what an SSH session's worker
runs, less the screen relay) that creates a 3-seat room, seats two server bots (their
pause `--bot-delay` ms, jittered), starts and plays a random bot's moves 50 ms after
its turn comes. From the first update of the game to the `--updates`th (or the game's
end) the client counts its CPU time (`time.process_time`: everything the process does,
timers and reading the socket included) and, with `--profile`, runs cProfile, whose
cumulative times are summed into groups: the table's own code (`show`), Textual's
layout (`Compositor.reflow`), drawing (`Compositor.render_update`, widgets' lines),
styles (`Stylesheet.update_nodes`), the driver's writes, and the top functions.
Prints CPU per update per game and tree, and the ratio new / baseline. `--floor` also
runs this tree's client with the table drawing nothing but its status line (the same
game, socket, messages and moves): what an update costs before any table is drawn; and
once more with the event log told as well (what the log adds).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pathlib
import pstats
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_client import pty_client  # noqa: E402
from bench_sessions import baseline_tree  # noqa: E402

from modernart.server.wire.app import Server  # noqa: E402

CLIENT = r"""
import asyncio, cProfile, json, sys, time
import modernart.tui
from modernart.engine.games import get_game
try:
    from modernart.server.doors.terminal.worker import SessionTokens
except ImportError:  # a baseline from before server/ had folders (issue 29)
    from modernart.server.terminal.worker import SessionTokens
from modernart.tui.app import ClientApp
from modernart.tui.gametable import GameTable

url, game, wanted, delay, out, prof, trace, floor = sys.argv[1:9]
wanted, delay = int(wanted), int(delay)
bot = get_game(game).make_bot("random", 7)
profile = cProfile.Profile(time.process_time) if prof else None
state = {"updates": 0, "cpu0": None, "created": False, "started": False, "done": False}
show = GameTable.show


def floor_show(self, view, events, logged=True):  # the update taken, the status line drawn
    if not self._later(lambda: floor_show(self, view, events, logged)):
        self.view = view
        if floor == "log":  # and the event log told
            self.add_history(events)
        self.draw_status()


if floor:
    show = floor_show


def finish(app):
    if profile is not None:
        profile.disable()
        profile.dump_stats(prof)
    cpu = time.process_time() - state["cpu0"]
    with open(out, "w") as f:
        figures = {"updates": state["updates"], "cpu": cpu, "src": modernart.tui.__file__}
        json.dump({**figures, "counts": dict(state.get("counts", {}))}, f)
    app.exit()


def counted_show(self, view, events, logged=True):
    show(self, view, events, logged)
    if state["done"] or view.get("status") not in ("playing", "finished"):
        return
    if state["cpu0"] is None:  # the game's first update: the measure starts
        state["cpu0"] = time.process_time()
        if profile is not None:
            profile.enable()
    else:
        state["updates"] += 1
    if state["updates"] >= wanted or view.get("finished"):
        state["done"] = True
        finish(self.app)
        return
    you = view.get("you")
    if view.get("legal") and you in (view.get("to_act") or []):
        action = bot.choose(view)
        if action is not None:
            self.set_timer(0.05, lambda: self.act(action))


GameTable.show = counted_show
if trace:  # what each update makes Textual do: refreshes by widget and kind, layouts
    import collections, traceback
    from textual.css.stylesheet import Stylesheet
    from textual.screen import Screen
    from textual.widget import Widget

    counts = collections.Counter()
    state["counts"] = counts

    def counting(cls, name, label):
        real = getattr(cls, name)

        def wrapper(self, *args, **kwargs):
            if state["cpu0"] is not None and not state["done"]:
                counts[label(self, args, kwargs)] += 1
            return real(self, *args, **kwargs)

        setattr(cls, name, wrapper)

    def refresh_label(widget, args, kwargs):
        kind = "layout" if kwargs.get("layout") else "repaint"
        kind = "recompose" if kwargs.get("recompose") else kind
        stack = reversed(traceback.extract_stack(limit=12))
        ours = (f"{f.filename.split('/tui/')[-1]}:{f.name}" for f in stack if "/tui/" in f.filename)
        caller = next(ours, "textual")
        return f"refresh {kind}: {type(widget).__name__}#{widget.id} from {caller}"

    counting(Widget, "refresh", refresh_label)
    counting(Screen, "_refresh_layout", lambda s, a, k: "Screen._refresh_layout")
    counting(Stylesheet, "update_nodes", lambda s, a, k: "Stylesheet.update_nodes")
    counting(Widget, "_compose", lambda w, a, k: f"compose: {type(w).__name__}")
    counting(Widget, "mount", lambda w, a, k: f"mount into {type(w).__name__}#{w.id}")
on_rooms, on_joined = ClientApp._on_rooms, ClientApp._on_joined


def first_rooms(self, msg):
    on_rooms(self, msg)
    if not state["created"]:
        state["created"] = True
        create = {"t": "create", "seats": 3, "options": {"bot_delay_ms": delay}}
        if game != "modernart":
            create["game"] = game
        self.send(create)


def joined(self, msg):
    on_joined(self, msg)
    if not state["started"] and msg.get("seat") == 0:
        state["started"] = True
        for _ in range(2):
            self.send({"t": "add_bot"})
        self.send({"t": "start"})


ClientApp._on_rooms, ClientApp._on_joined = first_rooms, joined
ClientApp(url, name=f"bench{__import__('os').getpid()}", tokens=SessionTokens(None)).run()
"""


async def run_client(
    url: str,
    src: pathlib.Path | None,
    game: str,
    args: argparse.Namespace,
    tmp: pathlib.Path,
    floor: str = "",
) -> tuple[dict, pathlib.Path | None]:
    """One client process on a PTY of its own through one game: its figures (and profile)."""
    out = tmp / f"{game}-{os.getpid()}-{id(src)}-{floor}.json"
    prof = tmp / f"{game}-{id(src)}.prof" if args.profile else None
    argv = [url, game, str(args.updates), str(args.bot_delay), str(out), str(prof or "")]
    argv += ["1" if args.trace else "", floor]
    # Not run in this tree's folder, which `-c` would put first on the path.
    env = {"PYTHONPATH": str(src)} if src is not None else None
    proc, master, shown = pty_client(CLIENT, argv, env, cwd=tmp)
    loop = asyncio.get_running_loop()
    try:
        for _ in range(int(args.timeout / 0.2)):
            if proc.poll() is not None:
                break
            await asyncio.sleep(0.2)  # the client's own pace: a measure over time
    finally:  # ended, out of time, or the bench interrupted: never a client left behind
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        loop.remove_reader(master)
        os.close(master)
    if not out.exists():
        tail = bytes(shown[-3000:]).decode(errors="replace")
        raise SystemExit(f"the {game} client ended without figures:\n{tail}")
    return json.loads(out.read_text()), prof


GROUPS = {
    "the table's code (GameTable.show)": ("gametable.py", "show"),
    "layout (Compositor.reflow)": ("_compositor.py", "reflow"),
    "drawing (Compositor.render_update)": ("_compositor.py", "render_update"),
    "styles (Stylesheet.update_nodes)": ("stylesheet.py", "update_nodes"),
    "writes (App._display)": ("app.py", "_display"),
    "Widget.refresh": ("widget.py", "refresh"),
}


def summary(prof: pathlib.Path, top: int) -> str:
    """The profile's groups as shares of its total, and its top functions by own time."""
    stats = pstats.Stats(str(prof))
    raw = stats.stats  # type: ignore[attr-defined]
    total = stats.total_tt  # type: ignore[attr-defined]
    lines = [f"    profiled CPU {total:.2f} s"]
    for label, (file, name) in GROUPS.items():
        cum = sum(v[3] for k, v in raw.items() if k[0].endswith(file) and k[2] == name)
        calls = sum(v[1] for k, v in raw.items() if k[0].endswith(file) and k[2] == name)
        lines.append(f"    {label}: {cum / total:5.1%} ({calls} calls)")
    ranked = sorted(raw.items(), key=lambda kv: kv[1][2], reverse=True)[:top]
    lines.append("    top functions by own time:")
    for (file, line, name), (_, calls, tt, cum, _) in ranked:
        where = "/".join(pathlib.Path(file).parts[-2:])
        shares = f"{tt / total:5.1%} own {cum / total:5.1%} cum {calls:7d}"
        lines.append(f"      {shares}  {where}:{line} {name}")
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", help="also measure this revision's client (git archive)")
    parser.add_argument("--games", default="modernart,serengeti,artsociety")
    parser.add_argument("--updates", type=int, default=150)
    parser.add_argument("--bot-delay", type=int, default=150)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--trace", action="store_true", help="count refreshes by widget")
    parser.add_argument("--timeout", type=float, default=120, help="seconds a client may take")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument(
        "--floor",
        action="store_true",
        help="also this tree's client drawing only its status line (the floor: what an update"
        " costs before the table draws anything), then its status line and event log",
    )
    args = parser.parse_args()
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="bench-redraw-"))
    server = Server(tmp / "data", port=0, dev=True)
    await server.start()
    url = f"ws://127.0.0.1:{server.port}/"
    trees: list[tuple[str, pathlib.Path | None, str]] = []
    if args.baseline:
        (tmp / "baseline").mkdir()
        trees.append((args.baseline, baseline_tree(args.baseline, tmp / "baseline"), ""))
    trees.append(("this tree", None, ""))
    if args.floor:
        trees += [("the floor", None, "status"), ("the floor and the log", None, "log")]
    print(f"load before: {os.getloadavg()[0]:.2f}")
    results: dict[tuple[str, str], float] = {}
    try:
        for game in args.games.split(","):
            for label, src, floor in trees:
                figures, prof = await run_client(url, src, game, args, tmp, floor)
                per = figures["cpu"] / max(1, figures["updates"]) * 1000
                results[(game, label)] = per
                print(
                    f"{game} · {label}: {figures['updates']} updates, CPU {figures['cpu']:.2f} s,"
                    f" {per:.2f} ms per update (load {os.getloadavg()[0]:.2f};"
                    f" {pathlib.Path(figures['src']).parent.parent.name}/tui)"
                )
                for what, n in sorted(figures.get("counts", {}).items(), key=lambda kv: -kv[1]):
                    print(f"    {n / max(1, figures['updates']):6.2f} per update  {what}")
                if prof is not None:
                    print(summary(prof, args.top))
            if args.baseline:
                ratio = results[(game, "this tree")] / results[(game, args.baseline)]
                print(f"{game}: this tree / {args.baseline} = {ratio:.2f}")
            if args.floor:
                for part in ("the floor", "the floor and the log"):
                    ratio = results[(game, part)] / results[(game, "this tree")]
                    print(f"{game}: {part} / this tree = {ratio:.2f}")
    finally:
        await server.stop()


if __name__ == "__main__":
    asyncio.run(main())
