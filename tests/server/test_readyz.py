"""`GET /readyz` on the game server's port, over real sockets: 503 until every
configured door listens and again once they begin to stop, 200 in between; the
rooms it holds, as real clients made them (server/readiness.py)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import pathlib
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from modernart.server import cli
from modernart.server.doors.ssh.server import SshGate, SshSettings
from modernart.server.doors.web.gate import WebGate, WebSettings
from modernart.server.wire.app import Server

from .conftest import deck_with, start_three
from .test_http_requests import ask
from .wsclient import Client

WAIT = 60.0  # a guard against a hang, never a pause: every wait below is on an event


async def get(port: int, path: str = "/readyz", method: str = "GET") -> tuple[int, str, bytes]:
    """One raw request; its status, its Content-Type and its body."""
    request = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"
    status, headers, body = await ask(port, request)
    return status, headers.get("Content-Type", ""), body


async def readyz(port: int) -> tuple[int, dict[str, Any]]:
    status, content_type, body = await get(port)
    assert content_type == "application/json"
    return status, json.loads(body)


async def until(event: asyncio.Event, serving: asyncio.Task[None]) -> None:
    """`event`, or what went wrong in `serving` if it ended first."""
    waiting = asyncio.ensure_future(event.wait())
    done, _ = await asyncio.wait({waiting, serving}, timeout=WAIT, return_when="FIRST_COMPLETED")
    if waiting not in done:
        waiting.cancel()
        if serving in done:
            serving.result()  # raises what stopped it
        raise AssertionError("timed out")


def hold(
    monkeypatch: pytest.MonkeyPatch, cls: type, name: str, before: bool
) -> tuple[asyncio.Event, asyncio.Event]:
    """`cls.name` waits for the second event, before or after it has run, once the
    first is set: the test looks at the server in the meantime."""
    reached, go_on = asyncio.Event(), asyncio.Event()
    original: Callable[[Any], Awaitable[None]] = getattr(cls, name)

    async def held(self: Any) -> None:
        if not before:
            await original(self)
        reached.set()
        await go_on.wait()
        if before:
            await original(self)

    monkeypatch.setattr(cls, name, held)
    return reached, go_on


async def test_ready_only_while_every_door_listens(tmp_path: pathlib.Path, monkeypatch) -> None:
    """The server's own start and stop (`serve_until_signalled`) with SSH and the browser
    door configured, held while the SSH door starts and after the browser door stopped."""
    monkeypatch.setattr(cli, "tune_gc", lambda: None)  # the test process's collector stays
    ssh_starting, ssh_start = hold(monkeypatch, SshGate, "start", before=True)
    web_started, web_go_on = hold(monkeypatch, WebGate, "start", before=False)
    web_stopped, web_stop_done = hold(monkeypatch, WebGate, "stop", before=False)
    server = Server(tmp_path / "data", port=0, dev=True)
    serving = asyncio.ensure_future(
        cli.serve_until_signalled(server, SshSettings(port=0), WebSettings(port=0))
    )
    try:
        # Starting: the WebSocket listens, the doors not yet.
        await until(ssh_starting, serving)
        status, body = await readyz(server.port)
        assert status == 503 and body["ready"] is False
        assert body["doors"] == {"websocket": True, "ssh": False, "web": False}
        assert (await get(server.port, "/healthz"))[::2] == (200, b"ok\n")  # alive all along
        ssh_start.set()
        await until(web_started, serving)
        web_go_on.set()
        status, body = await readyz(server.port)
        assert status == 200 and body["ready"] is True
        assert body["doors"] == {"websocket": True, "ssh": True, "web": True}
        assert body["rooms"] == {"waiting": 0, "playing": 0, "finished": 0}
        assert body["room_ids"] == []
        # Stopping (as on SIGTERM): the browser door stops first, the rest still listen.
        serving.cancel()
        await until(web_stopped, serving)
        status, body = await readyz(server.port)
        assert status == 503 and body["ready"] is False
        assert body["doors"] == {"websocket": True, "ssh": True, "web": False}
    finally:
        for event in (ssh_start, web_go_on, web_stop_done):
            event.set()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(serving, WAIT)
    with pytest.raises(OSError):  # stopped: nothing answers any more
        await get(server.port)


async def test_rooms_the_process_holds(server: Server, player) -> None:
    """Counts by status and the ids of rooms made by real clients, the WebSocket alone."""
    status, body = await readyz(server.port)
    assert status == 200 and body == {
        "ready": True,
        "doors": {"websocket": True},
        "rooms": {"waiting": 0, "playing": 0, "finished": 0},
        "room_ids": [],
    }
    dan: Client = await player("Dan")
    await dan.send("create", seats=3)
    waiting = (await dan.expect("joined"))["room"]
    status, body = await readyz(server.port)
    assert status == 200
    assert body["rooms"] == {"waiting": 1, "playing": 0, "finished": 0}
    assert body["room_ids"] == [waiting]
    ann, bob, cy = [await player(name) for name in ("Ann", "Bob", "Cy")]
    playing = await start_three(ann, bob, cy, deck_with())
    await ann.next_update()  # the game has started
    status, body = await readyz(server.port)
    assert body["rooms"] == {"waiting": 1, "playing": 1, "finished": 0}
    assert sorted(body["room_ids"]) == sorted([waiting, playing])


async def test_methods_and_head(server: Server) -> None:
    """As `/healthz`: GET and HEAD, 405 to the others; HEAD has the headers alone."""
    status, content_type, body = await get(server.port, method="HEAD")
    assert (status, content_type, body) == (200, "application/json", b"")
    for method in ("POST", "PUT", "DELETE"):
        status, _, body = await get(server.port, method=method)
        assert (status, body) == (405, b"method not allowed\n")
    assert (await get(server.port, "/healthz"))[::2] == (200, b"ok\n")
