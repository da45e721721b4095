"""An SSH door for the tests: a dev server with SSH on free ports, and what its sessions show."""

from __future__ import annotations

import pathlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import asyncssh

from modernart.server.doors.ssh.server import SshGate, SshSettings
from modernart.server.wire.app import Server
from modernart.server.wire.session import Identity

from .sshterm import Terminal, open_terminal, ssh_connect

MakeGate = Callable[..., Awaitable[SshGate]]


def ssh_door(server: Server, settings: dict[str, Any]) -> SshGate:
    return SshGate(server, SshSettings(port=0, **settings))


async def gates(
    tmp_path: pathlib.Path, door: Callable[[Server, dict[str, Any]], Any] = ssh_door
) -> AsyncIterator[Callable[..., Awaitable[Any]]]:
    """`await make(server_args, **settings)`: a dev server on free ports with a door on
    (`door(server, settings)`: SSH unless told; the browser door's tests pass theirs);
    every server and door stopped after."""
    started: list[tuple[Server, Any]] = []

    async def make(server_args: dict[str, Any] | None = None, **settings: Any) -> Any:
        server = Server(tmp_path / "data", port=0, **({"dev": True} | (server_args or {})))
        await server.start()
        gate = door(server, settings)
        await gate.start()
        started.append((server, gate))
        return gate

    yield make
    for server, gate in started:
        await gate.stop()
        await server.stop()


async def lobby(
    gate: SshGate, key: asyncssh.SSHKey | None, user: str = "alice", address: str = "127.0.0.1"
) -> Terminal:
    """A session that shows the whole lobby, its client connected to the server.

    A frame reaches the terminal in several reads, top row first: the footer on the
    last row says the first frame has arrived whole, not only its top."""
    term = await open_terminal(await ssh_connect(gate.port, user, key, address))
    await term.wait(
        lambda: "Rooms" in term.text() and "Quit" in term.screen.display[-1], "the whole lobby"
    )
    if key is not None:
        await term.wait(lambda: identity_of(gate, key).conn is not None, "the client's hello")
    return term


def identity_of(gate: SshGate, key: asyncssh.SSHKey) -> Identity:
    token = gate.identities.get(key.get_fingerprint())
    assert gate.server.store is not None and gate.server.hub is not None
    found = gate.server.store.find_identity(token) if token else None
    assert found is not None
    return gate.server.hub.identities[found[0]]


def seat_of(gate: SshGate, key: asyncssh.SSHKey) -> tuple[str | None, int | None]:
    """Where the key's identity sits, as the server knows it."""
    identity = identity_of(gate, key)
    return (identity.room.id if identity.room else None), identity.seat
