"""Searching bots in the server (issue 12): the expert decides in worker processes,
never on the event loop; a busy pool, a crashed worker or a late answer make it
decide as `hard`; real-time shouts wait a human reaction time (R12)."""

from __future__ import annotations

import os
import pathlib
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest

from modernart.engine.games import get_game
from modernart.engine.modernart import Game
from modernart.engine.modernart.bots.timing import MIN_REACTION_MS
from modernart.server.rooms.botpool import GRACE_S, MIN_BUDGET_S, BotPool, decide, search_budget
from modernart.server.wire.app import Server

from .conftest import deck_with
from .vclock import ManualClock
from .wsclient import Client

OPEN_FIRST = deck_with(["krypto.open", "krypto.open", "yoko.open"])
Make = Callable[[str], Awaitable[Client]]


@pytest.fixture
async def make_server(tmp_path: pathlib.Path) -> AsyncIterator[Callable[..., Awaitable[Server]]]:
    """`await make_server(bot_workers=1, bot_budget_s=5, bot_worlds=0)`: a --dev server
    on a free port (`bot_worlds=0`: experts search for their whole budget)."""
    servers: list[Server] = []
    clients: list[Client] = []

    async def make(**kwargs: Any) -> Server:
        srv = Server(tmp_path / f"data{len(servers)}", port=0, dev=True, **kwargs)
        await srv.start()
        servers.append(srv)
        return srv

    yield make
    for client in clients:
        await client.close()
    for srv in servers:
        await srv.stop()


async def hello(srv: Server, name: str) -> Client:
    return await Client.hello(f"ws://127.0.0.1:{srv.port}/", name)


async def bot_room(host: Client, bots: list[str], **options: Any) -> dict[str, Any]:
    """`host` creates a room with `bots` beside them and starts it; the first update."""
    await host.send("create", seats=len(bots) + 1, options=options)
    await host.expect("joined")
    for level in bots:
        await host.send("add_bot", level=level)
        await host.expect("room")
    await host.send("start")
    return await host.next_update()


def bot_events(client: Client, kind: str) -> list[dict[str, Any]]:
    return [
        e
        for m in client.received
        if m["t"] == "update"
        for e in m["events"]
        if e["type"] == kind and e.get("seat", 0) != 0
    ]


async def test_expert_searches_off_the_loop_while_another_room_plays(make_server):
    # Many worlds and time enough for them: a long search, never late however loaded.
    srv = await make_server(bot_workers=1, bot_budget_s=30.0, bot_worlds=100)
    assert srv.hub is not None
    pool = srv.hub.bots
    ann, bob = await hello(srv, "Ann"), await hello(srv, "Bob")
    try:
        # Room A: the expert (seat 1) auctions first, a choice among its cards: a search.
        await bot_room(ann, ["expert", "random"], first_auctioneer=1)
        room_a = ann.room and srv.hub.rooms[ann.room]
        assert room_a and room_a.seats[1] is not None
        thinking = room_a.seats[1].thinking
        assert thinking is not None and pool.busy == 1
        # Room B: Bob plays against a random bot; every act is answered while A's
        # expert is still searching (its answer has not come: the loop was free).
        first = await bot_room(bob, ["random", "random"], first_auctioneer=0)
        card = first["view"]["hand"][0]
        await bob.act(type="play", card=card)
        played = await bob.until(lambda u: any(e["type"] == "played" for e in u["events"]))
        assert played["view"]["lot"]["cards"][0] == card
        assert not thinking.done() and room_a.seats[1].thinking is thinking
        # Then the expert's searched move arrives in room A.
        await ann.until(lambda u: any(e["type"] == "played" for e in u["events"]), timeout=60)
        assert pool.stats.full == 1 and pool.stats.fallback == 0
    finally:
        await ann.close()
        await bob.close()


async def test_busy_pool_makes_experts_shout_as_hard_in_an_open_auction(make_server):
    # One worker and no queue; three experts all decide at once when the lot opens
    # (R12): one searches its cap, the others find the pool busy and decide as `hard`.
    srv = await make_server(bot_workers=1, bot_budget_s=0.5, bot_worlds=0)
    assert srv.hub is not None
    srv.hub.bots.queue_per_worker = 1
    ann = await hello(srv, "Ann")
    try:
        await bot_room(
            ann, ["expert"] * 3, deck=OPEN_FIRST, first_auctioneer=0, shout_window_ms=5000
        )
        await ann.act(type="play", card="krypto.open")
        await ann.until(lambda u: any(e["type"] in ("sold", "free") for e in u["events"]), 60)
        stats = srv.hub.bots.stats
        assert stats.fallback >= 2
        assert stats.full + stats.reduced + stats.late + stats.fallback >= 3
    finally:
        await ann.close()


async def test_pool_survives_a_crashed_worker():
    pool = BotPool(workers=1, budget_s=0.05)
    try:
        with pytest.raises(BrokenProcessPool):
            await pool.submit(os._exit, 3)
        assert pool.stats.crashed == 1 and pool.busy == 0
        # A new worker answers the next decision.
        game = Game(["A", "B", "C"], seed=7)
        seat = game.to_act()[0]
        action, cap = await pool.submit(decide, "modernart", "expert", game.view(seat), [], 1, 0.05)
        assert action is not None and action["type"] == "play" and cap is None
        game.apply({**action, "seat": seat})  # legal: applies without a RuleError
    finally:
        pool.close()


async def test_a_worker_crash_mid_search_lets_the_expert_play_as_hard(make_server):
    srv = await make_server(bot_workers=2, bot_budget_s=5.0, bot_worlds=0)
    assert srv.hub is not None
    pool = srv.hub.bots
    ann = await hello(srv, "Ann")
    try:
        await bot_room(ann, ["expert", "random"], first_auctioneer=1)
        assert pool.busy == 1
        with pytest.raises(BrokenProcessPool):  # the other worker dies: the pool breaks
            await pool.submit(os._exit, 3)
        # The searching expert's decision is lost; it plays as hard instead.
        await ann.until(lambda u: any(e["type"] == "played" for e in u["events"]), timeout=30)
        assert pool.stats.crashed >= 1 and pool.stats.full == 0
    finally:
        await ann.close()


async def test_r12_bots_shout_no_sooner_than_a_human_reaction_time(make_server):
    srv = await make_server()
    assert srv.hub is not None
    srv.hub.clock = clock = ManualClock()  # the bots' pauses and the hammer: virtual time
    ann = await hello(srv, "Ann")
    try:
        await bot_room(
            ann,
            ["hard"] * 3,
            deck=OPEN_FIRST,
            first_auctioneer=0,
            shout_window_ms=3000,
            bot_delay_ms=1000,
        )
        await ann.act(type="play", card="krypto.open")
        changed = None  # when the lot opened or the last bid was seen
        bids: list[float] = []
        read, over = 0, False
        while not over:
            # Every update of the clock's last step has come once a sync is answered.
            await ann.expect_reply(await ann.send("sync"))
            now = clock.time()
            updates = [m for m in ann.received[read:] if m["t"] == "update"]
            read = len(ann.received)
            for update in updates:
                kinds = {e["type"] for e in update["events"]}
                if "bid" in kinds and changed is not None:
                    bids.append(now - changed)
                over = over or bool(kinds & {"sold", "free"})
                if kinds & {"bid", "pass", "played"}:  # an action: the bots' plans start afresh
                    changed = now
            if not over:
                clock.next()  # the next bot's shout or the hammer's next stage
        assert bids, "the hard bots wanted the lot"
        # On the rooms' clock: the server's timer was at least this late.
        assert min(bids) >= MIN_REACTION_MS / 1000 - 0.05
        # Nobody bid after the hammer: every bot bid was accepted.
        assert all(m["t"] != "error" for m in ann.received)
    finally:
        await ann.close()


async def test_a_short_queue_lets_a_decision_wait_for_the_busy_worker(make_server):
    """With the default queue, three experts deciding at once in an open auction (R12)
    all search, one after another in the one worker: none falls back to `hard`."""
    srv = await make_server(bot_workers=1, bot_budget_s=5.0, bot_worlds=1)
    assert srv.hub is not None
    ann = await hello(srv, "Ann")
    try:
        await bot_room(
            ann, ["expert"] * 3, deck=OPEN_FIRST, first_auctioneer=0, shout_window_ms=5000
        )
        await ann.act(type="play", card="krypto.open")
        await ann.until(lambda u: any(e["type"] in ("sold", "free") for e in u["events"]), 60)
        stats = srv.hub.bots.stats
        assert stats.fallback == 0 and stats.full + stats.reduced + stats.late >= 3
    finally:
        await ann.close()


def test_under_a_clock_the_search_gets_the_time_left():
    # No clock: the whole budget, and up to GRACE_S more to answer.
    assert search_budget(1.0, None) == (1.0, 1.0 + GRACE_S)
    # R12's hammer in 3 s: plenty of time, the whole budget.
    budget, limit = search_budget(1.0, 3000)
    assert budget == 1.0 and limit == 2.7
    # In 1 s: answer 0.3 s before it, searching for what is left after the overhead.
    budget, limit = search_budget(1.0, 1000)
    assert limit == 0.7 and abs(budget - 0.5) < 1e-9
    # Almost out of time: the smallest search, still answered before the clock.
    assert search_budget(1.0, 100) == (MIN_BUDGET_S, MIN_BUDGET_S)


async def test_r14_an_answer_for_a_state_the_game_has_left_is_dropped(make_server):
    # Sealed bids (R14) come in together: the random bot bids while the expert searches,
    # so the expert's answer is for a state the game has left; it searches again.
    srv = await make_server(bot_workers=1, bot_budget_s=0.3, bot_worlds=0)
    assert srv.hub is not None
    ann = await hello(srv, "Ann")
    try:
        deck = deck_with(["krypto.sealed", "krypto.open", "yoko.open"])
        await bot_room(ann, ["expert", "random"], deck=deck, first_auctioneer=0)
        await ann.act(type="play", card="krypto.sealed")
        await ann.until(lambda u: u["view"]["phase"] == "sealed")
        await ann.act(type="sealed", amount=0)
        reveal = await ann.until(lambda u: any(e["type"] == "reveal" for e in u["events"]), 30)
        bids = next(e["bids"] for e in reveal["events"] if e["type"] == "reveal")
        stats = srv.hub.bots.stats
        assert stats.stale >= 1 and stats.full >= 1  # dropped once, then searched again
        assert len(bids) == 3  # the expert's sealed bid is in
    finally:
        await ann.close()


@pytest.mark.parametrize("game", ["serengeti", "artsociety"])
async def test_every_games_expert_searches_in_a_worker_to_the_games_end(make_server, game):
    """The pool is not Modern Art's: a Serengeti or Art Society room's experts decide in
    the worker (one world each here, to be quick) through a whole game."""
    srv = await make_server(bot_workers=1, bot_budget_s=5.0, bot_worlds=1)
    assert srv.hub is not None
    ann = await hello(srv, "Ann")
    mine = get_game(game).make_bot("hard", 1)
    try:
        await ann.send("create", game=game, seats=3, options={"bot_delay_ms": 0})
        await ann.expect("joined")
        for _ in range(2):
            await ann.send("add_bot", level="expert")
            await ann.expect("room")
        await ann.send("start")
        view: dict[str, Any] = {}
        while not view.get("finished"):
            view = (await ann.next_update(timeout=60))["view"]
            if view.get("legal") and 0 in view["to_act"]:
                await ann.act(**mine.choose(view))
        stats = srv.hub.bots.stats
        assert stats.full > 0 and stats.crashed == 0 and stats.late == 0
    finally:
        await ann.close()
