"""`rename`: a player changes their name in the lobby (issue 11: an SSH player's
name is the SSH user name, changeable in the lobby); the token keeps the identity."""

from __future__ import annotations

from .disk import full_disk
from .wsclient import Client


async def test_rename_in_the_lobby_keeps_the_identity_and_lasts(server, url, player):
    ann = await player("ann")
    rid = await ann.send("rename", name="Annabel")
    reply = await ann.expect_reply(rid)
    assert reply == {"t": "renamed", "name": "Annabel", "re": rid}
    await ann.send("create", seats=3)
    await ann.expect("joined")
    summary = (await ann.expect("room"))["room"]
    assert summary["seated"][0] == "Annabel"
    await ann.send("leave")
    await ann.ws.close()
    assert server.store.identity_name(ann.you) == "Annabel"  # stored: it survives a restart
    again = await Client.hello(url, "Annabel", token=ann.token)
    assert again.you == ann.you


async def test_rename_is_refused_in_a_room_and_for_a_bad_name(server, player):
    bob = await player("Bob")
    rid = await bob.send("rename", name="")
    error = await bob.expect_reply(rid)
    assert error["code"] == "bad_message"
    rid = await bob.send("rename", name="x" * 25)
    assert (await bob.expect_reply(rid))["code"] == "bad_message"
    await bob.send("create", seats=3)
    await bob.expect("joined")
    rid = await bob.send("rename", name="Robert")
    error = await bob.expect_reply(rid)
    assert error["code"] == "not_allowed" and "leave the room" in error["message"]
    assert server.store.identity_name(bob.you) == "Bob"


async def test_a_rename_the_store_cannot_keep_changes_nothing(server, player):
    cy = await player("Cy")
    with full_disk(server.store):
        rid = await cy.send("rename", name="Cyrus")
        assert (await cy.expect_reply(rid))["code"] == "internal"
    await cy.send("create", seats=3)
    await cy.expect("joined")
    summary = (await cy.expect("room"))["room"]
    assert summary["seated"][0] == "Cy"
