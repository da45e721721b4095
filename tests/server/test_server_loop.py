"""`modernart-server` runs on uvloop (issue 21): its process's doors, bots, terminal
sessions and signals work there, and the server's tests run on that same loop."""

from __future__ import annotations

import asyncio
import signal
import sys

import pytest
import uvloop

from modernart.server.cli import new_loop

from .sshterm import WAIT, open_terminal, ssh_connect
from .wsclient import Client, autoplay


def test_the_servers_loop_is_uvloops():
    loop = new_loop()
    try:
        assert isinstance(loop, uvloop.Loop)
    finally:
        loop.close()


async def test_the_server_tests_run_on_the_servers_loop():
    assert isinstance(asyncio.get_running_loop(), uvloop.Loop)


@pytest.mark.timeout(180)
async def test_the_server_process_serves_websocket_ssh_and_an_expert_on_uvloop(tmp_path, key):
    """The real command: a WebSocket player with an expert bot searching in a worker
    process, an SSH session forked from the zygote, then SIGTERM ends it cleanly."""
    log = tmp_path / "server.log"
    with log.open("wb") as err:
        server = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "modernart.server.cli",
            "--dev",
            "--port=0",
            "--ssh-port=0",
            "--bot-workers=1",
            "--bot-budget=0.2",
            f"--data={tmp_path / 'data'}",
            stdout=asyncio.subprocess.PIPE,
            stderr=err,
        )
    ann = None
    try:
        assert server.stdout is not None
        lines: list[str] = []
        async with asyncio.timeout(WAIT):
            while not (line := (await server.stdout.readline()).decode()).startswith("SSH on"):
                assert line, "the server ended before SSH started"
                lines.append(line)
        url = lines[-1].split()[-1]
        assert url.startswith("ws://127.0.0.1:")
        ann = await Client.hello(url, "Ann")
        await ann.send("create", seats=3, options={"first_auctioneer": 1, "bot_delay_ms": 0})
        await ann.expect("joined")
        for level in ("expert", "random"):
            await ann.send("add_bot", level=level)
            await ann.expect("room")
        await ann.send("start")
        # A whole game: the expert's choices searched in the worker once it has started (a
        # decision asked while it starts, on a loaded machine, may be decided as `hard`).
        end = await autoplay(ann, seed=1)
        assert end["view"]["finished"]
        conn = await ssh_connect(int(line.split()[3].rstrip(",")), "bob", key)
        term = await open_terminal(conn)
        await term.wait_text("Rooms")
        conn.close()
        await conn.wait_closed()
        await ann.close()
        ann = None
        server.send_signal(signal.SIGTERM)
        async with asyncio.timeout(WAIT):
            assert await server.wait() == 0
    finally:
        if ann is not None:
            await ann.close()
        if server.returncode is None:
            server.kill()
            await server.wait()
    text = log.read_text()
    assert "event loop: uvloop" in text
    decisions = next(x for x in text.splitlines() if "bot decisions:" in x)
    assert int(decisions.split("full=")[1].split()[0]) >= 1  # searched in the worker
    assert "stopped" in text
