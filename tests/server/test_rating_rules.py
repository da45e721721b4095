"""Ratings a farmer cannot game (issue 33, server/people/ratingrules.py), over real sockets:
the weakest bots are unrated, two accounts trading wins count 3 games a day, leaving
is losing, provisional players stay off the leaderboard and move no established
rating. Expected ratings come from openskill called directly."""

from __future__ import annotations

import asyncio
import pathlib
from collections.abc import AsyncIterator

import pytest
from openskill.models import PlackettLuce

from modernart.server.limits import Limits
from modernart.server.people import ratingrules
from modernart.server.people.ratings import shown
from modernart.server.store.players import Rating, SeatResult
from modernart.server.store.port import open_store
from modernart.server.wire.app import Server

from .test_players import game_places, request
from .waiting import eventually
from .wsclient import Client, autoplay

MODEL = PlackettLuce()


async def table(humans: list[Client], bots: list[str], **options) -> str:
    """A started Modern Art room: these clients (the first hosts) and bots of these
    levels. Each client leaves the room it was in first and forgets older messages."""
    for client in humans:
        if client.room is not None:
            await request(client, "leave")
            client.room = None
        client.buffer.clear()
    host = humans[0]
    seats = len(humans) + len(bots)
    await host.send("create", seats=seats, options={"shout_window_ms": 100, **options})
    room = (await host.expect("joined"))["room"]
    for client in humans[1:]:
        await client.send("join", room=room)
        await client.expect("joined")
    for level in bots:
        await host.send("add_bot", level=level)
    await host.send("start")
    for client in humans:
        await client.next_update()
    return room


async def play(humans: list[Client], bots: list[str], seed: int = 0, **options) -> dict:
    """A whole game; its last update (`rated` among its events)."""
    await table(humans, bots, **options)
    finals = await asyncio.gather(*(autoplay(c, seed=seed + i) for i, c in enumerate(humans)))
    return finals[0]


def rated_of(final: dict) -> list:
    return next(e for e in final["events"] if e["type"] == "rated")["ratings"]


def unrated_of(final: dict) -> str | None:
    """Why nobody was rated (issue 28, play-test #4), None when someone was."""
    return next(e for e in final["events"] if e["type"] == "rated").get("unrated")


def seed_rating(server, rating: Rating) -> None:
    server.store.save_results(f"seed-{rating.player}", "modernart", "finished", [], [rating])


async def who_rating(client: Client, name: str) -> tuple[int, bool]:
    players = (await request(client, "who"))["players"]
    entry = next(p for p in players if p["name"] == name)
    return entry["rating"], entry["provisional"]


async def test_wins_against_random_and_easy_bots_do_not_change_the_rating(server, player):
    ann = await player("Ann")
    final = await play([ann], ["random", "easy"], seed=1)
    assert rated_of(final) == [None, None, None]
    assert unrated_of(final) == "weak_bots"
    assert await who_rating(ann, "Ann") == (1500, True)
    assert server.store.ratings("modernart", [ann.you, "bot:random", "bot:easy"]) == {}


@pytest.fixture
async def unpaced(tmp_path: pathlib.Path) -> AsyncIterator[Server]:
    """A dev server without the per-connection message rate: games back to back."""
    limits = Limits.for_dev().replace(messages_per_s=0)
    srv = Server(tmp_path / "unpaced", port=0, dev=True, limits=limits)
    await srv.start()
    yield srv
    await srv.stop()


async def test_two_accounts_trading_wins_count_three_games_a_day(unpaced):
    """The farmer's move: two accounts (one address, as every test client) play each
    other again and again. Fresh, they move nobody's rating; established, their
    results count in `PAIR_GAMES` games a day, no more."""
    server, url = unpaced, f"ws://127.0.0.1:{unpaced.port}/"
    win, lose = await Client.hello(url, "Farmer"), await Client.hello(url, "Sheep")
    fresh = await play([win, lose], ["random"], seed=1)
    assert rated_of(fresh) == [None, None, None] and unrated_of(fresh) == "provisional"
    assert server.store.leaderboard("modernart", 10) == []
    for client, name in ((win, "Farmer"), (lose, "Sheep")):
        seed_rating(server, Rating(client.you, name, 25.0, 3.0, 20, True))
    last = None
    for game in range(ratingrules.PAIR_GAMES + 2):
        final = await play([win, lose], ["random"], seed=10 * game)
        rated = rated_of(final)
        if game < ratingrules.PAIR_GAMES:
            assert None not in rated[:2] and rated[2] is None, game
            assert unrated_of(final) is None
            last = rated[0]["after"]
        else:
            assert rated == [None, None, None], game
            assert unrated_of(final) == "pair_limit"
    assert await who_rating(win, "Farmer") == (last, False)  # no change after the third
    rating = server.store.ratings("modernart", [win.you])[win.you]
    assert rating.games == 20 + ratingrules.PAIR_GAMES


async def test_leaving_a_game_a_stand_in_finishes_is_a_loss(server, player):
    """Bob leaves mid-game; the autopilot finishes his seat (and may do well): Bob is
    placed last. Both are newcomers: each is rated against the bot alone."""
    ann, bob = await player("Ann"), await player("Bob")
    await table([ann, bob], ["normal"], takeover_s=1)
    await request(bob, "leave")
    final = await autoplay(ann, seed=3)
    ann_place, _, bot_place = game_places(final)
    pair = [[MODEL.rating()], [MODEL.rating()]]
    bob_new = MODEL.rate(pair, ranks=[2, 1])[0][0]
    ann_new = MODEL.rate(pair, ranks=[ann_place, bot_place])[0][0]
    rated = rated_of(final)
    assert rated[1]["after"] == shown(bob_new.mu, bob_new.sigma) < 1500
    assert rated[0]["after"] == shown(ann_new.mu, ann_new.sigma)


async def test_an_established_rating_does_not_move_against_a_provisional_player(server, player):
    ann, bob = await player("Ann"), await player("Bob")
    seed_rating(server, Rating(ann.you, "Ann", 27.0, 2.0, 40, True))
    seed_rating(server, Rating(bob.you, "Bob", 33.0, 5.0, 4, False))
    board = (await request(ann, "leaderboard", game="modernart"))["players"]
    assert [p["name"] for p in board] == ["Ann"]  # Bob is provisional
    assert await who_rating(ann, "Bob") == (shown(33.0, 5.0), True)

    final = await play([ann, bob], ["normal"], seed=20)
    places = game_places(final)
    ann_r, bob_r, bot_r = MODEL.rating(mu=27, sigma=2), MODEL.rating(mu=33, sigma=5), MODEL.rating()
    # Provisional Bob moves nobody: Ann is rated against the bot, the bot against Ann,
    # Bob against both.
    ann_new = MODEL.rate([[ann_r], [bot_r]], ranks=[places[0], places[2]])[0][0]
    bob_new = MODEL.rate([[ann_r], [bob_r], [bot_r]], ranks=places)[1][0]
    bot_new = MODEL.rate([[ann_r], [bot_r]], ranks=[places[0], places[2]])[1][0]
    rated = rated_of(final)
    assert rated[0] == {
        "before": shown(27, 2),
        "after": shown(ann_new.mu, ann_new.sigma),
        "provisional": False,
    }
    assert rated[1]["after"] == shown(bob_new.mu, bob_new.sigma) and rated[1]["provisional"]
    assert rated[2]["after"] == shown(bot_new.mu, bot_new.sigma)
    assert rated[2]["level"] == "normal"  # issue 28: the level's one rating, told as such
    board = (await request(ann, "leaderboard", game="modernart"))["players"]
    assert {p["name"] for p in board} == {"Ann", "normal bot"}


async def test_a_player_is_established_after_ten_games_against_three_opponents(server, player):
    ann = await player("Ann")
    store = server.store
    games = ratingrules.ESTABLISHED_GAMES
    for i in range(games):  # earlier games: enough, but against two bot levels only
        bot = ("bot:normal", "bot:hard")[i % 2]
        seats = [
            SeatResult(0, ann.you, "Ann", 1, 50, 1500, 1500),
            SeatResult(1, bot, "b", 2, 9, 1, 1),
        ]
        rating = Rating(ann.you, "Ann", 25.0, 3.0, i + 1, False)
        store.save_results(f"old{i}", "modernart", "finished", seats, [rating])
    assert await who_rating(ann, "Ann") == (shown(25.0, 3.0), True)
    # A game against a third opponent (`expert` is slow; an established human is one).
    bob = await player("Bob")
    seed_rating(server, Rating(bob.you, "Bob", 25.0, 3.0, 20, True))
    final = await play([ann, bob], ["normal"], seed=30)
    assert rated_of(final)[0]["provisional"] is False
    board = (await request(ann, "leaderboard", game="modernart"))["players"]
    assert {"Ann", "Bob"} <= {p["name"] for p in board}
    assert (await who_rating(bob, "Ann"))[1] is False


@pytest.fixture
async def quick_ends(tmp_path: pathlib.Path) -> AsyncIterator[Server]:
    limits = Limits.for_dev().replace(abandoned_after_s=0.3)
    srv = Server(tmp_path / "ends", port=0, dev=True, limits=limits)
    await srv.start()
    yield srv
    await srv.stop()


async def test_in_an_abandoned_game_the_first_human_to_go_loses_most(quick_ends):
    url = f"ws://127.0.0.1:{quick_ends.port}/"
    ann, bob = await Client.hello(url, "Ann"), await Client.hello(url, "Bob")
    for client, name in ((ann, "Ann"), (bob, "Bob")):
        seed_rating(quick_ends, Rating(client.you, name, 25.0, 3.0, 20, True))
    room = await table([ann, bob], ["normal"], shout_window_ms=60000, bot_delay_ms=10000)
    await ann.close()
    # Ann's `disconnected` (not an update already on its way before it): Bob goes after.
    await bob.until(lambda u: any(e["type"] == "disconnected" for e in u["events"]), timeout=10)
    await bob.close()
    await eventually(lambda: quick_ends.store.room(room).status == "abandoned", "abandonment")
    known = [[MODEL.rating(mu=25.0, sigma=3.0)] for _ in range(2)]
    new = MODEL.rate([*known, [MODEL.rating()]], ranks=[3, 2, 1])
    rows = quick_ends.store.games_of(ann.you, 1, ann.you)[0]["rows"]
    assert [r[9] for r in rows[:2]] == [shown(t[0].mu, t[0].sigma) for t in new[:2]]


def test_a_store_from_before_provisional_ratings_is_given_who_is_established(tmp_path, store_url):
    store = open_store(tmp_path, store_url)
    seen = ("bot:normal", "bot:hard", "u9")  # u9 rated too, so an opponent
    for i in range(10):
        rival = seen[i % 3]
        seats = [
            SeatResult(0, "u1", "Ann", 1, 9, 1500, 1510),
            SeatResult(1, rival, "r", 2, 1, 1, 1),
        ]
        store.save_results(f"a{i}", "modernart", "finished", seats, [])
        two = [
            SeatResult(0, "u2", "Bob", 1, 9, 1500, 1510),
            SeatResult(1, seen[i % 2], "r", 2, 1, 1, 1),
        ]
        store.save_results(f"b{i}", "modernart", "finished", two, [])
    old = [Rating(p, p, 25.0, 3.0, 10) for p in ("u1", "u2", "bot:normal")]
    store.save_results("old", "modernart", "finished", [], old)
    store.db.execute("ALTER TABLE ratings DROP COLUMN established")  # as before issue 33
    store.close()
    store = open_store(tmp_path, store_url)
    try:
        got = store.ratings("modernart", ["u1", "u2", "bot:normal"])
        assert {p: r.established for p, r in got.items()} == {
            "u1": True,  # 10 games, 3 opponents
            "u2": False,  # 10 games, 2 opponents
            "bot:normal": True,
        }
    finally:
        store.close()
