"""Doors on a machine of their own (issue 30): `modernart-server door --server URL`.

Real everything: a game `Server` with a door secret and a `DoorMachine` with its SSH and
browser doors, each on its own loopback port, sharing the store as a door machine shares
the game servers' (here one SQLite file; a cluster's PostgreSQL in test_cluster_doors.py);
real asyncssh sessions and WebSocket clients.
"""

from __future__ import annotations

import asyncio
import pathlib
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import asyncssh
import pytest

from modernart.server.doors.machine import DoorMachine
from modernart.server.doors.ssh.server import SshGate, SshSettings
from modernart.server.doors.web.gate import WebGate, WebSettings
from modernart.server.wire.app import Server
from modernart.server.wire.refusal import Refused
from modernart.server.wire.session import Identity
from modernart.server.wire.tickets import Tickets

from .pageclient import PageClient
from .sshterm import KeyboardPlayer, Terminal, open_terminal, ssh_connect
from .waiting import eventually
from .wsclient import Client

SECRET = b"a door secret of the test, long enough"


@dataclass
class Door:
    server: Server  # the game server
    machine: DoorMachine
    gate: SshGate
    web: WebGate

    def token(self, key: asyncssh.SSHKey) -> str | None:
        assert self.machine.store is not None
        return self.machine.store.key_token(key.get_fingerprint())

    def identity(self, key: asyncssh.SSHKey) -> Identity:
        """The key's identity as the game server holds it."""
        token = self.token(key)
        assert token and self.server.store is not None and self.server.hub is not None
        found = self.server.store.find_identity(token)
        assert found is not None
        return self.server.hub.identities[found[0]]


MakeDoor = Callable[..., Awaitable[Door]]


@pytest.fixture
async def door(tmp_path: pathlib.Path) -> AsyncIterator[MakeDoor]:
    """`await door(**ssh_settings)`: a game server, and a door machine with SSH and the
    browser door for it."""
    started: list[Door] = []

    async def make(server_args: dict[str, Any] | None = None, **settings: Any) -> Door:
        data = tmp_path / "data"
        server = Server(data, port=0, door_secret=SECRET, **({"dev": True} | (server_args or {})))
        await server.start()
        machine = DoorMachine(server.client_url(), SECRET, data, port=0)
        await machine.start()
        gate = SshGate(machine, SshSettings(port=0, **settings))
        await gate.start()
        web = WebGate(machine, WebSettings(port=0), gate.terminals)
        await web.start()
        started.append(made := Door(server, machine, gate, web))
        return made

    yield make
    for made in started:
        await made.web.stop()
        await made.gate.stop()
        await made.machine.stop()
        await made.server.stop()


async def lobby(door: Door, key: asyncssh.SSHKey | None, user: str, address: str) -> Terminal:
    term = await open_terminal(await ssh_connect(door.gate.port, user, key, address))
    await term.wait(
        lambda: "Rooms" in term.text() and "Quit" in term.screen.display[-1], "the whole lobby"
    )
    return term


async def test_an_ssh_player_of_a_door_machine_plays_on_the_game_server(door, key):
    made = await door()
    term = await lobby(made, key, "alice", "127.0.0.2")
    await eventually(lambda: made.identity(key).conn is not None, "the client's hello")
    identity = made.identity(key)
    # The game server counts the session's client for the SSH client's address (its
    # ticket), and names its device by the key.
    assert identity.conn is not None and identity.conn.address == "127.0.0.2"
    assert made.server.connections_from("127.0.0.2") == 1
    assert made.server.store is not None
    (device,) = made.server.store.devices_of(identity.id)
    assert device.label.startswith("SSH key SHA256:")

    await term.wait_text("No rooms yet")
    term.send("c")
    await term.wait_text("Create a room")
    term.send("\x13")  # ctrl+s: the defaults
    await term.wait_text("You host")
    term.send("bbb")
    await term.wait(lambda: term.text().count("(H)") + term.text().count("(R)") >= 3, "3 bots")
    term.send("s")
    hub = made.server.hub
    assert hub is not None
    keyboard = KeyboardPlayer(term, 0)

    def played() -> bool:
        room = made.identity(key).room
        if room is None or room.game is None:
            return False
        if any(a.get("type") == "play" and a.get("seat") == 0 for a in room.game.actions):
            return True
        keyboard.step(room.game)
        return False

    await term.wait(played, "a card played from the door machine's session")
    # The key signs in again through the door: the same identity (the shared store's).
    token = made.token(key)
    again = await open_terminal(await ssh_connect(made.gate.port, "alice", key, "127.0.0.2"))
    await again.wait(lambda: "Your hand" in again.text() or "Round" in again.text(), "table")
    await term.wait_closed()
    assert made.token(key) == token and made.identity(key).room is not None


async def test_a_guest_of_a_door_machine_has_its_identity_before_its_client_starts(door):
    made = await door(guests=True)
    term = await lobby(made, None, "gus", "127.0.0.3")
    (session,) = made.gate.terminals.sessions
    # Nobody tells the door machine of a welcome: its session holds the token it made,
    # so a restarted client comes back as the same guest.
    assert session.token is not None and made.server.store is not None
    found = made.server.store.find_identity(session.token)
    assert found is not None and found[1] == "gus"
    hub = made.server.hub
    assert hub is not None
    await eventually(lambda: hub.identities[found[0]].conn is not None, "the guest's client")
    assert hub.identities[found[0]].conn.address == "127.0.0.3"
    assert "gus" in term.text()


async def test_a_ticket_counts_only_with_the_door_secret(door):
    made = await door()
    server = made.server
    right, wrong = Tickets(SECRET), Tickets(b"another secret, not the servers")

    def url(userinfo: str) -> str:
        return server.client_url(userinfo)

    signed = await Client.hello(url(right.userinfo("203.0.113.7", None)), "signed")
    assert server.connections_from("203.0.113.7") == 1
    forged = await Client.hello(url(wrong.userinfo("203.0.113.8", None)), "forged")
    # An altered ticket: another address under the first one's signature.
    good = right.userinfo("203.0.113.9", None)
    other = right.userinfo("198.51.100.1", None)
    altered = good.split(".")[0] + "." + good.split(".")[1] + "." + other.split(".")[2]
    tampered = await Client.hello(url(altered), "tampered")
    assert server.connections_from("203.0.113.8") == 0
    assert server.connections_from("203.0.113.9") == 0
    assert server.connections_from("127.0.0.1") == 2  # counted where they come from
    hub = server.hub
    assert hub is not None
    tickets = {c.identity.name: c.ticket for c in hub.conns if c.identity is not None}
    assert tickets["signed"] is not None and tickets["forged"] is None
    assert tickets["tampered"] is None
    for client in (signed, forged, tampered):
        await client.close()


async def test_a_code_claimed_through_a_door_machine_moves_the_ssh_key(door, key):
    made = await door()
    owner = await Client.hello(made.server.client_url(), "olive")
    code = (await owner.expect_reply(await owner.send("handoff")))["code"]
    fingerprint = key.get_fingerprint()
    # What the SSH session's client does when its player types the code: its connection
    # carries the door machine's ticket for the key.
    url, _ = made.machine.forward("127.0.0.4", fingerprint)
    session = await Client.hello(url, "alice")
    claimed = await session.expect_reply(await session.send("claim", code=code))
    assert claimed["t"] == "claimed" and claimed["name"] == "olive"
    await session.close()
    assert made.token(key) == claimed["token"]  # the key's next sign-in is olive
    term = await open_terminal(await ssh_connect(made.gate.port, "alice", key, "127.0.0.4"))
    await term.wait_text("you are olive here")
    await eventually(lambda: made.identity(key).conn is not None, "the client's hello")
    assert made.identity(key).name == "olive"
    # (olive's older connection, the owner's, was replaced by this newer one)
    assert made.server.store is not None
    devices = made.server.store.devices_of(made.identity(key).id)
    assert sorted(d.label.split(" ")[0] for d in devices) == ["SSH", "terminal"]


async def test_a_browser_code_is_redeemed_at_the_game_server(door):
    made = await door()
    owner = await Client.hello(made.server.client_url(), "petra")
    code = (await owner.expect_reply(await owner.send("handoff")))["code"]
    assert await made.machine.claim_code("WRONG-CODE", "127.0.0.5", "browser") is None
    token, name = await made.machine.claim_code(code, "127.0.0.5", "browser")
    assert name == "petra" and made.server.store is not None
    assert made.server.store.find_identity(token) == made.server.store.find_identity(owner.token)
    assert await made.machine.claim_code(code, "127.0.0.5", "browser") is None  # used up
    await owner.close()
    await made.server.stop()
    with pytest.raises(Refused) as refused:
        await made.machine.claim_code(code, "127.0.0.5", "browser")
    assert refused.value.code == "unavailable"


def test_the_door_command_says_what_it_lacks(tmp_path: pathlib.Path):
    def door(*argv: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "modernart.server.cli", "door", *argv]
        return subprocess.run(command, capture_output=True, text=True, timeout=60)

    secret = tmp_path / "secret"
    secret.write_text("short\n")
    base = ["--server", "ws://127.0.0.1:1/", "--data", str(tmp_path), "--ssh-port", "0"]
    short = door(*base, "--door-secret-file", str(secret))
    assert short.returncode == 1 and "too short" in short.stderr
    missing = door(*base, "--door-secret-file", str(tmp_path / "none"))
    assert missing.returncode == 1 and "cannot read the door secret" in missing.stderr
    secret.write_text(SECRET.decode())
    no_door = door("--server", "ws://127.0.0.1:1/", "--door-secret-file", str(secret))
    assert no_door.returncode == 1 and "--ssh-port, --web-port or both" in no_door.stderr
    bad_url = door("--server", "http://x/", "--door-secret-file", str(secret), "--ssh-port", "0")
    assert bad_url.returncode == 1 and "ws:// or wss://" in bad_url.stderr


async def test_a_door_machine_is_ready_once_its_doors_listen(door):
    made = await door()
    reader, writer = await asyncio.open_connection("127.0.0.1", made.machine.port)
    writer.write(b"GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n")
    answer = await reader.read()
    writer.close()
    assert answer.startswith(b"HTTP/1.1 200")
    assert b'"doors":{"health":true,"ssh":true,"web":true}' in answer


async def test_a_browser_of_a_door_machine_keeps_its_identity_and_claims_codes(door):
    made = await door()
    store, hub = made.server.store, made.server.hub
    assert store is not None and hub is not None
    ann = await PageClient.open(made.web.port)
    await ann.wait_text("Rooms")
    assert ann.cookie is not None
    found = store.find_identity(ann.cookie.split("=", 1)[1])
    assert found is not None
    await eventually(lambda: hub.identities[found[0]].conn is not None, "the page's client")
    await ann.ws.close()
    again = await PageClient.open(made.web.port, ann.cookie)  # a reload: the same identity
    await again.wait_text("Rooms")
    assert again.cookie is None and found[1] in again.text()
    await again.ws.close()

    owner = await Client.hello(made.server.client_url(), "quinn")
    code = (await owner.expect_reply(await owner.send("handoff")))["code"]
    phone = await PageClient.open(made.web.port, protocols=["modernart.v1", "claim." + code])
    await phone.wait_text("Rooms")
    assert phone.notices == ["This browser now plays that identity."]
    assert phone.claims == ["claimed"] and phone.cookie is not None
    claimed = store.find_identity(phone.cookie.split("=", 1)[1])
    assert claimed is not None and claimed[1] == "quinn"
    wrong = await PageClient.open(made.web.port, protocols=["modernart.v1", "claim." + code])
    await wrong.wait_text("Rooms")  # used up: the page plays a new identity, and says so
    assert wrong.claims == ["refused"] and "wrong or has expired" in wrong.notices[0]
    await owner.close()


async def test_a_new_key_is_told_when_the_game_server_cannot_be_reached(door, key):
    made = await door()
    await made.server.stop()
    term = await open_terminal(await ssh_connect(made.gate.port, "alice", key, "127.0.0.6"))
    await term.wait_closed()
    assert "the game server cannot be reached" in term.output() and term.exit_status == 1
    assert made.token(key) is None and not made.gate.terminals.sessions
