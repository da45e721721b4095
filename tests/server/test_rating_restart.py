"""Issue 33 (9d): a finished game is rated even when the server is killed between its
last action's commit and its results. A real `modernart-server` process dies by
SIGKILL at that moment (tests/server/crash_before_results.py); the restart rates the
game from its record, once."""

from __future__ import annotations

import asyncio
import contextlib
import pathlib
import sqlite3
import subprocess
import sys

from openskill.models import PlackettLuce
from websockets.exceptions import ConnectionClosed

from modernart.engine.records import replay
from modernart.server.people.ratings import shown
from modernart.server.store.export import record_of_room
from modernart.server.wire.app import Server

from .test_rating_rules import table
from .wsclient import Client, autoplay, free_port

ROOT = pathlib.Path(__file__).resolve().parents[2]


async def healthy(port: int) -> bool:
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return False
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    await writer.drain()
    ok = (await reader.readline()).startswith(b"HTTP/1.1 200")
    writer.close()
    return ok


def seats_rows(data: pathlib.Path, room: str) -> tuple[str, int]:
    """The room's stored status and how many result rows it has, read from the file."""
    db = sqlite3.connect(data / "modernart.sqlite3")
    try:
        status = db.execute("SELECT status FROM rooms WHERE id = ?", (room,)).fetchone()[0]
        rows = db.execute("SELECT COUNT(*) FROM results WHERE room = ?", (room,)).fetchone()[0]
    finally:
        db.close()
    return status, rows


async def test_a_game_whose_results_a_crash_lost_is_rated_at_the_restart(tmp_path):
    data, port = tmp_path / "data", free_port()
    command = [sys.executable, "-m", "tests.server.crash_before_results"]
    args = ["--port", str(port), "--data", str(data), "--dev", "--log-level", "warning"]
    proc = subprocess.Popen([*command, *args], cwd=ROOT)
    try:
        async with asyncio.timeout(20):
            while not await healthy(port):  # polled until it answers (it is starting)
                await asyncio.sleep(0.05)
        url = f"ws://127.0.0.1:{port}/"
        ann, bob = await Client.hello(url, "Ann"), await Client.hello(url, "Bob")
        room = await table([ann, bob], ["normal"])
        plays = [autoplay(ann, seed=1), autoplay(bob, seed=2)]
        with contextlib.suppress(ConnectionClosed):
            await asyncio.gather(*plays)
        assert proc.wait(30) == -9  # killed where the results were to be stored
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert seats_rows(data, room) == ("playing", 0)  # the last action, no end

    for _ in range(2):  # a second start rates nothing again
        server = Server(data, port=0, dev=True)
        await server.start()
        try:
            assert seats_rows(data, room) == ("finished", 3)
            record = record_of_room(server.store, room)
            assert record is not None
            result = replay(record)
            winners, money = result["winners"], result["money"]
            places = [
                1
                if i in winners
                else 1
                + len(winners)
                + sum(1 for j in (0, 1, 2) if j not in winners and money[j] > money[i])
                for i in range(3)
            ]
            # Newcomers, each rated against the bot alone (server/people/ratingrules.py).
            model = PlackettLuce()
            expected = []
            for seat in (0, 1):
                pair = [[model.rating()], [model.rating()]]
                new = model.rate(pair, ranks=[places[seat], places[2]])[0][0]
                expected.append(shown(new.mu, new.sigma))
            got = server.store.ratings("modernart", [ann.you, bob.you])
            assert [shown(got[p].mu, got[p].sigma) for p in (ann.you, bob.you)] == expected
            assert got[ann.you].games == got[bob.you].games == 1
        finally:
            await server.stop()
