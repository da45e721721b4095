"""Room options: turn timeouts are on by default in public rooms, off in private ones."""

from __future__ import annotations

from modernart.server.rooms.options import PUBLIC_TURN_TIMEOUT_S


async def created_options(client, **create) -> dict:
    await client.send("create", seats=3, **create)
    await client.expect("joined", seat=0)
    return (await client.expect("room"))["room"]["options"]


async def test_public_room_gets_a_turn_timeout_by_default(player):
    options = await created_options(await player("Ann"))
    assert options["turn_timeout_s"] == PUBLIC_TURN_TIMEOUT_S > 0


async def test_private_room_has_no_turn_timeout_by_default(player):
    options = await created_options(await player("Ann"), password="friends")
    assert options["turn_timeout_s"] == 0


async def test_an_explicit_turn_timeout_wins_either_way(player):
    public = await created_options(await player("Ann"), options={"turn_timeout_s": 0})
    private = await created_options(
        await player("Bob"), password="x", options={"turn_timeout_s": 30}
    )
    assert public["turn_timeout_s"] == 0
    assert private["turn_timeout_s"] == 30
