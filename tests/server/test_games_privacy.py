"""`games` keeps a locked room's games to its players (issue 33: anyone saw their
players, scores and places), over real sockets."""

from __future__ import annotations

import asyncio

from .test_players import request
from .wsclient import autoplay


async def test_a_locked_rooms_games_are_shown_only_to_its_players(player):
    ann, bob, cy, dee = [await player(n) for n in ("Ann", "Bob", "Cy", "Dee")]
    # A locked game of Ann's and Bob's, watched by Dee, who knew the password.
    await ann.send("create", seats=3, password="1234", options={"shout_window_ms": 100})
    locked = (await ann.expect("joined"))["room"]
    await bob.send("join", room=locked, password="1234")
    await bob.expect("joined")
    await dee.send("watch", room=locked, password="1234")
    await dee.expect("joined")
    await ann.send("add_bot", level="random")
    await ann.send("start")
    await ann.next_update()
    await bob.next_update()
    await asyncio.gather(autoplay(ann, seed=1), autoplay(bob, seed=2))
    await request(ann, "leave")
    # Then a public game of Ann's with bots.
    await ann.send("create", seats=3, options={"shout_window_ms": 100})
    public = (await ann.expect("joined"))["room"]
    for _ in range(2):
        await ann.send("add_bot", level="random")
    await ann.send("start")
    await ann.next_update()
    await autoplay(ann, seed=3)

    def rooms(answer: dict) -> list[str]:
        return [g["room"] for g in answer["games"]]

    assert rooms(await request(ann, "games")) == [public, locked]
    assert rooms(await request(bob, "games", player="Ann")) == [public, locked]
    assert rooms(await request(bob, "games")) == [locked]
    for outsider in (cy, dee):
        answer = await request(outsider, "games", player="Ann")
        assert rooms(answer) == [public]
        assert "Bob" not in repr(answer)  # nothing of the locked game: not even who played
        assert (await request(outsider, "games", player="Bob"))["games"] == []
