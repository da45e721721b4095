"""Play in a browser (issue 17): the page in headless Chromium, the game server in-process.

Each `Browser` is a fresh Chromium profile (its own cookies): one player's
browser. What the page's terminal shows is read from xterm.js's rows; keys are
typed into its textarea.
"""

from __future__ import annotations

import asyncio
import os
import pathlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.asyncio.server import serve
from websockets.http11 import Response

from modernart.server.app import Server
from modernart.server.web.gate import WebGate, WebSettings
from modernart.server.web.identity import COOKIE

from .browser import Browser, Page, available
from .sshterm import keys_for

pytestmark = pytest.mark.skipif(
    not available() and not os.environ.get("CI"),
    reason="needs Debian's chromium and chromium-driver (.ci/run installs them)",
)

MakeGate = Callable[..., Awaitable[WebGate]]


@pytest.fixture
async def web(tmp_path: pathlib.Path) -> AsyncIterator[MakeGate]:
    """`await web(**settings)`: a dev server with the browser door on free ports."""
    started: list[tuple[Server, WebGate]] = []

    async def make(server_args: dict[str, Any] | None = None, **settings: Any) -> WebGate:
        server = Server(tmp_path / "data", port=0, **({"dev": True} | (server_args or {})))
        await server.start()
        gate = WebGate(server, WebSettings(port=0, **settings))
        await gate.start()
        started.append((server, gate))
        return gate

    yield make
    for server, gate in started:
        await gate.stop()
        await server.stop()


@pytest.fixture
async def browser() -> AsyncIterator[Callable[[], Awaitable[Page]]]:
    """`await browser()`: a page in a new Chromium profile; all closed afterwards."""
    opened: list[Browser] = []

    async def make() -> Page:
        b = await asyncio.to_thread(Browser)
        opened.append(b)
        return Page(b)

    yield make
    await asyncio.gather(*(asyncio.to_thread(b.quit) for b in opened))


def url_of(gate: WebGate) -> str:
    return f"http://127.0.0.1:{gate.port}/"


async def token_of(page: Page) -> str:
    """The page's identity token, as the browser keeps it (Selenium sees HttpOnly cookies)."""
    cookie = await page.call(page.driver.get_cookie, COOKIE)
    assert cookie is not None, "no identity cookie"
    return str(cookie["value"])


async def seat_of(gate: WebGate, page: Page) -> tuple[str | None, int | None]:
    """Where the page's identity sits, as the server knows it."""
    store, hub = gate.server.store, gate.server.hub
    assert store is not None and hub is not None
    found = store.find_identity(await token_of(page))
    identity = hub.identities.get(found[0]) if found else None
    if identity is None:
        return None, None
    return (identity.room.id if identity.room else None), identity.seat


async def lobby(gate: WebGate, page: Page) -> str:
    await page.open(url_of(gate))
    return await page.wait_text("Rooms")


async def create_room(page: Page, bots: int) -> None:
    """Create a Modern Art room by keys (the defaults: 4 seats) and add `bots` bots."""
    await page.send("c")
    await page.wait_text("Create a room")
    await page.send("\x13")  # ctrl+s creates
    await page.wait_text("You host")
    await page.send("b" * bots)
    await page.wait(lambda t: t.count("(H)") + t.count("(R)") >= bots, f"{bots} bots")


async def play_until_a_card(gate: WebGate, page: Page) -> tuple[str, int]:
    """Type this page's decisions until it has played a card; (room, seat)."""
    sent: tuple[int, str] = (-1, "")
    async with asyncio.timeout(90):
        while True:
            room_id, seat = await seat_of(gate, page)
            room = gate.server.hub.rooms.get(room_id) if room_id else None  # type: ignore[union-attr]
            game = room.game if room is not None else None
            if game is not None and seat is not None:
                if any(a.get("type") == "play" and a.get("seat") == seat for a in game.actions):
                    return room_id, seat  # type: ignore[return-value]
                text = await page.text()
                mark = (len(game.actions), text)
                if not game.finished and seat in game.to_act() and mark != sent:
                    sent = mark
                    await page.send(keys_for(game, seat))
            await page.wait(lambda t, before=await page.text(): t != before, "a change", 5)


# ------------------------------------------------------------------ playing


async def test_the_page_shows_the_lobby_and_plays_a_card_against_bots(web, browser):
    gate = await web()
    page = await browser()
    text = await lobby(gate, page)
    assert "lobby" in text
    await create_room(page, 3)
    await page.send("s")
    room_id, seat = await play_until_a_card(gate, page)
    assert seat == 0
    shown = await page.wait_text("Your hand")
    assert "Value board" in shown or "Value" in shown


async def test_a_second_browser_is_a_second_player_and_a_reload_keeps_the_seat(web, browser):
    gate = await web()
    ann, bob = await browser(), await browser()
    await lobby(gate, ann)
    await create_room(ann, 1)
    await lobby(gate, bob)
    await bob.wait_text("waiting")
    await bob.send("j")
    await bob.wait_text("Waiting room: 3/4 seated")  # bob sits at the waiting table
    ann_seat, bob_seat = await seat_of(gate, ann), await seat_of(gate, bob)
    assert ann_seat[0] is not None and ann_seat[0] == bob_seat[0]
    assert {ann_seat[1], bob_seat[1]} == {0, 2}
    assert await token_of(ann) != await token_of(bob)

    await ann.send("b")
    await ann.wait_text("Waiting room: 4/4 seated")
    await ann.send("s")  # the host starts: a game of two browsers and two bots
    await ann.wait_text("Your hand")
    token = await token_of(ann)
    await ann.call(ann.driver.refresh)
    await ann.wait_text("Your hand")  # the reloaded page is back at its seat
    assert await token_of(ann) == token
    assert await seat_of(gate, ann) == ann_seat
    identity = gate.server.hub.identities[gate.server.store.find_identity(token)[0]]
    assert identity.conn is not None and len(gate.terminals.by_key) == 2
