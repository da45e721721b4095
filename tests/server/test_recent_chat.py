"""Issue 28: a room keeps its last chat lines for those who come in later (`joined.chat`),
never more than RECENT_CHAT, and only for those let in; over real sockets."""

from __future__ import annotations

import pathlib
from collections.abc import AsyncIterator

import pytest

from modernart.server.limits import Limits
from modernart.server.rooms.room import RECENT_CHAT
from modernart.server.wire.app import Server

from .wsclient import Client


@pytest.fixture
async def chatty(tmp_path: pathlib.Path) -> AsyncIterator[str]:
    """A dev server without chat limits: a flood of lines all gets through."""
    limits = Limits.for_dev().replace(chats_per_s=0, room_chats_per_s=0)
    server = Server(tmp_path / "data", port=0, dev=True, limits=limits)
    await server.start()
    yield f"ws://127.0.0.1:{server.port}/"
    await server.stop()


async def test_a_flood_of_chat_leaves_the_last_lines_for_a_late_spectator(chatty):
    ann = await Client.hello(chatty, "Ann")
    await ann.send("create", seats=3, password="pw")
    first = await ann.expect("joined")
    room = first["room"]
    assert "chat" not in first  # nothing said yet: nothing carried
    for i in range(3 * RECENT_CHAT):
        await ann.send("chat", text=f"line {i}")
    await ann.expect("chat", text=f"line {3 * RECENT_CHAT - 1}")
    outsider = await Client.hello(chatty, "Eve")
    await outsider.send("watch", room=room)  # no password: refused, and told nothing
    await outsider.expect_error("wrong_password")
    assert not any(m["t"] in ("joined", "chat") for m in outsider.received)
    bob = await Client.hello(chatty, "Bob")
    await bob.send("watch", room=room, password="pw")
    joined = await bob.expect("joined", room=room)
    assert joined["seat"] is None
    texts = [line["text"] for line in joined["chat"]]
    assert texts == [f"line {i}" for i in range(2 * RECENT_CHAT, 3 * RECENT_CHAT)]
    assert all(line["from"] == "Ann" and line["seat"] == 0 for line in joined["chat"])
    for client in (ann, outsider, bob):
        await client.close()
