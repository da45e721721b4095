"""A home for players (issue 18) over real sockets: one name per player, who is
online, ratings (compared with openskill called directly), past games and their
records, rematch, and how rooms end."""

from __future__ import annotations

import asyncio
import logging
import pathlib
import sqlite3
from collections.abc import AsyncIterator

import pytest
from openskill.models import PlackettLuce

from modernart.engine.records import parse_record, replay
from modernart.server.limits import Limits
from modernart.server.people.ratings import shown
from modernart.server.wire.app import Server

from .test_lobby import disconnected
from .wsclient import Client, autoplay


async def request(client: Client, t: str, **fields) -> dict:
    rid = await client.send(t, **fields)
    return await client.expect_reply(rid)


async def hello_refused(url: str, name: str) -> dict:
    client = await Client.open(url)
    await client.send("hello", v=1, name=name)
    error = await client.expect("error")
    await client.close()
    return error


# ------------------------------------------------------------------ names


async def test_a_taken_name_is_refused_to_a_new_identity_with_a_free_suggestion(url, player):
    await player("alice")
    for same in ("alice", "ALICE", "аlice", "alicе", "ａlice"):  # Cyrillic а / е, fullwidth
        error = await hello_refused(url, same)
        assert error["code"] == "name_taken", same
        assert error["suggestion"] == f"{same}2"
    assert (await player("alice2")).you  # the suggestion is free indeed
    error = await hello_refused(url, "Alice")
    assert error["suggestion"] == "Alice3"


async def test_a_returning_player_keeps_their_name_if_the_new_one_is_taken(url, player):
    ann = await player("Ann")
    await player("Bob")
    await ann.close()
    again = await Client.hello(url, "bob", ann.token)
    welcome = next(m for m in again.received if m["t"] == "welcome")
    assert again.you == ann.you and welcome["name"] == "Ann"
    await again.close()


async def test_rename_to_a_taken_name_is_refused_and_changes_nothing(server, player):
    ann, bob = await player("Ann"), await player("Bob")
    error = await request(bob, "rename", name="AnN")
    assert error["code"] == "name_taken" and error["suggestion"] == "AnN2"
    assert server.store.identity_name(bob.you) == "Bob"
    assert (await request(bob, "rename", name="BOB"))["name"] == "BOB"  # one's own name
    assert (await request(ann, "rename", name="Annie"))["name"] == "Annie"
    assert (await request(bob, "rename", name="Ann"))["code"] == "name_taken"  # kept for Annie
    assert (await request(ann, "rename", name="Ann"))["name"] == "Ann"  # who may have it back


@pytest.mark.parametrize(
    "name",
    [
        "\u3164",  # Hangul filler: shows nothing
        "Ann\u3164",
        "\u2800\u2800",  # Braille blank
        "A\u200bnn",  # zero-width space
        "Ann\u00a0Lee",  # no-break space
        " Ann",
        "Ann  Lee",
        "Z\u0301\u0302\u0303oe",  # a stack of combining marks
        "Otto (R)",  # a bot's mark
        "Vera [x]",
    ],
)
async def test_names_that_hide_or_mimic_are_refused(url, player, name):
    error = await hello_refused(url, name)
    assert error["code"] == "bad_message"
    bob = await player("Bob")
    assert (await request(bob, "rename", name=name))["code"] == "bad_message"


async def test_duplicate_names_in_an_old_store_are_suffixed_once_at_start(tmp_path, caplog):
    data = tmp_path / "old"
    srv = Server(data, port=0, dev=True)
    await srv.start()
    await srv.stop()
    db = sqlite3.connect(data / "modernart.sqlite3")
    db.execute("DROP TABLE name_keys")  # as a store from before issue 18
    for i, name in enumerate(["Ann", "ann", "Bob", "АNN"]):
        db.execute(
            "INSERT INTO identities (id, name, token_hash, created, seated) VALUES (?,?,?,?,1)",
            (f"u{i}", name, f"h{i}", 100.0 + i),
        )
    db.commit()
    db.close()
    caplog.set_level(logging.WARNING, "modernart.server")
    srv = Server(data, port=0, dev=True)
    await srv.start()
    try:
        names = [srv.store.identity_name(f"u{i}") for i in range(4)]
        assert names == ["Ann", "ann2", "Bob", "АNN3"]
        assert caplog.text.count("is held by an older one") == 2
    finally:
        await srv.stop()
    srv = Server(data, port=0, dev=True)  # once: a second start renames nothing
    caplog.clear()
    await srv.start()
    await srv.stop()
    assert "held by an older one" not in caplog.text


# -------------------------------------------------------- a rated game


async def two_humans_and_a_bot(player, level: str = "normal") -> tuple[Client, Client, str]:
    ann, bob = await player("Ann"), await player("Bob")
    await ann.send("create", seats=3, options={"shout_window_ms": 100})
    room = (await ann.expect("joined"))["room"]
    await bob.send("join", room=room)
    await bob.expect("joined")
    await ann.send("add_bot", level=level)
    await ann.send("start")
    await ann.next_update()
    await bob.next_update()
    return ann, bob, room


def game_places(final: dict) -> list[int]:
    """Each seat's place in a finished Modern Art game: the winners, then by money."""
    winners = next(e for e in final["events"] if e["type"] == "game_end")["winners"]
    scores = [s["money"] for s in final["view"]["seats"]]
    n = len(scores)
    return [
        1
        if i in winners
        else 1
        + len(winners)
        + sum(1 for j in range(n) if j not in winners and scores[j] > scores[i])
        for i in range(n)
    ]


async def test_a_finished_game_is_rated_as_openskill_says_and_listed(server, player):
    ann, bob, room = await two_humans_and_a_bot(player)
    assert (await request(ann, "record", room=room))["code"] == "not_allowed"  # mid-game
    finals = await asyncio.gather(autoplay(ann, seed=3), autoplay(bob, seed=4))
    money = finals[0]["view"]["seats"]
    end = next(e for e in finals[0]["events"] if e["type"] == "game_end")
    rated = next(e for e in finals[0]["events"] if e["type"] == "rated")

    # openskill called directly on the same result: places by the winners, then money.
    winners = end["winners"]
    scores = [s["money"] for s in money]
    places = game_places(finals[0])
    # Newcomers are provisional, and only established opponents (every rated bot level)
    # move a rating (server/people/ratingrules.py): each human is rated against the bot alone,
    # and the bot against nobody.
    model = PlackettLuce()
    expected = []
    for seat in (0, 1):
        new = model.rate([[model.rating()], [model.rating()]], ranks=[places[seat], places[2]])
        expected.append(shown(new[0][0].mu, new[0][0].sigma))
    assert rated["ratings"][2] is None
    assert [r["after"] for r in rated["ratings"][:2]] == expected
    assert [r["before"] for r in rated["ratings"][:2]] == [1500, 1500]
    assert [r["provisional"] for r in rated["ratings"][:2]] == [True, True]

    who = {p["name"]: p for p in (await request(ann, "who"))["players"]}
    assert who["Ann"]["rating"] == expected[0] and who["Ann"]["provisional"]
    assert (await request(ann, "leaderboard", game="modernart"))["players"] == []

    games = await request(bob, "games")
    (game,) = games["games"]
    assert game["room"] == room and game["game"] == "modernart"
    assert game["players"][:2] == ["Ann", "Bob"] and game["bots"] == [False, False, True]
    assert game["places"] == places and game["scores"] == scores and game["seat"] == 1
    assert game["change"] == expected[1] - 1500 and game["outcome"] == "finished"
    assert (await request(bob, "games", player="ann"))["games"][0]["seat"] == 0

    record = (await request(bob, "record", room=room))["record"]
    result = replay(parse_record(record))
    assert result["finished"] and result["winners"] == winners and result["money"] == scores

    # Nothing private in `games` and `who`: no tokens, no identity ids.
    for msg in (games, await request(bob, "who")):
        text = repr(msg)
        assert ann.token not in text and bob.token not in text and ann.you not in text


async def test_a_game_a_stand_in_played_most_of_is_a_loss_for_that_human(server, player):
    ann, bob, room = await two_humans_and_a_bot(player)
    table = server.hub.rooms[room]
    table.seats[1].standin_turns = 10**6  # as if the autopilot had played Bob's game
    finals = await asyncio.gather(autoplay(ann, seed=5), autoplay(bob, seed=6))
    rated = next(e for e in finals[0]["events"] if e["type"] == "rated")
    # Bob is placed last whatever his seat made, below the bot (each newcomer is rated
    # against the bot alone); Ann keeps her place against the bot.
    ann, _, bot = game_places(finals[0])
    model = PlackettLuce()
    pair = [[model.rating()], [model.rating()]]
    bob_new = model.rate(pair, ranks=[2, 1])[0][0]
    ann_new = model.rate(pair, ranks=[ann, bot])[0][0]
    assert rated["ratings"][1]["after"] == shown(bob_new.mu, bob_new.sigma) < 1500
    assert rated["ratings"][0]["after"] == shown(ann_new.mu, ann_new.sigma)


# ------------------------------------------------------------------- who


async def test_who_lists_everyone_online_and_where_they_are(server, player):
    _ann, _bob, room = await two_humans_and_a_bot(player)
    cy = await player("Cy")
    await cy.send("watch", room=room)
    await cy.expect("joined")
    dee = await player("Dee")
    who = await request(dee, "who")
    where = {p["name"]: (p["where"], p.get("room")) for p in who["players"]}
    assert where == {
        "Ann": ("playing", room),
        "Bob": ("playing", room),
        "Cy": ("watching", room),
        "Dee": ("lobby", None),
    }
    assert all(p["rating"] == 1500 for p in who["players"]) and who["online"] == 4


# --------------------------------------------------------------- rematch


async def test_a_rematch_starts_the_same_table_once_every_human_accepts(server, player):
    ann, bob, room = await two_humans_and_a_bot(player)
    await asyncio.gather(autoplay(ann, seed=7), autoplay(bob, seed=8))
    old = server.hub.rooms[room]
    header_first = old.info.record_header(old.game)["first_auctioneer"]
    await ann.send("rematch", room=room, accept=True)
    seen = await bob.expect("rematch")
    assert seen["accepted"] == [0] and seen["humans"] == [0, 1] and seen["new_room"] is None
    await bob.send("rematch", room=room, accept=True)
    final = await ann.expect("rematch", accepted=[0, 1])
    new_room = final["new_room"]
    assert new_room and new_room != room
    for client, seat in ((ann, 0), (bob, 1)):
        joined = await client.expect("joined", room=new_room)
        assert joined["seat"] == seat
        update = await client.next_update()
        assert update["view"]["room"] == new_room and update["view"]["status"] == "playing"
        names = [s["name"] for s in update["view"]["seats"]]
        assert names == [s.name for s in old.seats]
        assert [s["bot"] for s in update["view"]["seats"]] == [False, False, True]
    again = server.hub.rooms[new_room]
    assert again.info.record_header(again.game)["first_auctioneer"] == (header_first + 1) % 3
    assert again.variant == old.variant and again.options.shout_window_ms == 100


async def test_a_rematch_is_refused_mid_game_and_to_outsiders(server, player):
    ann, _bob, room = await two_humans_and_a_bot(player)
    assert (await request(ann, "rematch", room=room, accept=True))["code"] == "not_allowed"
    cy = await player("Cy")
    assert (await request(cy, "rematch", room=room, accept=True))["code"] == "not_allowed"
    assert (await request(cy, "rematch", room=room, accept=1))["code"] == "bad_message"


# ----------------------------------------------------------- rooms' ends


@pytest.fixture
async def quick_ends(tmp_path: pathlib.Path) -> AsyncIterator[Server]:
    limits = Limits.for_dev().replace(abandoned_after_s=0.3, finished_listed_s=0.3)
    srv = Server(tmp_path / "ends", port=0, dev=True, limits=limits)
    await srv.start()
    yield srv
    await srv.stop()


async def test_an_abandoned_game_leaves_the_list_is_stored_and_a_loss_for_its_human(quick_ends):
    url = f"ws://127.0.0.1:{quick_ends.port}/"
    ann = await Client.hello(url, "Ann")
    spectator = await Client.hello(url, "Spec")
    await ann.send("create", seats=3, options={"shout_window_ms": 60000, "bot_delay_ms": 10000})
    room = (await ann.expect("joined"))["room"]
    await ann.send("add_bot")
    await ann.send("add_bot")
    await ann.send("start")
    await ann.next_update()
    await spectator.send("watch", room=room)
    await spectator.expect("joined")
    await ann.close()
    await disconnected(quick_ends, ann)
    assert (await spectator.expect("left", timeout=10))["room"] == room
    assert room not in quick_ends.hub.rooms
    assert quick_ends.store.room(room).status == "abandoned"
    assert quick_ends.store.leaderboard("modernart", 10) == []  # Ann is provisional
    rooms = await request(spectator, "rooms")
    assert room not in {r["id"] for r in rooms["rooms"]}
    # Quitting against bots is no way out of a loss: Ann is placed below both bots.
    model = PlackettLuce()
    new = model.rate([[model.rating()] for _ in range(3)], ranks=[2, 1, 1])
    games = await request(await Client.hello(url, "Ann", ann.token), "games")
    (game,) = games["games"]
    assert game["outcome"] == "abandoned" and game["places"] == [None, None, None]
    assert game["rating"] == shown(new[0][0].mu, new[0][0].sigma) and game["change"] < 0


async def test_a_finished_room_stays_listed_a_while_then_goes(quick_ends):
    url = f"ws://127.0.0.1:{quick_ends.port}/"
    ann = await Client.hello(url, "Ann")
    await ann.send("create", seats=3, options={"shout_window_ms": 100})
    room = (await ann.expect("joined"))["room"]
    await ann.send("add_bot", level="random")
    await ann.send("add_bot", level="random")
    await ann.send("start")
    await ann.next_update()
    await autoplay(ann, seed=9)
    listed = await request(ann, "rooms", status="finished")
    assert [r["id"] for r in listed["rooms"]] == [room]
    assert listed["rooms"][0]["status"] == "finished"
    await ann.send("leave")  # in the lobby: pushed every change of the list
    while room in quick_ends.hub.rooms:
        await ann.expect("rooms", timeout=10)  # pushed when the list changes
    assert quick_ends.store.room(room).status == "finished"
    await ann.close()


async def test_the_operator_lists_a_games_ratings(tmp_path, capsys, store_url):
    from modernart.server.cli import main
    from modernart.server.store.players import Rating
    from modernart.server.store.port import open_store

    store = open_store(tmp_path, store_url)
    store.save_results("r1", "serengeti", "finished", [], [Rating("u1", "Ann", 30.0, 2.0, 3, True)])
    store.close()
    where = ["--data", str(tmp_path)] + (["--store", store_url] if store_url else [])
    assert main(["ratings", "--game", "serengeti", *where]) == 0
    assert capsys.readouterr().out == f"1\t{shown(30.0, 2.0)}\t3\tAnn\n"
    assert main(["ratings", "--game", "modernart", *where]) == 0
    assert "nobody is rated" in capsys.readouterr().err
    assert main(["ratings", "--data", str(tmp_path / "none")]) == 2
