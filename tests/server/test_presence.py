"""Issue 19: presence is the room's, the same for every game: who is connected, away (a
stand-in plays, its moves marked `stand_in`), left on purpose (`leave`, `bye`), and
how many watch. Real sockets, real msgpack, one room per game."""

from __future__ import annotations

from typing import Any

import pytest

from modernart.engine.games import GAME_NAMES

from .wsclient import Client


async def table(player: Any, game: str, **options: Any) -> tuple[Client, Client, str]:
    """Ann (seat 0, first to act) and Bob (seat 1) and a random bot, the game started."""
    ann, bob = await player("Ann"), await player("Bob")
    await ann.send("create", game=game, seats=3, options={"first_auctioneer": 0, **options})
    room = (await ann.expect("joined"))["room"]
    await bob.send("join", room=room)
    await bob.expect("joined")
    await ann.send("add_bot", level="random")
    await ann.send("start")
    await ann.next_update()
    await bob.next_update()
    return ann, bob, room


@pytest.mark.parametrize("game", GAME_NAMES)
async def test_a_stand_ins_moves_are_marked_as_its_own(player, game: str):
    """The update of each move the stand-in makes for an absent player starts with
    `stand_in {seat}`; the move itself follows (no `timeout`: no clock ran out)."""
    ann, bob, _ = await table(player, game, takeover_s=1, turn_timeout_s=0)
    await ann.close()
    gone = await bob.until(lambda u: u["events"][:1] == [{"type": "disconnected", "seat": 0}])
    assert gone["view"]["seats"][0]["left"] is False
    await bob.until(lambda u: {"type": "autopilot", "seat": 0} in u["events"])
    moved = await bob.until(lambda u: {"type": "stand_in", "seat": 0} in u["events"])
    events = moved["events"]
    assert events[0] == {"type": "stand_in", "seat": 0}
    assert any(e.get("seat") == 0 for e in events[1:]), events
    assert not any(e["type"] == "timeout" for e in events)


async def test_bye_then_closing_is_left_and_coming_back_is_connected(player, url):
    """Quitting on purpose (`bye`, as Ctrl+Q sends) reads `left`, never `disconnected`;
    the seat stays the identity's and its next hello takes it back."""
    ann, bob, _ = await table(player, "artsociety", takeover_s=0)
    await ann.send("bye")
    await ann.close()
    update = await bob.until(
        lambda u: any(e["type"] in ("left", "disconnected") for e in u["events"])
    )
    assert update["events"] == [{"type": "left", "seat": 0}]
    assert update["view"]["seats"][0]["left"] is True
    assert update["view"]["seats"][0]["connected"] is False
    back = await Client.hello(url, "Ann", ann.token)
    try:
        again = await bob.until(lambda u: {"type": "connected", "seat": 0} in u["events"])
        assert again["view"]["seats"][0]["left"] is False
        assert again["view"]["seats"][0]["connected"] is True
    finally:
        await back.close()


async def test_the_count_of_spectators_is_in_the_view_and_its_changes_are_told(player):
    ann, _bob, room = await table(player, "serengeti", takeover_s=0)
    cy = await player("Cy")
    await cy.send("watch", room=room)
    await cy.expect("joined")
    seen = await ann.until(lambda u: {"type": "watching", "count": 1} in u["events"])
    assert seen["view"]["spectators"] == 1
    resync = await cy.next_update()
    assert resync["view"]["spectators"] == 1
    await cy.send("leave")
    gone = await ann.until(lambda u: {"type": "watching", "count": 0} in u["events"])
    assert gone["view"]["spectators"] == 0


async def test_a_wrong_password_says_wrong_password_and_none_says_it_is_needed(player):
    ann, cy = await player("Ann"), await player("Cy")
    await ann.send("create", game="artsociety", seats=3, password="tulip")
    room = (await ann.expect("joined"))["room"]
    await cy.send("watch", room=room, password="tulpi")
    assert (await cy.expect_error("wrong_password"))["message"] == "wrong password"
    await cy.send("watch", room=room)
    assert "needs its password" in (await cy.expect_error("wrong_password"))["message"]
    await cy.send("watch", room=room, password="tulip")
    assert (await cy.expect("joined"))["seat"] is None


async def test_a_private_room_takes_a_turn_clock(player):
    """The clock is a create option for every room, a password room's too."""
    ann = await player("Ann")
    await ann.send(
        "create", game="artsociety", seats=3, password="x", options={"turn_timeout_s": 45}
    )
    await ann.expect("joined")
    summary = (await ann.expect("room"))["room"]
    assert summary["options"]["turn_timeout_s"] == 45
    for _ in range(2):
        await ann.send("add_bot", level="random")
    await ann.send("start")
    update = await ann.until(lambda u: ann.seat in u["view"]["to_act"])
    assert 0 < update["view"]["deadline_ms"] <= 45_000
