"""The review of a finished game over the wire (issue 32; docs/protocol.md `review`):
served with its progress, stored and computed once, shared by those asking at once,
refused for a running game and bad ids, limited per identity and server-wide, and
computed where a live game's bots never wait for it."""

from __future__ import annotations

import asyncio
import functools
import os
import pathlib
from collections.abc import AsyncIterator
from typing import Any

import pytest

from modernart.engine import Record
from modernart.engine.review import DEFAULT_WORLDS, review
from modernart.server.cli import build_parser
from modernart.server.rooms.reviews import BUSY
from modernart.server.rooms.reviewwork import review_part
from modernart.server.wire.app import Server

from .finishedgames import played
from .reviewhold import crashing_part, held_part, release, unblock
from .test_bot_pool import bot_room
from .test_players import request
from .wsclient import Client

WORLDS = 1  # a review of a random game at one world a decision: a few seconds


@pytest.fixture
async def lowest(tmp_path: pathlib.Path) -> AsyncIterator[Server]:
    """A --dev server whose reviews search `WORLDS` worlds a decision (--review-worlds)."""
    server = Server(tmp_path / "data", port=0, dev=True, review_worlds=WORLDS)
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
def reviewing(lowest: Server) -> Server:
    """`lowest`, its review worker at normal priority: beside the other tests of a busy
    suite, an idle-class worker waits minutes for a core (the priority has its own test)."""
    assert lowest.hub is not None
    lowest.hub.bots.review_initializer = None
    return lowest


def url_of(server: Server) -> str:
    return f"ws://127.0.0.1:{server.port}/"


def test_review_worlds_is_an_option_from_1_to_1000():
    assert build_parser().parse_args([]).review_worlds == DEFAULT_WORLDS == 16
    assert build_parser().parse_args(["--review-worlds", "2"]).review_worlds == 2
    for bad in ("0", "1001", "x"):
        with pytest.raises(SystemExit):
            build_parser().parse_args(["--review-worlds", bad])


@pytest.fixture
def fifo(tmp_path: pathlib.Path) -> AsyncIterator[pathlib.Path]:
    path = tmp_path / "hold"
    os.mkfifo(path)
    yield path
    unblock(path)


def hold(server: Server, fifo: pathlib.Path) -> None:
    """The server's next review waits in its worker until `release(fifo)`."""
    assert server.hub is not None
    server.hub.reviews.work = functools.partial(held_part, str(fifo))


async def answers(client: Client, rid: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The `reviewing` messages answering request `rid`, then its last answer."""
    progress = []
    while True:
        msg = await client.expect_reply(rid, timeout=120)
        if msg["t"] != "reviewing":
            return progress, msg
        progress.append(msg)


async def record_of(client: Client, room: str) -> Record:
    answer = await request(client, "record", room=room)
    data = answer["record"]
    return Record(
        players=data["players"],
        variant=data["variant"],
        deck=data["deck"],
        first_auctioneer=data["first_auctioneer"],
        actions=data["actions"],
        game=data.get("game", "modernart"),
    )


async def test_a_finished_games_review_comes_with_progress_and_is_computed_once(reviewing):
    server = reviewing
    reviewer = server.hub.reviews
    async with played(url_of(reviewing)) as games:
        rid = await games.ann.send("review", room=games.public)
        progress, answer = await answers(games.ann, rid)
        assert answer["t"] == "review" and answer["room"] == games.public
        record = await record_of(games.ann, games.public)
        # The server's review is the engine's (`modernart review FILE --worlds 1`).
        assert answer["review"] == review(record, WORLDS)
        decisions = answer["review"]["decisions"]
        total = sum(1 for a in record.actions if "seat" in a)
        assert len(decisions) == total
        # Progress: decision k of n, from none done, growing, before the answer.
        done = [p["done"] for p in progress]
        assert {p["total"] for p in progress} == {total} and {p["room"] for p in progress} == {
            games.public
        }
        assert done[0] == 0 and done == sorted(done) and len(set(done)) > 2 and done[-1] < total
        assert reviewer.computed == 1
        # Asked again, by another player who may see it: the stored one, at once.
        rid = await games.bob.send("review", room=games.public)
        progress, again = await answers(games.bob, rid)
        assert progress == [] and again["review"] == answer["review"]
        assert reviewer.computed == 1 and not reviewer.jobs
        assert server.store.stored_review(games.public) == answer["review"]


async def test_two_players_asking_at_once_share_one_computation(reviewing, fifo):
    server = reviewing
    reviewer = server.hub.reviews
    hold(server, fifo)
    async with played(url_of(reviewing)) as games:
        first = await games.ann.send("review", room=games.locked)
        await games.ann.expect_reply(first)  # reviewing, done 0: the job waits in its worker
        second = await games.bob.send("review", room=games.locked)
        assert (await games.bob.expect_reply(second))["t"] == "reviewing"
        assert list(reviewer.jobs) == [games.locked]
        await asyncio.to_thread(release, fifo)
        (_, one), (_, other) = await asyncio.gather(
            answers(games.ann, first), answers(games.bob, second)
        )
        assert one["t"] == other["t"] == "review" and one["review"] == other["review"]
        assert reviewer.computed == 1


async def test_a_connection_asking_again_gets_the_answers_once(reviewing, fifo):
    # A client repeating its request must not multiply what it is sent: its newest
    # request gets the progress and the review, the earlier one nothing more.
    hold(reviewing, fifo)
    async with played(url_of(reviewing)) as games:
        first = await games.ann.send("review", room=games.public)
        await games.ann.expect_reply(first)
        again = await games.ann.send("review", room=games.public)
        await games.ann.expect_reply(again)
        await asyncio.to_thread(release, fifo)
        progress, answer = await answers(games.ann, again)
        assert answer["t"] == "review" and progress
        earlier = [m for m in games.ann.received if m.get("re") == first]
        assert [(m["t"], m.get("done")) for m in earlier] == [("reviewing", 0)]


async def test_a_running_game_unknown_and_malformed_ids_are_refused(reviewing):
    server = reviewing
    reviewer = server.hub.reviews
    async with played(url_of(reviewing)) as games:
        answer = await request(games.bob, "review", room=games.running)
        assert answer["t"] == "error" and answer["code"] == "not_allowed"
        assert "running" in answer["message"]
        # Nobody learns anything of a running game from a review, its players neither.
        for room, code in [("nosuchroom", "no_such_room"), ("../etc", "no_such_room")]:
            answer = await request(games.ann, "review", room=room)
            assert (answer["t"], answer["code"]) == ("error", code)
        for fields in [{}, {"room": 5}, {"room": ""}, {"room": "x" * 65}]:
            answer = await request(games.ann, "review", **fields)
            assert (answer["t"], answer["code"]) == ("error", "bad_message")
        # A locked room's review is its players' only (the record's rule).
        answer = await request(games.cy, "review", room=games.locked)
        assert (answer["t"], answer["code"]) == ("error", "not_allowed")
        assert not reviewer.jobs and reviewer.computed == 0
        for room in (games.running, games.locked):
            assert server.store.stored_review(room) is None


async def test_one_review_per_identity_and_a_bounded_queue(reviewing, fifo):
    server = reviewing
    reviewer = server.hub.reviews
    hold(server, fifo)
    reviewer.queue_size = 1
    async with played(url_of(reviewing)) as games:
        held = await games.ann.send("review", room=games.public)
        assert (await games.ann.expect_reply(held))["t"] == "reviewing"
        mine = await request(games.ann, "review", room=games.locked)
        assert (mine["t"], mine["code"]) == ("error", "limit_reached")
        assert "one review at a time" in mine["message"]
        busy = await request(games.bob, "review", room=games.locked)
        assert (busy["t"], busy["code"], busy["message"]) == ("error", "limit_reached", BUSY)
        # Joining the review under way costs no place in the queue.
        joined = await games.bob.send("review", room=games.public)
        assert (await games.bob.expect_reply(joined))["t"] == "reviewing"
        assert list(reviewer.jobs) == [games.public]
        await asyncio.to_thread(release, fifo)
        assert (await answers(games.ann, held))[1]["t"] == "review"
        assert (await answers(games.bob, joined))[1]["t"] == "review"
        # Done: Ann may ask for another one.
        rid = await games.ann.send("review", room=games.locked)
        assert (await answers(games.ann, rid))[1]["t"] == "review"
        assert reviewer.computed == 2


async def test_a_bots_turn_in_a_live_game_does_not_wait_behind_reviews(reviewing, fifo):
    server = reviewing
    reviewer, pool = server.hub.reviews, server.hub.bots
    hold(server, fifo)
    async with played(url_of(reviewing)) as games:
        first = await games.ann.send("review", room=games.public)
        await games.ann.expect_reply(first)
        queued = await games.bob.send("review", room=games.locked)
        await games.bob.expect_reply(queued)
        assert len(reviewer.jobs) == 2  # one held in the review worker, one queued
        # Cy's game: the expert auctions first, a choice among its cards: a search.
        await bot_room(games.cy, ["expert", "random"], first_auctioneer=1)
        await games.cy.until(lambda u: any(e["type"] == "played" for e in u["events"]), 60)
        assert pool.stats.full == 1 and pool.stats.fallback == 0
        # The expert decided while both reviews still wait: none has a decision yet.
        assert all(not job.decisions for job in reviewer.jobs.values())
        assert not [m for m in games.ann.received if m["t"] == "review"]
        await asyncio.to_thread(release, fifo)
        assert (await answers(games.ann, first))[1]["t"] == "review"
        assert (await answers(games.bob, queued))[1]["t"] == "review"


async def test_a_crashed_review_worker_fails_that_review_and_the_next_one_works(reviewing):
    reviewer = reviewing.hub.reviews
    reviewer.work = crashing_part
    async with played(url_of(reviewing)) as games:
        rid = await games.ann.send("review", room=games.public)
        _, answer = await answers(games.ann, rid)
        assert (answer["t"], answer["code"]) == ("error", "internal")
        assert not reviewer.jobs and reviewing.store.stored_review(games.public) is None
        reviewer.work = review_part  # a new worker, a new try
        rid = await games.ann.send("review", room=games.public)
        assert (await answers(games.ann, rid))[1]["t"] == "review"


async def test_the_review_worker_runs_at_the_lowest_priority(lowest):
    pool = lowest.hub.bots
    niceness = await pool.submit_review(os.getpriority, os.PRIO_PROCESS, 0)
    assert niceness == min(19, os.getpriority(os.PRIO_PROCESS, 0) + 19)
    # Linux: the idle class, on CPU only when nothing else wants it.
    assert await pool.submit_review(os.sched_getscheduler, 0) == os.SCHED_IDLE
