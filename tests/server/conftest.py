"""Fixtures: an in-process server on a free loopback port, and client factories."""

from __future__ import annotations

import pathlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import asyncssh
import pytest

from modernart.engine.modernart.cards import FULL_DECK
from modernart.server.cli import new_loop
from modernart.server.limits import Limits
from modernart.server.wire.app import Server

from .browser import quit_kept
from .pgcluster import pg_cluster, store_url  # noqa: F401 (fixtures: both stores)
from .sshgate import MakeGate, gates
from .wsclient import Client


@pytest.fixture(autouse=True, scope="session")
def browsers_quit_at_the_end() -> Iterator[None]:
    """The browsers the tests gave back (tests/server/browser.py `take`) end with the tests."""
    yield
    quit_kept()


def pytest_asyncio_loop_factories(config: pytest.Config, item: pytest.Item) -> dict:
    """The server's tests run on the loop `modernart-server` runs on (uvloop, issue 21):
    its doors (WebSocket, SSH, browser), its bots and its terminal sessions are tested
    where they serve. The client's tests (tests/tui) keep asyncio's loop, as a local
    game's in-process server does."""
    return {"server_loop": new_loop}


@pytest.fixture
async def player(url: str) -> AsyncIterator[Callable[[str], Awaitable[Client]]]:
    """`await player("Ann")`: a client that said hello; all are closed afterwards."""
    clients: list[Client] = []

    async def make(name: str, token: str | None = None) -> Client:
        client = await Client.hello(url, name, token)
        clients.append(client)
        return client

    yield make
    for client in clients:
        await client.close()


def deck_with(*hands: list[str]) -> list[str]:
    """A full deck whose first cards are the given hands' cards in order (R6 deals
    seat 0 the first k cards, then seat 1 …); the rest follow in canonical order."""
    front = [card for hand in hands for card in hand]
    rest = list(FULL_DECK)
    for card in front:
        rest.remove(card)
    return front + rest


async def start_three(ann: Client, bob: Client, cy: Client, deck: list[str]) -> str:
    """Ann hosts a 3-seat room with `deck`, Ann first; Bob and Cy join; Ann starts it.
    Returns the room's id (each client's first update still to be read)."""
    await ann.send("create", seats=3, options={"deck": deck, "first_auctioneer": 0})
    room = (await ann.expect("joined"))["room"]
    for client in (bob, cy):
        await client.send("join", room=room)
        await client.expect("joined")
    await ann.send("start")
    return room


@pytest.fixture
async def ssh(tmp_path: pathlib.Path) -> AsyncIterator[MakeGate]:
    """`await ssh(**settings)`: a dev server on free ports with SSH on; all stopped after."""
    async for make in gates(tmp_path):
        yield make


@pytest.fixture
def key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


Public = Callable[..., Awaitable[tuple[Server, str]]]


@pytest.fixture
async def public(tmp_path: pathlib.Path) -> AsyncIterator[Public]:
    """`await public(**limits)`: a server without --dev behind a (pretend) proxy."""
    servers: list[Server] = []

    async def make(**limits: Any) -> tuple[Server, str]:
        server = Server(
            tmp_path / f"public-{len(servers)}", port=0, trust_proxy=True, limits=Limits(**limits)
        )
        await server.start()
        servers.append(server)
        return server, f"ws://127.0.0.1:{server.port}/"

    yield make
    for server in servers:
        await server.stop()
