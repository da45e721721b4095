"""The cluster's lobby (issue 30): `who` over every process, the beats that carry its
people, and rooms no process holds (made just before a `kill -9`) adopted by a scan.

Real servers in this test's loop, a real PostgreSQL and a real redis-server, as in
tests/server/test_cluster.py (whose fixtures these tests share). Nothing here waits a
fixed time: each wait is for a condition (a beat heard, an answer), with a deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import pathlib
from collections.abc import Callable
from typing import Any

import psycopg
import redis.asyncio as redis
from websockets.exceptions import ConnectionClosed

from modernart.server.cluster import nodes as nodes_module
from modernart.server.cluster import orphans
from modernart.server.cluster.nodes import OWNER_TTL_MS, owner_key
from modernart.server.wire.app import Server

from .rediscluster import redis_url  # noqa: F401 (a fixture)
from .test_cluster import across, against_two_bots, pg_url, servers, url  # noqa: F401 (fixtures)
from .wsclient import Client

DEADLINE_S = 30.0  # for what the beats bring: a second or two, unless the machine crawls


def hearing(server: Server) -> asyncio.Event:
    """Set whenever `server` hears another process's beat."""
    nodes, heard = server.hub.cluster.nodes, asyncio.Event()
    on_rooms = nodes.on_rooms
    nodes.on_rooms = lambda node, beat: (on_rooms(node, beat), heard.set())
    return heard


def beats_heard(server: Server) -> list[dict[str, Any]]:
    """The beats `server` hears from now on, as they came."""
    nodes, seen = server.hub.cluster.nodes, []
    heard = nodes.heard
    nodes.heard = lambda payload: (seen.append(payload), heard(payload))
    return seen


async def who_until(
    client: Client, heard: asyncio.Event, ok: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """`who` asked of the client's process until its answer is `ok`, again after each
    beat that process hears."""
    async with asyncio.timeout(DEADLINE_S):
        while True:
            heard.clear()
            answer = await client.expect_reply(await client.send("who"))
            if ok(answer):
                return answer
            await heard.wait()


async def beats_until(heard: asyncio.Event, ok: Callable[[], bool]) -> None:
    async with asyncio.timeout(DEADLINE_S):
        while not ok():
            heard.clear()
            await heard.wait()


def named(answer: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in answer["players"]}


async def test_who_on_one_process_lists_everyone_on_every_process(servers):  # noqa: F811
    """Ann (on A) hosts a room; Bob (on B) sits in it; Cy (on B) hosts a room of her own
    on B; Dan (on B) is in the lobby. `who` on A and on B lists all four, where each is,
    and counts them; once Bob is gone, `who` on A no longer lists him."""
    a, b = await servers("a"), await servers("b")
    ann, bob, room = await across(a, b, "Bob")
    cy = await Client.hello(url(b), "Cy")
    dan = await Client.hello(url(b), "Dan")
    try:
        await cy.send("create", seats=3)
        cys = (await cy.expect("joined"))["room"]
        on_a, on_b = hearing(a), hearing(b)
        everyone = {"Ann", "Bob", "Cy", "Dan"}

        def all_placed(answer: dict[str, Any]) -> bool:
            players = named(answer)
            return set(players) == everyone and players["Cy"].get("room_name") is not None

        answer = await who_until(ann, on_a, all_placed)
        assert answer["online"] == 4
        assert [p["name"] for p in answer["players"]] == ["Ann", "Bob", "Cy", "Dan"]
        players = named(answer)
        ann_room = {"room": room, "room_name": a.hub.rooms[room].name, "status": "waiting"}
        assert players["Bob"] == {
            "name": "Bob",
            "where": "playing",
            **ann_room,
            "game": "modernart",
            "rating": 1500,
            "provisional": True,
        }
        assert players["Ann"] == {**players["Bob"], "name": "Ann"}
        assert players["Cy"]["where"] == "playing" and players["Cy"]["room"] == cys
        assert players["Cy"]["status"] == "waiting"
        assert players["Dan"] == {
            "name": "Dan",
            "where": "lobby",
            "game": "modernart",
            "rating": 1500,
            "provisional": True,
        }

        # B's own clients in A's room, and A's in it, as B sees them.
        answer = await who_until(dan, on_b, lambda w: set(named(w)) == everyone)
        assert named(answer)["Bob"] == players["Bob"]  # B knows Bob sits in A's room
        assert named(answer)["Ann"] == players["Ann"]
        assert answer["online"] == 4

        await bob.close()
        answer = await who_until(ann, on_a, lambda w: "Bob" not in named(w))
        assert set(named(answer)) == {"Ann", "Cy", "Dan"} and answer["online"] == 3
    finally:
        for client in (ann, bob, cy, dan):
            with contextlib.suppress(ConnectionClosed):
                await client.close()


async def test_a_beat_carries_its_people_only_when_they_changed_or_every_few_beats(
    servers,  # noqa: F811 (the fixture)
    monkeypatch,
):
    """B's beats carry its people when they change and whole every `PEOPLE_EVERY`
    beats, never fewer; in between, A keeps what it last heard."""
    monkeypatch.setattr(nodes_module, "PEOPLE_EVERY", 3)
    a, b = await servers("a"), await servers("b")
    seen, heard = beats_heard(a), hearing(a)
    bob = await Client.hello(url(b), "Bob")
    try:
        node_b = b.hub.cluster.node

        def from_b() -> list[dict[str, Any]]:
            return [p for p in seen if p.get("n") == node_b and p["k"] == "beat"]

        def with_bob(beat: dict[str, Any]) -> bool:
            return any(person[1] == "Bob" for person in beat.get("p", []))

        await beats_until(heard, lambda: any(with_bob(p) for p in from_b()))
        first = next(i for i, p in enumerate(from_b()) if with_bob(p))
        await beats_until(heard, lambda: len(from_b()) >= first + 8)
        after = from_b()[first:]
        carried = ["p" in beat for beat in after]
        assert not all(carried)  # an unchanged list is not sent again every beat
        assert all(any(carried[i : i + 3]) for i in range(len(carried) - 2)), carried
        assert all(beat["p"] == after[0]["p"] for beat in after if "p" in beat)
        assert any(person[1] == "Bob" for person in a.hub.cluster.nodes.others[node_b].people)
    finally:
        await bob.close()


async def test_a_new_process_hears_the_others_people_at_their_next_beat(
    servers,  # noqa: F811 (the fixture)
    monkeypatch,
):
    """A process that starts later hears B's people at once: B's next beat carries them
    whole (not only after `PEOPLE_EVERY` beats), because B heard a process new to it.
    (A has heard Bob before C starts, so B's beat that named him went out before; B's
    people do not change after that: without the rule C would never hear them.)"""
    monkeypatch.setattr(nodes_module, "PEOPLE_EVERY", 10**6)
    a, b = await servers("a"), await servers("b")
    bob = await Client.hello(url(b), "Bob")
    ann = await Client.hello(url(a), "Ann")
    try:
        await who_until(ann, hearing(a), lambda w: "Bob" in named(w))
        c = await servers("c")
        dan = await Client.hello(url(c), "Dan")
        answer = await who_until(dan, hearing(c), lambda w: "Bob" in named(w))
        assert answer["online"] == 3
        await dan.close()
    finally:
        await bob.close()
        await ann.close()


async def orphan(tmp_path: pathlib.Path, pg_url: str) -> tuple[str, str, dict[str, Any]]:  # noqa: F811
    """A running game (Ann and two bots) in the cluster's store as a process killed just
    after making it leaves it: made by a process without Redis (so no beat named it and
    no owner key was set), which then stops, and dated an hour back. (The room, Ann's
    token, her last update.)"""
    alone = Server(tmp_path / "alone", port=0, dev=True, store_url=pg_url)
    await alone.start()
    try:
        ann = await Client.hello(url(alone), "Ann")
        room, update = await against_two_bots(ann)
        await ann.close()
    finally:
        await alone.stop()
    with psycopg.connect(pg_url, autocommit=True) as db:
        db.execute("UPDATE rooms SET created = created - 3600 WHERE id = %s", (room,))
    return room, ann.token, update


async def test_a_room_no_process_holds_is_adopted_by_a_scan_and_its_player_returns(
    tmp_path,
    servers,  # noqa: F811 (the fixture)
    pg_url,  # noqa: F811 (the fixture)
    monkeypatch,
):
    """A room that never was in a beat (its process died first) and has no owner key:
    a scan of A or B adopts it, and Ann, saying hello to A again, is in her seat with her
    hand as it was."""
    monkeypatch.setattr(orphans, "SCAN_S", 0.05)  # scans come often: nothing waits 10 s
    a, b = await servers("a"), await servers("b")
    room, token, before = await orphan(tmp_path, pg_url)
    ann = await Client.hello(url(a), "Ann", token)
    try:
        assert (await ann.expect("joined", timeout=DEADLINE_S))["seat"] == 0
        resumed = await ann.next_update()
        assert resumed["view"]["hand"] == before["view"]["hand"]
        assert resumed["seq"] >= before["seq"]
        holders = [s for s in (a, b) if room in s.hub.rooms]
        assert len(holders) == 1
    finally:
        await ann.close()


async def test_a_scan_takes_only_an_old_room_without_owner_key_and_only_one_process_does(
    tmp_path,
    servers,  # noqa: F811 (the fixture)
    pg_url,  # noqa: F811 (the fixture)
    redis_url,  # noqa: F811 (the fixture)
    monkeypatch,
):
    """Scans asked for one at a time: a room whose owner key names a process (alive but
    not heard from yet, or slow to renew) is left alone, a room made moments ago too;
    once its key is missing, two processes scanning at the same moment race for it
    through Redis and exactly one restores it."""
    monkeypatch.setattr(orphans, "SCAN_S", 3600.0)  # no scan but those asked for here
    a, b = await servers("a"), await servers("b")
    scans = [a.hub.cluster.scan, b.hub.cluster.scan]
    room, _, _ = await orphan(tmp_path, pg_url)
    key = owner_key(room)
    r = redis.Redis.from_url(redis_url)
    try:
        await r.set(key, "elsewhere", px=OWNER_TTL_MS)  # an owner, slow to renew
        assert await asyncio.gather(*(s.once() for s in scans)) == [[], []]
        assert await r.get(key) == b"elsewhere"

        await r.delete(key)
        for scan in scans:
            scan.older_than = 7200.0  # as if the room were made moments ago
        assert await asyncio.gather(*(s.once() for s in scans)) == [[], []]
        assert await r.get(key) is None

        for scan in scans:
            scan.older_than = orphans.ORPHAN_AGE_S
        won = await asyncio.gather(*(s.once() for s in scans))
        assert sorted(won) == [[], [room]]
        holder, other = (a, b) if won[0] else (b, a)
        assert room in holder.hub.rooms and room not in other.hub.rooms
        assert (await r.get(key)).decode() == holder.hub.cluster.node
        assert await asyncio.gather(*(s.once() for s in scans)) == [[], []]  # held now
    finally:
        await r.aclose()
