"""The browser door without a browser (issue 17): its socket as page.js speaks it, on 127.0.0.1.

Limits shared with the SSH door, the cookie on the handshake, the page's
envelope, and the door's HTTP answers.
"""

from __future__ import annotations

import pathlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from modernart.server.doors.ssh.server import SshGate, SshSettings
from modernart.server.doors.terminal import FULL, Limits
from modernart.server.doors.web.gate import WebGate, WebSettings
from modernart.server.wire.app import Server

from .pageclient import PageClient
from .sshterm import open_terminal, ssh_connect
from .waiting import eventually

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


# ------------------------------------------------- who counts (issue 28)


async def test_a_reload_gets_in_beside_four_other_sessions_and_the_ninth_identity_not(doors):
    """The default limit counts identities: a reload (the same cookie, its old socket
    still open) replaces its session; eight browsers of one address play, a ninth not."""
    _, web = await doors()
    pages = [await PageClient.open(web.port) for _ in range(5)]
    for page in pages:
        await page.wait_text("Rooms")
    reload = await PageClient.open(web.port, pages[0].cookie)
    await reload.wait_text("Rooms")
    await pages[0].wait_text("You signed in again from another session")
    assert reload.cookie is None and len(web.terminals.sessions) == 5
    more = [await PageClient.open(web.port) for _ in range(3)]
    for page in more:
        await page.wait_text("Rooms")
    ninth = await PageClient.open(web.port)
    await ninth.wait_closed()
    assert "Too many sessions from your address (at most 8)" in ninth.output()
    assert ninth.cookie is None and len(web.terminals.sessions) == 8


async def test_the_same_browser_again_replaces_its_session_at_a_full_address(doors):
    _, web = await doors(Limits(per_address=2))
    ann, bob = await PageClient.open(web.port), await PageClient.open(web.port)
    await ann.wait_text("Rooms")
    await bob.wait_text("Rooms")
    again = await PageClient.open(web.port, ann.cookie)
    await again.wait_text("Rooms")
    await ann.wait_closed()
    carol = await PageClient.open(web.port)
    await carol.wait_closed()
    assert "Too many sessions from your address (at most 2)" in carol.output()
    assert len(web.terminals.sessions) == 2


async def test_a_claim_refused_at_the_door_keeps_its_code_and_says_why(doors):
    _, web = await doors(Limits(per_address=1))
    hub, store = web.server.hub, web.server.store
    assert hub is not None and store is not None
    ann = await PageClient.open(web.port)
    await ann.wait_text("Rooms")
    assert ann.cookie is not None
    identity = store.find_identity(ann.cookie.split("=", 1)[1])
    assert identity is not None
    code = hub.handoffs.issue(identity[0], None)
    claim = ["modernart.v1", "claim." + code]
    phone = await PageClient.open(web.port, protocols=claim)  # the address is full
    await phone.wait_closed()
    assert phone.claims == ["kept"] and phone.cookie is None
    assert "Not claimed: Too many sessions from your address (at most 1)" in phone.notices[0]
    assert code in hub.handoffs.codes  # not spent
    await ann.ws.close()
    await eventually(lambda: not web.terminals.sessions)
    retry = await PageClient.open(web.port, protocols=claim)
    await retry.wait_text("Rooms")
    assert retry.notices == ["This browser now plays that identity."]
    assert retry.claims == ["claimed"] and retry.cookie is not None
    assert code not in hub.handoffs.codes
