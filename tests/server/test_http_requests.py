"""Malformed and unwanted HTTP requests to both listeners, over real sockets (issue 33).

A malformed request gets a 4xx answer and never a traceback; what an outsider
can make the server log stays a bounded number of lines however often it is
repeated; only GET (and HEAD) get the page and its files.
"""

from __future__ import annotations

import asyncio
import logging
import pathlib
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from modernart.server.doors.web.gate import WebGate, WebSettings
from modernart.server.wire.app import Server

from .sshgate import gates

KEY = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
UPGRADE = "Upgrade: websocket\r\nConnection: Upgrade\r\n"


@pytest.fixture
async def web(tmp_path: pathlib.Path) -> AsyncIterator[Callable[..., Awaitable[WebGate]]]:
    async for make in gates(tmp_path, lambda server, s: WebGate(server, WebSettings(port=0, **s))):
        yield make


async def ask(port: int, request: str) -> tuple[int, dict[str, str], bytes]:
    """Send one raw request; the answer's status, headers and body (read to the end)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request.encode())
    await writer.drain()
    answer = await reader.read()
    writer.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, body


def ws_request(port: int, headers: str, path: str = "/ws", method: str = "GET") -> str:
    return f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{headers}\r\n"


def origin(port: int) -> str:
    return f"Origin: http://127.0.0.1:{port}\r\n"


def no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    bad = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not bad, [r.getMessage() for r in bad]


def ours(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name.startswith("modernart")]


async def test_two_origin_headers_get_400_and_no_traceback(web, caplog):
    gate = await web()
    port = gate.port
    mine = origin(port)
    malformed = [
        UPGRADE + KEY + mine + mine,  # the attack: two Origin headers
        UPGRADE + KEY + mine + "Origin: http://evil.example\r\n",
        UPGRADE + KEY + mine + "Host: elsewhere\r\n",  # a second Host
        UPGRADE + KEY + mine + "X-Forwarded-For: 1.2.3.4\r\nX-Forwarded-For: 5.6.7.8\r\n",
        UPGRADE + mine,  # no key
        KEY + mine,  # no Upgrade
        "Upgrade: h2c\r\nConnection: Upgrade\r\n" + KEY + mine,
    ]
    with caplog.at_level(logging.INFO):
        for headers in malformed:
            status, _, body = await ask(port, ws_request(port, headers))
            assert 400 <= status < 500, (headers, status, body)
        # Sizes that are not numbers an int() takes, and a path urlsplit refuses.
        for path in ("/ws?cols=" + "9" * 5000 + "&rows=24", "/ws?cols=%C2%B2&rows=24", "//["):
            status, _, body = await ask(port, ws_request(port, UPGRADE + KEY + mine, path))
            assert status < 500, (path, status, body)
    no_traceback(caplog)
    assert gate.server.hub is not None and not gate.server.hub.identities  # none made


async def test_two_authorization_headers_get_400_from_the_game_server(tmp_path, caplog):
    server = Server(tmp_path / "data", port=0, dev=True)
    await server.start()
    try:
        twice = "Authorization: a\r\nAuthorization: b\r\n"
        with caplog.at_level(logging.INFO):
            status, _, body = await ask(server.port, ws_request(server.port, UPGRADE + KEY + twice))
        assert status == 400 and b"Authorization" in body
        no_traceback(caplog)
    finally:
        await server.stop()


async def test_a_thousand_refused_requests_log_a_bounded_number_of_lines(web, caplog):
    gate = await web()
    gate.quiet.every = 3600  # however slow the machine, the requests fit in one interval
    port = gate.port
    foreign = ws_request(port, UPGRADE + KEY + "Origin: http://evil.example\r\n")
    twice = ws_request(port, UPGRADE + KEY + origin(port) + origin(port))
    with caplog.at_level(logging.INFO):
        for _ in range(20):  # 1,000 refused requests, 50 at a time
            answers = await asyncio.gather(*(ask(port, r) for r in [foreign, twice] * 25))
            assert {status for status, _, _ in answers} == {400, 403}
        during = ours(caplog)
        gate.quiet.flush()  # the interval's end: one count per kind
    assert len([m for m in during if "origin 'http://evil.example'" in m]) == 1
    assert len([m for m in during if "more than one Origin header" in m]) == 1
    summaries = [m for m in ours(caplog) if "more like this" in m]
    assert sorted(summaries) == [
        "499 more like this in the last 3600 s (bad request)",
        "499 more like this in the last 3600 s (origin)",
    ]
    no_traceback(caplog)


async def test_only_get_and_head_get_the_page_and_others_get_405(web):
    gate = await web()
    port = gate.port
    status, headers, body = await ask(port, ws_request(port, "", "/"))
    assert status == 200 and b'<main id="terminal"' in body
    length = headers["Content-Length"]
    status, headers, body = await ask(port, ws_request(port, "", "/", "HEAD"))
    assert status == 200 and headers["Content-Length"] == length and body == b""
    for method in ("POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE", "BREW"):
        for path in ("/", "/static/page.js", "/healthz", "/nothing"):
            status, headers, body = await ask(port, ws_request(port, "", path, method))
            assert (status, headers.get("Allow")) == (405, "GET, HEAD"), (method, path, body)
    # The WebSocket: GET only, and no identity is made for another method.
    status, headers, _ = await ask(
        port, ws_request(port, UPGRADE + KEY + origin(port), "/ws", "POST")
    )
    assert (status, headers.get("Allow")) == (405, "GET")
    assert gate.server.hub is not None and not gate.server.hub.identities
    # The game server's health check too.
    game = gate.server.port
    status, headers, _ = await ask(game, ws_request(game, "", "/healthz", "POST"))
    assert (status, headers.get("Allow")) == (405, "GET, HEAD")
    assert (await ask(game, ws_request(game, "", "/healthz")))[0] == 200
