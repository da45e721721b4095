"""A change the store cannot keep (a full disk) is not applied: memory and disk
agree, the client gets `internal` saying so, bots back off, and the operator
gets one line per failure, never a traceback (issue 7, item 5)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from modernart.engine.actionlog import ActionLog
from modernart.server.wire.app import Server

from .conftest import deck_with, start_three
from .disk import full_disk
from .wsclient import Client


def no_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    assert [r for r in caplog.records if r.exc_info] == []


async def test_a_failed_store_write_undoes_the_action_and_play_goes_on(server, player):
    ann, bob, cy = await player("Ann"), await player("Bob"), await player("Cy")
    deck = deck_with(["krypto.open", "yoko.sealed"])
    room = await start_three(ann, bob, cy, deck)
    started = await ann.next_update()
    before = started["view"]
    for client in (bob, cy):
        await client.next_update()

    store = server.store
    with full_disk(store):
        await ann.act(type="play", card="krypto.open")
        failed = await ann.expect_error("internal")
    assert "could not save" in failed["message"]
    assert store.room(room).actions == []
    # The room went back to the stored game, and keeps its log packed (engine/actionlog.py).
    assert isinstance(server.hub.rooms[room].game.actions, ActionLog)

    await ann.send("sync")
    resynced = await ann.next_update()
    assert resynced["events"] == [] and resynced["seq"] == started["seq"]
    assert resynced["view"]["hand"] == before["hand"]  # the card is back in hand
    assert resynced["view"]["phase"] == "play" and resynced["view"]["lot"] is None

    await ann.act(type="play", card="krypto.open")
    played = await bob.next_update()
    assert played["events"][0] == {"type": "played", "seat": 0, "card": "krypto.open"}
    assert played["seq"] == started["seq"] + 1
    assert store.room(room).actions == [{"seat": 0, "type": "play", "card": "krypto.open"}]


async def test_a_start_that_cannot_be_stored_leaves_the_room_waiting_everywhere(tmp_path, caplog):
    caplog.set_level(logging.INFO, "modernart.server")
    data = tmp_path / "data"
    server = Server(data, port=0, dev=True)
    await server.start()
    url = f"ws://127.0.0.1:{server.port}/"
    ann = await Client.hello(url, "Ann")
    await ann.send("create", seats=3)
    room = (await ann.expect("joined"))["room"]
    for _ in range(2):
        await ann.send("add_bot")
    await ann.expect("room", timeout=5)
    with full_disk(server.store):
        rid = await ann.send("start")
        failed = await ann.expect("error", re=rid)
    assert failed["code"] == "internal" and "could not save" in failed["message"]
    assert server.hub.rooms[room].status == "waiting" and server.hub.rooms[room].game is None
    assert server.store.room(room).status == "waiting"
    no_tracebacks(caplog)
    assert any("could not save room" in r.getMessage() for r in caplog.records)

    # The disk has room again: the start works, moves are stored, and a restart
    # brings the same game back.
    await ann.send("start")
    update = await ann.next_update()
    card = update["view"]["legal"].get("play", [None])[0]
    await ann.close()
    await server.stop()

    server = Server(data, port=server.port, dev=True)
    await server.start()
    assert server.store.room(room).status == "playing"
    ann = await Client.hello(url, "Ann", ann.token)
    await ann.expect("joined", room=room)
    resumed = await ann.next_update()
    assert resumed["view"]["status"] == "playing"
    if card is not None and resumed["view"]["legal"].get("play"):
        await ann.act(type="play", card=resumed["view"]["legal"]["play"][0])
        await ann.expect("update")
        assert len(server.store.room(room).actions) >= 1
    await ann.close()
    await server.stop()


async def test_create_join_add_bot_and_leave_that_cannot_be_stored_change_nothing(
    server, player, caplog
):
    ann, bob = await player("Ann"), await player("Bob")
    await ann.send("create", seats=3)
    room = (await ann.expect("joined"))["room"]
    members = server.store.room(room).members
    hub = server.hub
    with full_disk(server.store):
        await bob.send("create", seats=4)
        assert "could not save" in (await bob.expect_error("internal"))["message"]
        assert [r.id for r in hub.rooms.values()] == [room]

        await bob.send("join", room=room)
        await bob.expect_error("internal")
        assert hub.rooms[room].seats[1] is None and bob.room is None

        await ann.send("add_bot")
        await ann.expect_error("internal")
        assert hub.rooms[room].seats[1] is None

        await ann.send("leave")
        await ann.expect_error("internal")
        assert hub.rooms[room].seats[0].conn is not None  # still seated, connected
        assert room in hub.rooms
    assert server.store.room(room).members == members
    assert server.store.room(room).status == "waiting"
    no_tracebacks(caplog)
    # Everything works again once the disk has room.
    await bob.send("join", room=room)
    await bob.expect("joined", seat=1)
    await ann.send("leave")
    await ann.expect("left")
    assert server.store.room(room).members["seats"][0] is None


async def test_a_new_client_while_the_disk_is_full_is_told_the_server_could_not_save(server, url):
    with full_disk(server.store):
        client = await Client.open(url)
        await client.send("hello", v=1, name="Ann")
        failed = await client.expect_error("internal")
        assert "could not save" in failed["message"]
        await client.ws.wait_closed()
    assert client.ws.close_code == 1011
    assert "could not save" in client.ws.close_reason


async def test_bots_back_off_when_their_moves_cannot_be_stored(server, player, caplog):
    """A bot whose move the store refused tries again after 1 s, then 2 s (not at
    once), with one log line per failure and no traceback."""
    caplog.set_level(logging.INFO, "modernart.server")
    ann = await player("Ann")
    await ann.send("create", seats=3, options={"first_auctioneer": 1})
    await ann.expect("joined")
    await ann.send("add_bot")
    await ann.send("add_bot")
    store = server.store
    tries: list[float] = []
    real_append = store.append_action
    loop = asyncio.get_running_loop()

    def timed_append(*args: object) -> None:
        tries.append(loop.time())
        real_append(*args)

    store.append_action = timed_append
    with full_disk(store, budget=2, only="INSERT INTO actions") as disk:
        await ann.send("start")
        # Seat 1 (a bot) plays first; its move is stored at the third try.
        played = await ann.until(lambda u: any(e["type"] == "played" for e in u["events"]))
    assert played["events"][0]["seat"] == 1
    assert disk.refused == 2 and len(tries) >= 3
    assert tries[1] - tries[0] >= 0.99 and tries[2] - tries[1] >= 1.99
    failures = [r for r in caplog.records if "could not save an action" in r.getMessage()]
    assert len(failures) == 2
    no_tracebacks(caplog)
