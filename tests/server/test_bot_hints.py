"""The room option `hints` (issue 12): the host may turn the client's hint key off for
everyone; the lobby and the room say so; a bad value is refused and creates nothing."""

from __future__ import annotations


async def test_hints_are_on_by_default_and_the_host_may_turn_them_off(player):
    ann, bob = await player("Ann"), await player("Bob")
    await ann.send("create", seats=3)
    room = await ann.expect("room")
    assert room["room"]["options"]["hints"] is True
    await bob.send("create", seats=3, options={"hints": False})
    quiet = await bob.expect("room")
    assert quiet["room"]["options"]["hints"] is False
    listing = await ann.expect_reply(await ann.send("rooms"))
    by_id = {r["id"]: r["options"]["hints"] for r in listing["rooms"]}
    assert by_id == {room["room"]["id"]: True, quiet["room"]["id"]: False}


async def test_a_bad_hints_value_is_refused_and_creates_nothing(player):
    ann = await player("Ann")
    await ann.send("create", seats=3, options={"hints": "no"})
    error = await ann.expect_error("bad_message")
    assert "hints" in error["message"]
    assert (await ann.expect_reply(await ann.send("rooms")))["rooms"] == []
