"""Play over SSH, measured: client memory per session, bytes per game, bytes while idle.

Usage: python scripts/bench_ssh.py [--bot-delay-ms 400] [--idle-s 10]
       python scripts/bench_ssh.py --sessions 100 [--playing 20] [--per-worker 1,8]
           [--probes 10 --rounds 5 --wave 10 --game-timeout 300 --bot-delay-ms 500]
           [--baseline REV] [--door-machine] [--repeat R]
           (sessions at scale, designs side by side: bench_sessions.py)

An in-process `modernart-server` with SSH on free ports; asyncssh clients at
80×24 (pyte reads their screens). A player session creates a 4-seat room with
keys (three bots), starts it and plays every decision with keys until the game
ends; a second session watches the room from the lobby ('w'); a raw WebSocket
spectator of the same room is the baseline (the protocol's own bytes). Then each
terminal is left alone for `--idle-s` seconds: the lobby, a finished table.
The baseline for memory is a bare Python interpreter started in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import pathlib
import subprocess
import sys
import tempfile
import time
from typing import Any

import asyncssh
import psutil

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from modernart.server.doors.ssh.server import SshGate, SshSettings
from modernart.server.rooms import options
from modernart.server.wire.app import Server
from tests.server.sshterm import KeyboardPlayer, Terminal, open_terminal, ssh_connect
from tests.server.wsclient import Client

MB = 1024 * 1024


def memory(pid: int) -> tuple[float, float, float]:
    info = psutil.Process(pid).memory_full_info()
    return info.rss / MB, info.uss / MB, info.pss / MB


async def settle(terms: list[Terminal], quiet: float = 2.0, limit: float = 20.0) -> None:
    """Until no terminal has received anything for `quiet` seconds (at most `limit`)."""
    for _ in range(int(limit / quiet)):
        before = [t.received for t in terms]
        await asyncio.sleep(quiet)
        if [t.received for t in terms] == before:
            return
    print(f"(still receiving after {limit:.0f} s)")


async def count_frames(ws: Any, total: list[int]) -> None:
    async for frame in ws:
        total[0] += len(frame)


async def idle_bytes(terms: list[Terminal], seconds: float) -> list[int]:
    before = [t.received for t in terms]
    await asyncio.sleep(seconds)  # a measure over time: nothing to wait for
    return [t.received - b for t, b in zip(terms, before, strict=True)]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot-delay-ms", type=int, default=500)
    parser.add_argument("--idle-s", type=float, default=10.0)
    parser.add_argument("--sessions", type=int, help="sessions at scale (bench_sessions.py)")
    parser.add_argument("--probes", type=int, default=10, help="sessions that time key presses")
    parser.add_argument("--rounds", type=int, default=5, help="key presses per probe, twice")
    parser.add_argument(
        "--playing", type=int, default=0, help="more sessions, each playing a whole game (bots)"
    )
    parser.add_argument(
        "--per-worker",
        type=lambda text: [int(k) for k in text.split(",")],
        default=[1, 8],
        help="the sessions per worker of each design of this tree (default 1,8)",
    )
    parser.add_argument(
        "--game-timeout", type=float, default=300.0, help="seconds the games may run (then stop)"
    )
    parser.add_argument("--wave", type=int, default=10, help="sessions opening at once")
    parser.add_argument(
        "--door-machine",
        action="store_true",
        help="after each K, the same with the SSH door in a `modernart-server door` process",
    )
    parser.add_argument(
        "--baseline",
        default="",
        help="also an older commit's design (e.g. dd5301f: a process per session; e42ddb0: "
        "before the zygote)",
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="the designs R times, in turn (baseline, K …)"
    )
    parser.add_argument(
        "--quiet-load",
        type=float,
        help="with --sessions: before each design, wait (up to 5 min) for the 1-minute load "
        "to fall under this",
    )
    args = parser.parse_args()
    if args.sessions:
        from scripts.bench_sessions import bench

        await bench(args)
        return
    # A public (non-dev) server's bot pause; its default, 1.5 s, makes a game slow to measure.
    options.RoomOptions.bot_delay_ms = args.bot_delay_ms  # type: ignore[misc]
    data = pathlib.Path(tempfile.mkdtemp(prefix="bench-ssh-"))
    server = Server(data, port=0)
    await server.start()
    # A worker per session: each client's memory is its process's.
    gate = SshGate(server, SshSettings(port=0, guests=True, sessions_per_worker=1))
    await gate.start()
    idle_python = [sys.executable, "-c", "import sys; sys.stdin.read()"]
    bare = subprocess.Popen(idle_python, stdin=subprocess.PIPE)
    try:
        key = asyncssh.generate_private_key("ssh-ed25519")
        t0 = time.monotonic()
        player = await open_terminal(await ssh_connect(gate.port, "alice", key))
        await player.wait_text("Rooms")
        print(f"first screen after {time.monotonic() - t0:.2f} s (lobby shown)")
        watcher = await open_terminal(await ssh_connect(gate.port, "watcher", None))
        await watcher.wait_text("Rooms")
        hub = server.hub
        assert hub is not None
        await watcher.wait(
            lambda: sum(i.conn is not None for i in hub.identities.values()) == 2, "both hellos"
        )
        await settle([player, watcher])
        lobby_idle = await idle_bytes([player, watcher], args.idle_s)
        print(f"lobby idle {args.idle_s:.0f} s: player {lobby_idle[0]} B, {lobby_idle[1]} B")
        sessions = sorted(gate.sessions, key=lambda s: s.keeper.fingerprint is None)  # player 1st
        pids = [s.process.pid for s in sessions if s.process]
        lobby_mem = [memory(pid) for pid in pids]

        player.send("c")
        await player.wait_text("Create a room")
        player.send("\x13")  # ctrl+s: create with the defaults (4 seats, classic)
        await player.wait_text("You host")
        player.send("bbb")
        await player.wait(lambda: any(r.status == "waiting" for r in hub.rooms.values()), "room")
        (room,) = hub.rooms.values()
        await player.wait(lambda: all(s is not None for s in room.seats), "three bots")
        raw = await Client.hello(f"ws://127.0.0.1:{server.port}/", "raw")
        await raw.send("watch", room=room.id)
        await raw.expect("joined")
        ws_bytes = [0]
        counter = asyncio.create_task(count_frames(raw.ws, ws_bytes))
        await watcher.wait_text(room.name)
        watcher.send("w")
        await watcher.wait(lambda: len(room.spectators) == 2, "the SSH spectator")
        await settle([player, watcher])
        start = [player.received, watcher.received]
        ws_start = ws_bytes[0]
        t0 = time.monotonic()
        player.send("s")
        keyboard = KeyboardPlayer(player, 0)
        dismissed = [-1]

        def finished() -> bool:
            keyboard.step(room.game)
            if "Enter: continue" in watcher.text() and watcher.received != dismissed[-1]:
                dismissed.append(watcher.received)  # a spectator reads each round's summary
                watcher.send("\r")
            return room.game is not None and room.game.finished

        await player.wait(finished, "the game's end", timeout=3600)
        seconds = time.monotonic() - t0
        await player.wait_text("Round 4 is over")
        await watcher.wait_text("Round 4 is over")
        player.send("\r")  # past the round's summary to the game's
        await player.wait_text("Game over")
        game_bytes = [player.received - start[0], watcher.received - start[1]]
        raw_bytes = ws_bytes[0] - ws_start
        actions = len(room.game.actions)
        print(f"game: {actions} actions in {seconds:.0f} s (bot delay {args.bot_delay_ms} ms)")
        print(f"game bytes at 80x24: player {game_bytes[0]} B, SSH spectator {game_bytes[1]} B")
        print(
            f"baseline: the WebSocket spectator received {raw_bytes} B; "
            f"ratios {game_bytes[0] / raw_bytes:.2f} (player), "
            f"{game_bytes[1] / raw_bytes:.2f} (spectator)"
        )
        await settle([player, watcher])
        table_idle = await idle_bytes([player, watcher], args.idle_s)
        print(f"table idle {args.idle_s:.0f} s: player {table_idle[0]} B, {table_idle[1]} B")
        table_mem = [memory(pid) for pid in pids]
        bare_rss, bare_uss, _ = memory(bare.pid)
        for label, mem in (("lobby", lobby_mem), ("after a game", table_mem)):
            for rss, uss, pss in mem:
                print(
                    f"client process ({label}): RSS {rss:.1f} MB, USS {uss:.1f} MB, "
                    f"PSS {pss:.1f} MB"
                )
        worst = max(rss for rss, _, _ in table_mem)
        print(
            f"baseline: bare python RSS {bare_rss:.1f} MB, USS {bare_uss:.1f} MB; "
            f"client/bare RSS ratio {worst / bare_rss:.1f}"
        )
        print(f"sessions per GB (by the largest RSS): {int(1024 // worst)}")
        counter.cancel()
        await raw.close()
    finally:
        bare.kill()
        await gate.stop()
        await server.stop()


if __name__ == "__main__":
    asyncio.run(main())
