"""The browser door without a browser (issue 17): its socket as page.js speaks it, on 127.0.0.1.

Limits shared with the SSH door, the cookie on the handshake, the page's
envelope, and the door's HTTP answers.
"""

from __future__ import annotations

import pathlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from modernart.server.app import Server
from modernart.server.ssh.server import SshGate, SshSettings
from modernart.server.terminal import FULL, Limits
from modernart.server.web.gate import WebGate, WebSettings

from .pageclient import PageClient
from .sshterm import open_terminal, ssh_connect

Doors = Callable[..., Awaitable[tuple[SshGate, WebGate]]]


@pytest.fixture
async def doors(tmp_path: pathlib.Path) -> AsyncIterator[Doors]:
    """`await doors(limits)`: a dev server with both doors on one set of terminal sessions."""
    started: list[tuple[Server, SshGate, WebGate]] = []

    async def make(limits: Limits | None = None, **server_args: Any) -> tuple[SshGate, WebGate]:
        server = Server(tmp_path / "data", port=0, **({"dev": True} | server_args))
        await server.start()
        ssh = SshGate(server, SshSettings(port=0, guests=True, limits=limits))
        await ssh.start()
        web = WebGate(server, WebSettings(port=0), ssh.terminals)
        await web.start()
        started.append((server, ssh, web))
        return ssh, web

    yield make
    for server, ssh, web in started:
        await web.stop()
        await ssh.stop()
        await server.stop()


async def test_ssh_and_browser_sessions_count_together_per_address(doors):
    ssh, web = await doors(Limits(per_address=2))
    term = await open_terminal(await ssh_connect(ssh.port, "alice"))
    await term.wait_text("Rooms")
    page = await PageClient.open(web.port)
    await page.wait_text("Rooms")
    refused = await PageClient.open(web.port)  # the address's third session, SSH or not
    await refused.wait_closed()
    assert "Too many sessions from your address (at most 2)" in refused.output()
    assert refused.ws.close_code == 1000 and refused.cookie is None  # no identity made
    assert len(web.terminals.sessions) == 2


async def test_the_memory_budget_refuses_a_browser_session_with_its_message(doors):
    _, web = await doors(Limits(memory_mb=64, reserve_mb=40, worker_mb=10))
    first = await PageClient.open(web.port)
    await first.wait_text("Rooms")
    full = await PageClient.open(web.port)
    await full.wait_closed()
    assert FULL in full.output()
    assert len(web.terminals.sessions) == 1


async def test_the_cookie_brings_a_page_back_and_a_forgotten_token_gets_a_new_one(doors):
    _, web = await doors()
    first = await PageClient.open(web.port)
    cookie = first.cookie
    assert cookie is not None and cookie.startswith("modernart_token=")
    await first.wait_text("Rooms")
    store = web.server.store
    assert store is not None
    found = store.find_identity(cookie.split("=", 1)[1])
    assert found is not None
    name = found[1]
    await first.ws.close()
    again = await PageClient.open(web.port, cookie)
    assert again.cookie is None  # the same identity: nothing to set
    await again.wait_text(name)
    stale = await PageClient.open(web.port, "modernart_token=not-a-token-of-ours")
    assert stale.cookie is not None and stale.cookie != cookie
    set_cookie = stale.ws.response.headers["Set-Cookie"]  # type: ignore[union-attr]
    assert "HttpOnly" in set_cookie and "SameSite=Strict" in set_cookie
    assert "Secure" not in set_cookie  # a plain-HTTP page: the browser would drop it


async def test_a_frame_outside_the_envelope_closes_the_page_socket(doors):
    _, web = await doors()
    page = await PageClient.open(web.port)
    await page.wait_text("Rooms")
    await page.ws.send(b"\x00binary")
    await page.wait_closed()
    assert page.ws.close_code == 1008
    other = await PageClient.open(web.port)
    await other.wait_text("Rooms")  # the door carries on


async def test_a_resize_from_the_page_redraws_the_client_at_that_size(doors):
    _, web = await doors()
    page = await PageClient.open(web.port)
    await page.wait_text("Rooms")
    page.screen.resize(30, 100)
    await page.ws.send('["resize", {"width": 100, "height": 30}]')
    # The rooms' box now spans 100 columns, and the footer is on the 30th row.
    await page.wait(lambda: page.screen.display[1].rstrip().endswith("╮"), "a wider box")
    await page.wait(lambda: "Join" in page.screen.display[29], "the lobby at 100×30")
    (session,) = web.terminals.sessions
    assert (session.cols, session.rows) == (100, 30)
