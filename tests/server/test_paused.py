"""Issue 28 (play-tests: "a game with no human connected pauses without saying so"): when
the last seated human goes, the game waits for one (bots never play whole games alone
on a public server) and says so: the room summary's and the view's `paused`, no clock;
when a player comes back the game goes on, with a fresh clock."""

from __future__ import annotations

from typing import Any

import pytest

from .wsclient import Client


async def listed(client: Client, room: str, pred: Any) -> dict[str, Any]:
    """The lobby's pushed summary of `room`, once it satisfies `pred`."""
    while True:
        rooms = (await client.expect("rooms"))["rooms"]
        summary = next((r for r in rooms if r["id"] == room), None)
        if summary is not None and pred(summary):
            return summary


@pytest.mark.parametrize("game", ["modernart", "serengeti", "artsociety"])
@pytest.mark.parametrize("how", ["leave", "close"])
async def test_the_last_human_going_pauses_the_game_and_everyone_sees_it(public, game, how):
    _, url = await public()
    ann = await Client.hello(url, "Ann")
    await ann.send("create", game=game, seats=3, options={"bot_delay_ms": 500})
    room = (await ann.expect("joined"))["room"]
    await ann.send("add_bot")
    await ann.send("add_bot")
    await ann.send("start")
    await ann.until(lambda u: u["view"]["status"] == "playing")
    sam = await Client.hello(url, "Sam")
    await sam.send("watch", room=room)
    await sam.expect("joined")
    first = await sam.next_update()
    assert first["view"]["paused"] is False and first["view"]["deadline_ms"] is not None
    lena = await Client.hello(url, "Lena")  # in the lobby
    await listed(lena, room, lambda r: r["status"] == "playing" and r["paused"] is False)

    token = ann.token
    if how == "leave":
        await ann.send("leave")
        await ann.expect("left")
    await ann.close()
    news = {"type": "left" if how == "leave" else "disconnected", "seat": 0}
    gone = await sam.until(lambda u: news in u["events"])
    assert gone["view"]["paused"] is True and gone["view"]["deadline_ms"] is None
    summary = await listed(lena, room, lambda r: r["paused"])
    assert summary["status"] == "playing"

    ann = await Client.hello(url, "Ann", token)
    if how == "leave":
        await ann.send("join", room=room)
    await ann.expect("joined", room=room)
    back = await sam.until(lambda u: {"type": "connected", "seat": 0} in u["events"])
    assert back["view"]["paused"] is False and back["view"]["deadline_ms"] is not None
    await listed(lena, room, lambda r: r["paused"] is False)
    for c in (ann, sam, lena):
        await c.close()
