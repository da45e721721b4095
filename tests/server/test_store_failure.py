"""An action the store could not keep does not stand (the record is the source of truth)."""

from __future__ import annotations

import sqlite3

from .conftest import deck_with


async def test_a_failed_store_write_undoes_the_action_and_play_goes_on(server, player):
    ann, bob, cy = await player("Ann"), await player("Bob"), await player("Cy")
    deck = deck_with(["krypto.open", "yoko.sealed"])
    await ann.send("create", seats=3, options={"deck": deck, "first_auctioneer": 0})
    room = (await ann.expect("joined"))["room"]
    for client in (bob, cy):
        await client.send("join", room=room)
        await client.expect("joined")
    await ann.send("start")
    started = await ann.next_update()
    before = started["view"]
    for client in (bob, cy):
        await client.next_update()

    store = server.store
    real_append = store.append_action

    def failing_append(*args, **kwargs):
        store.append_action = real_append  # fail once, as a full disk might
        raise sqlite3.OperationalError("database or disk is full")

    store.append_action = failing_append
    await ann.act(type="play", card="krypto.open")
    await ann.expect_error("internal")
    assert store.room(room).actions == []

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
