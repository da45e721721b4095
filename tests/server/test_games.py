"""The server drives every game (DESIGN.md, docs/protocol.md): Serengeti (S1–S20) and
Art Society (A1–A28) rooms on real sockets, beside Modern Art's, through GameInfo only.
"""

from __future__ import annotations

import asyncio
import pathlib
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from modernart.engine import load_record, replay
from modernart.engine.actionlog import ActionLog
from modernart.engine.games import GAME_NAMES, get_game
from modernart.server.store.export import export_command
from modernart.server.store.port import open_store
from modernart.server.wire.app import Server

from .test_secrecy import walk
from .wsclient import Client

OTHER_GAMES = ("serengeti", "artsociety")


async def create(client: Client, game: str, seats: int = 3, **fields: Any) -> str:
    await client.send("create", game=game, seats=seats, **fields)
    return (await client.expect("joined"))["room"]


async def play_seat(client: Client, game: str, seed: int = 0, quiet: float = 60) -> dict:
    """Play the client's seat with its game's heuristic bot, sending each choice as an
    `act`, until the game ends; the last update. `quiet` bounds the wait for each next
    update, not the whole game (which takes longer on a loaded machine)."""
    bot = get_game(game).make_bot("heuristic", seed)
    msg = {"view": client.view}
    while True:
        view = msg["view"]
        if view is not None:
            if view["finished"]:
                return msg
            if view["legal"]:
                action = bot.choose(view)
                if action:
                    await client.act(**action)
        msg = await client.next_update(quiet)
        newer = await client.drain(0.003)  # act on the newest view only
        updates = [m for m in newer if m["t"] == "update"]
        client.buffer.extend(m for m in newer if m["t"] != "update")
        if updates:
            msg = updates[-1]


async def bot_table(player: Any, game: str, seats: int = 3, **options: Any) -> tuple[Client, str]:
    """A started room of `game`: a human in seat 0, bots in the others."""
    ann = await player("Ann")
    room = await create(ann, game, seats, options={"takeover_s": 0, **options})
    for _ in range(seats - 1):
        await ann.send("add_bot", level="random")
    await ann.send("start")
    await ann.next_update()
    return ann, room


# ------------------------------------------------------------------ create and lobby


@pytest.mark.parametrize("game", GAME_NAMES)
async def test_create_takes_the_game_and_its_summary_names_it(player, game: str):
    ann = await player("Ann")
    info = get_game(game)
    seats = max(info.players)
    await create(ann, game, seats, variant=info.default_preset)
    summary = (await ann.expect("room"))["room"]
    assert summary["game"] == game and summary["seats"] == seats
    assert summary["variant"] == info.parse_variant(info.default_preset, seats)
    await ann.send("add_bot")  # the game's default level
    summary = (await ann.expect("room"))["room"]
    assert summary["bots"] == [False, True] + [False] * (seats - 2)


async def test_create_without_game_is_modern_art(player):
    ann = await player("Ann")
    await create(ann, None)  # type: ignore[arg-type]
    assert (await ann.expect("room"))["room"]["game"] == "modernart"


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ({"game": "chess", "seats": 3}, "`game` must be one of"),
        ({"game": 7, "seats": 3}, "`game` must be a string"),
        ({"game": "artsociety", "seats": 5}, "`seats` must be from 2 to 4"),
        ({"game": "serengeti", "seats": 2}, "`seats` must be from 3 to 5"),
        ({"game": "modernart", "seats": 2}, "`seats` must be from 3 to 5"),
        ({"game": "serengeti", "seats": 3, "variant": "japanese"}, "`variant`"),
        ({"game": "artsociety", "seats": 3, "variant": "classic"}, "`variant`"),
        ({"game": "serengeti", "seats": 3, "options": {"deck": ["nope"]}}, "deck of Serengeti"),
        (
            {"game": "artsociety", "seats": 3, "options": {"deck": {"piles": {}}}},
            "deck of Art Society",
        ),
        ({"game": "modernart", "seats": 3, "options": {"deck": []}}, "70 cards of R3"),
    ],
)
async def test_create_checks_seats_variant_and_deck_by_the_game(player, fields, says):
    ann = await player("Ann")
    await ann.send("create", **fields)
    error = await ann.expect_error("bad_message")
    assert says in error["message"]
    await ann.send("rooms")
    assert (await ann.expect("rooms"))["rooms"] == []  # nothing was made


async def test_a_fixed_deck_of_the_game_deals_that_deck_S5(player):
    """--dev: a Serengeti deck in `options.deck` is the one the game turns up (S5)."""
    info = get_game("serengeti")
    deck = info.record_header(info.create(["a", "b", "c"], seed=3))["deck"]
    ann = await player("Ann")
    await create(ann, "serengeti", options={"deck": deck, "first_auctioneer": 1})
    summary = (await ann.expect("room"))["room"]
    assert summary["options"]["fixed_deck"] is True and "deck" not in summary["options"]
    for _ in range(2):
        await ann.send("add_bot", level="random")
    await ann.send("start")
    view = (await ann.next_update())["view"]
    assert view["start"] == 1 and deck[: len(view["lot"])] == view["lot"]


@pytest.mark.parametrize("game", ["serengeti", "artsociety"])
async def test_bot_levels_are_the_games_own(player, game: str):
    """Every game has the ladder (issue 20): `add_bot` takes each of its levels; a level
    no game has is refused with the game's own list."""
    ann = await player("Ann")
    await create(ann, game)
    await ann.expect("room")
    for level in ("easy", "expert"):
        await ann.send("add_bot", level=level)
        room = (await ann.expect("room"))["room"]
        assert sum(1 for bot in room["bots"] if bot) == 1 + (level == "expert")
    await ann.send("add_bot", level="grandmaster")
    error = await ann.expect_error("bad_message")
    assert all(name in error["message"] for name in get_game(game).bots)


async def test_lobby_lists_rooms_of_all_three_games_and_filters_by_game(player):
    hosts = [await player(f"Host {i}") for i in range(len(GAME_NAMES))]  # no "modernart"
    rooms = {game: await create(host, game) for host, game in zip(hosts, GAME_NAMES, strict=True)}
    looker = await player("Looker")
    await looker.send("rooms")
    listed = (await looker.expect("rooms"))["rooms"]
    assert {r["id"]: r["game"] for r in listed} == {rid: g for g, rid in rooms.items()}
    for game, rid in rooms.items():
        rid_sent = await looker.send("rooms", game=game)
        page = await looker.expect_reply(rid_sent)
        assert [r["id"] for r in page["rooms"]] == [rid]
        assert page["waiting"] == 1 and page["playing"] == 0
    await looker.send("rooms", game="chess")
    await looker.expect_error("bad_message")


# ------------------------------------------------------------------- whole games


def strings(value: Any):
    """Every string in a message: map keys and values, list items, at any depth."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from strings(k)
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


def check_serengeti_secrecy(client: Client) -> None:
    """S3, S18: no other player's chips before the end; no card before it is turned up."""
    info = get_game("serengeti")
    turned: set[str] = set()
    for msg in client.received:
        if msg["t"] != "update":
            continue
        view = msg["view"]
        turned.update(view["lot"])
        for event in msg["events"]:
            if event["type"] == "auction":
                turned.update(event["cards"])
        you = view["you"]
        assert you == client.seat
        for seat, entry in enumerate(view["seats"]):
            if seat != you and not view["finished"]:
                assert entry["chips"] is None
        if you is None:
            assert view["chips"] is None and view["legal"] == {}
        else:
            assert view["chips"] == view["seats"][you]["chips"] is not None
        for value in strings(msg):
            if info.check_card(value):  # type: ignore[misc]
                assert value in turned, f"{value} sent before it was turned up"


ARTSOCIETY_SEAT_KEYS = {
    "name",
    "connected",
    "bot",
    "autopilot",
    "left",
    "cards",
    "start",
    "white",
    "wall",
    "assistant",
    "excess",
    "score",
}


def check_artsociety_secrecy(client: Client) -> None:
    """No other hand of bid cards or stack, no bid before the reveal (A10), no pile order."""
    for msg in client.received:
        if msg["t"] != "update":
            continue
        view = msg["view"]
        you = view["you"]
        assert you == client.seat
        for entry in view["seats"]:
            assert set(entry) == ARTSOCIETY_SEAT_KEYS
            assert isinstance(entry["cards"], int) and isinstance(entry["excess"], int)
        if you is None:
            assert view["hand"] == [] and view["stack"] == [] and view["my_bid"] is None
            assert view["legal"] == {}
        if view["phase"] == "bid":
            assert view["bids"] is None
        assert all(isinstance(n, int) for n in view["piles"].values())
        for event in msg["events"]:
            if event["type"] == "bid_in":
                assert set(event) == {"type", "seat"}


SECRECY = {"serengeti": check_serengeti_secrecy, "artsociety": check_artsociety_secrecy}


def check_common_secrecy(client: Client, others: list[Client]) -> None:
    """No token of anyone else, no deck, in anything the client received."""
    for frame in client.frames:
        for other in others:
            assert other.token is not None and other.token.encode() not in frame
    for msg in client.received:
        for _, key, _ in walk(msg):
            assert key not in {"deck", "starts", "token_hash", "password"}
            if key == "token":
                assert msg["t"] == "welcome"


@pytest.mark.parametrize(("game", "seats"), [("serengeti", 4), ("artsociety", 3)])
async def test_a_whole_game_with_bots_on_real_sockets_keeps_every_secret_S3_A10(
    server, player, tmp_path: pathlib.Path, game: str, seats: int
):
    """A human (playing by `act`) and bots play a whole game; a spectator and a second
    human's window see it all; every frame is scanned for what they may not know."""
    ann = await player("Ann")
    bob = await player("Bob")
    spy = await player("Spy")
    room = await create(ann, game, seats, options={"takeover_s": 0})
    await bob.send("join", room=room)
    await bob.expect("joined")
    for _ in range(seats - 2):
        await ann.send("add_bot", level="random")
    await spy.send("watch", room=room)
    await spy.expect("joined")
    await ann.send("start")
    finals = await asyncio.gather(play_seat(ann, game, 1), play_seat(bob, game, 2))
    final = finals[0]
    assert final["view"]["status"] == "finished"
    assert any(e["type"] == "game_end" for e in final["events"])
    spy_final = await spy.until(lambda u: u["view"]["finished"], timeout=60)
    assert spy_final["seq"] == final["seq"]
    for client in (ann, bob, spy):
        SECRECY[game](client)
        check_common_secrecy(client, [c for c in (ann, bob, spy) if c is not client])
    winners = final["view"]["winners"]
    out = tmp_path / "records"  # `modernart-server export ROOM`, the server running
    assert export_command(server.data_dir, [room], False, out) == 0
    record = load_record((out / f"{room}.json").read_text(encoding="utf-8"))
    assert record.game == game and record.extra["status"] == "finished"
    result = replay(record)
    assert result["ok"] and result["finished"] and result["winners"] == winners
    rid = await ann.send("history")
    history = await ann.expect_reply(rid)
    assert any(e["type"] == "game_end" for e in history["events"])


async def test_an_act_outside_the_games_vocabulary_is_a_bad_message(player):
    """Serengeti has no `play` nor `close`; a bid's amount must be an integer (S6)."""
    ann, _ = await bot_table(player, "serengeti", first_auctioneer=1)
    for action in (
        {"type": "play", "card": "LM1"},
        {"type": "close"},
        {"type": "bid", "amount": "ten"},
        {"type": "bid"},
    ):
        await ann.act(**action)
        await ann.expect_error("bad_message")


async def test_art_society_fields_of_odd_shapes_are_bad_messages_A13(player):
    ann, _ = await bot_table(player, "artsociety")
    for action in (
        {"type": "place", "tile": "start", "cell": {"x": 1}},
        {"type": "place", "tile": "start", "cell": "A" * 41},
        {"type": "shapes", "shapes": ["1x1"] * 17},
    ):
        await ann.act(**action)
        await ann.expect_error("bad_message")
    await ann.act(type="place", tile="start", cell="Z99")  # well formed: the engine says
    error = await ann.expect("error")
    assert error["code"] == "illegal"


# ------------------------------------------------------------------- turn timeouts


@pytest.mark.parametrize(
    ("game", "default"), [("modernart", "played"), ("serengeti", "pass"), ("artsociety", "placed")]
)
async def test_a_turn_timeout_takes_the_games_default_action(player, game: str, default: str):
    """The seat that does not decide in `turn_timeout_s` gets its game's timeout action:
    Modern Art plays a card, Serengeti passes (S8), Art Society places (A7)."""
    ann, _ = await bot_table(player, game, turn_timeout_s=1, first_auctioneer=0)
    update = await ann.until(lambda u: any(e["type"] == "timeout" for e in u["events"]), timeout=20)
    events = update["events"]
    assert events[0] == {"type": "timeout", "seat": 0}
    assert events[1]["type"] == default and events[1]["seat"] == 0


@pytest.mark.parametrize(
    ("game", "move"), [("serengeti", {"bid", "pass"}), ("artsociety", {"placed"})]
)
async def test_an_absent_players_seat_is_played_by_the_games_bot_until_they_return(
    player, url, game: str, move: set[str]
):
    ann, bob = await player("Ann"), await player("Bob")
    room = await create(ann, game, 3, options={"takeover_s": 1, "first_auctioneer": 0})
    await bob.send("join", room=room)
    await bob.expect("joined")
    await ann.send("add_bot", level="random")
    await ann.send("start")
    await ann.next_update()
    await ann.close()  # seat 0 is to act first
    update = await bob.until(lambda u: {"type": "autopilot", "seat": 0} in u["events"])
    assert update["view"]["seats"][0]["autopilot"] is True
    moved = await bob.until(
        lambda u: any(e["type"] in move and e.get("seat") == 0 for e in u["events"])
    )
    assert not moved["view"]["finished"]
    back = await Client.hello(url, "Ann", ann.token)
    resync = await back.next_update()
    assert resync["view"]["seats"][0]["autopilot"] is False
    await back.close()


# ------------------------------------------------------------------------ restart


def game_events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The game's own events, without the room's presence and clock events."""
    presence = {"connected", "disconnected", "left", "autopilot", "timeout", "stand_in", "watching"}
    return [e for e in events if e["type"] not in presence]


def comparable(view: dict[str, Any]) -> dict[str, Any]:
    """A view without what legitimately changes across a restart (presence, clocks)."""
    out = {k: v for k, v in view.items() if k != "deadline_ms"}
    out["seats"] = [{k: v for k, v in s.items() if k != "connected"} for s in view["seats"]]
    return out


@pytest.mark.parametrize("game", OTHER_GAMES)
async def test_a_restart_mid_game_restores_the_game(tmp_path: pathlib.Path, game: str):
    """Stopped while the game waits for the human, restarted: the same view, the same
    room (its game named), and the game plays on to its end."""
    server = Server(tmp_path, port=0, dev=True)
    await server.start()
    url = f"ws://127.0.0.1:{server.port}/"
    ann = await Client.hello(url, "Ann")
    room = await create(ann, game, 3, options={"takeover_s": 0})
    for _ in range(2):
        await ann.send("add_bot", level="random")
    await ann.send("start")
    bot = get_game(game).make_bot("heuristic", 4)
    acted = 0
    while True:  # a few moves of ours, then wait for a moment only we can move
        view = (await ann.next_update())["view"]
        newer = await ann.drain(0.05)
        if newer:
            ann.buffer.extend(newer)
            continue
        if view["to_act"] == [0]:
            if acted >= 3:
                break
            await ann.act(**bot.choose(view))
            acted += 1
    before = ann.view
    assert before is not None and not before["finished"]
    await server.stop()
    with pytest.raises(ConnectionClosed):
        while True:
            await ann.recv(5)

    server = Server(tmp_path, port=0, dev=True)
    await server.start()
    try:
        url = f"ws://127.0.0.1:{server.port}/"
        again = await Client.hello(url, "Ann", ann.token)
        assert (await again.expect("joined")) == {"t": "joined", "room": room, "seat": 0}
        assert (await again.expect("room"))["room"]["game"] == game
        resync = await again.next_update()
        assert comparable(resync["view"]) == comparable(before)
        # A replay keeps its log as a list (engine/records.py); a game the server keeps
        # running packs it again (issue 21's memory).
        assert isinstance(server.hub.rooms[room].game.actions, ActionLog)
        rid = await again.send("history")  # rebuilt from the record: the game's events
        history = (await again.expect_reply(rid))["events"]
        live = [e for m in ann.received if m["t"] == "update" for e in m["events"]]
        assert game_events(history) == game_events(live) != []
        final = await play_seat(again, game, 5)
        assert final["view"]["finished"]
        await again.close()
    finally:
        await server.stop()


async def test_a_room_stored_before_games_had_names_is_modern_art(
    tmp_path: pathlib.Path, store_url: str | None
):
    """Settings and headers stored without `game` (before issue 9) are Modern Art's."""
    store = open_store(tmp_path, store_url)
    store.add_identity("id-ann", "Ann", "token-of-ann")
    store.mark_seated("id-ann")
    options = {"shout_window_ms": 3000, "turn_timeout_s": 0, "bot_delay_ms": 0, "takeover_s": 0}
    settings = {"seats": 3, "variant": {"double_payment": "split", "virtual_player": False}}
    store.add_room(
        "oldroom1",
        "Old",
        {**settings, "options": options, "password": None},
        {
            "host": 0,
            "seats": [{"identity": "id-ann", "name": "Ann"}, None, None],
        },
    )
    store.close()
    server = Server(tmp_path, port=0, dev=True, store_url=store_url)
    await server.start()
    try:
        ann = await Client.hello(f"ws://127.0.0.1:{server.port}/", "Ann", "token-of-ann")
        assert (await ann.expect("joined"))["room"] == "oldroom1"
        summary = (await ann.expect("room"))["room"]
        assert summary["game"] == "modernart" and summary["name"] == "Old"
        await ann.send("add_bot", level="expert")  # a Modern Art level
        assert (await ann.expect("room"))["room"]["bots"] == [False, True, False]
        await ann.close()
    finally:
        await server.stop()
