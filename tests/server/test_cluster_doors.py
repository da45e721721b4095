"""A door machine in front of a cluster (issue 30): its SSH player's room lives on another
process than the one its client connects to.

Real everything: two cluster processes (`Server`s on PostgreSQL and Redis, in this test's
loop), a `DoorMachine` on the same PostgreSQL with its SSH door, a real asyncssh session.
"""

from __future__ import annotations

import pathlib

from modernart.server.doors.machine import DoorMachine
from modernart.server.doors.ssh.server import SshGate, SshSettings

from .rediscluster import redis_url  # noqa: F401 (a fixture)
from .sshterm import KeyboardPlayer, open_terminal, ssh_connect
from .test_cluster import pg_url, servers, url  # noqa: F401 (fixtures)
from .test_door_machine import SECRET
from .waiting import eventually
from .wsclient import Client


async def test_a_door_machines_ssh_player_plays_a_room_that_lives_on_another_process(
    tmp_path: pathlib.Path,
    servers,  # noqa: F811 (the fixture)
    pg_url: str,  # noqa: F811 (the fixture)
    key,
):
    a = await servers("a", door_secret=SECRET)
    b = await servers("b", door_secret=SECRET)
    machine = DoorMachine(url(a), SECRET, tmp_path / "door", store_url=pg_url, port=0)
    await machine.start()
    gate = SshGate(machine, SshSettings(port=0))
    await gate.start()
    try:
        first = await open_terminal(await ssh_connect(gate.port, "alice", key, "127.0.0.2"))
        await first.wait_text("No rooms yet")
        assert machine.store is not None
        token = machine.store.key_token(key.get_fingerprint())
        assert token is not None
        # The key's identity sits down in a room on B from a client of its own there.
        own = await Client.hello(url(b), "alice", token)
        await own.send("create", seats=3)
        room_id = (await own.expect("joined"))["room"]
        await own.send("add_bot")
        await own.send("add_bot")
        await own.send("start")
        await own.expect("update")
        await own.close()
        assert room_id in b.hub.rooms and room_id not in a.hub.rooms

        # Back through the door machine, whose sessions' clients connect to A.
        term = await open_terminal(await ssh_connect(gate.port, "alice", key, "127.0.0.2"))
        await term.wait(lambda: "Your hand" in term.text(), "the table of the room on B")
        await first.wait_closed()  # the key's older session gave way to this one
        (conn,) = [c for c in a.hub.conns if c.identity and c.identity.name == "alice"]
        assert conn.address == "127.0.0.2" and conn.remote_room == room_id
        room = b.hub.rooms[room_id]
        keyboard = KeyboardPlayer(term, 0)

        def played() -> bool:
            if any(x.get("type") == "play" and x.get("seat") == 0 for x in room.game.actions):
                return True
            keyboard.step(room.game)
            return False

        await term.wait(played, "a card played on B from the door machine's session")
        await eventually(lambda: "Your hand" in term.text(), "the table still shown")
    finally:
        await gate.stop()
        await machine.stop()
