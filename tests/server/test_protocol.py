"""Protocol conformance: hello/welcome, every error code, hostile frames, limits."""

from __future__ import annotations

import asyncio
import time

import msgpack
import pytest
from websockets.exceptions import ConnectionClosed

from modernart.server import limits

from .conftest import deck_with
from .wsclient import Client


async def closed_code(client: Client) -> int | None:
    """Read until the server closes; the close code it sent."""
    try:
        while True:
            await client.recv(5)
    except ConnectionClosed as exc:
        return exc.rcvd.code if exc.rcvd else None


async def test_healthz_answers_200(server):
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    await writer.drain()
    status = await reader.readline()
    writer.close()
    assert status.startswith(b"HTTP/1.1 200")


async def test_hello_gets_welcome_and_the_lobby(url):
    client = await Client.open(url)
    rid = await client.send("hello", v=1, name="Ann")
    welcome = await client.expect("welcome")
    assert welcome["re"] == rid and welcome["v"] == 1
    assert isinstance(welcome["you"], str) and isinstance(welcome["token"], str)
    assert len(welcome["token"]) >= 32
    assert isinstance(welcome["server"], str)
    rooms = await client.expect("rooms")
    assert rooms["rooms"] == []
    await client.close()


async def test_token_resumes_the_identity_and_unknown_token_gets_a_new_one(url, player):
    ann = await player("Ann")
    await ann.close()
    again = await player("Ann B", token=ann.token)
    assert again.you == ann.you and again.token == ann.token
    stranger = await player("Bob", token="not-a-token-this-server-issued")
    assert stranger.you != ann.you and stranger.token != "not-a-token-this-server-issued"


async def test_a_second_connection_with_the_token_replaces_the_first(url, player):
    ann = await player("Ann")
    await player("Ann", token=ann.token)
    assert await closed_code(ann) == 4000


@pytest.mark.parametrize(
    "first",
    [
        {"t": "rooms"},
        {"t": "hello", "v": 1},
        {"t": "hello", "v": 1, "name": ""},
        {"t": "hello", "v": 1, "name": "   "},
        {"t": "hello", "v": 1, "name": "x" * 25},
        {"t": "hello", "v": 1, "name": "bell\x07"},
        {"t": "hello", "v": 1, "name": 7},
        {"t": "hello", "v": True, "name": "Ann"},
        {"t": "hello", "v": 1.0, "name": "Ann"},
        {"t": "hello", "v": 1, "name": "Ann", "token": 5},
    ],
)
async def test_anything_but_a_valid_hello_first_is_bad_message_and_closes(url, first):
    client = await Client.open(url)
    await client.send_raw(msgpack.packb(first))
    await client.expect_error("bad_message")
    assert await closed_code(client) == 1008


async def test_wrong_version_gets_version_error(url):
    client = await Client.open(url)
    await client.send("hello", v=2, name="Ann")
    await client.expect_error("version")
    assert await closed_code(client) == 1008


async def test_second_hello_is_not_allowed(player):
    ann = await player("Ann")
    await ann.send("hello", v=1, name="Ann")
    await ann.expect_error("not_allowed")


BAD_FRAMES = [
    "a text frame",
    b"\xc1",  # never-used msgpack byte
    b"\x92\x01",  # truncated array
    msgpack.packb([1, 2, 3]),
    msgpack.packb("hello"),
    msgpack.packb({"type": "rooms"}),
    msgpack.packb({"t": 5}),
    msgpack.packb({"t": "no_such_type"}),
    msgpack.packb({"t": "rooms", "id": "7"}),
    msgpack.packb({"t": "rooms", "id": True}),
    msgpack.packb({"t": "rooms", "id": 1.5}),
    msgpack.packb({"t": "rooms"}) + b"\x00",  # trailing bytes
    msgpack.packb({"t": "create", "seats": True}),
    msgpack.packb({"t": "create", "seats": 3.0}),
    msgpack.packb({"t": "create", "seats": 6}),
    msgpack.packb({"t": "create", "seats": 2}),
    msgpack.packb({"t": "create", "seats": 3, "name": 7}),
    msgpack.packb({"t": "create", "seats": 3, "variant": "nope"}),
    msgpack.packb({"t": "create", "seats": 4, "variant": "classic_3p_virtual"}),
    msgpack.packb({"t": "create", "seats": 3, "variant": {"double_payment": 1}}),
    msgpack.packb({"t": "create", "seats": 3, "options": []}),
    msgpack.packb({"t": "create", "seats": 3, "options": {"shout_window_ms": 99}}),
    msgpack.packb({"t": "create", "seats": 3, "options": {"shout_window_ms": False}}),
    msgpack.packb({"t": "create", "seats": 3, "options": {"frobnicate": 1}}),
    msgpack.packb({"t": "create", "seats": 3, "options": {"deck": ["krypto.open"]}}),
    msgpack.packb({"t": "join"}),
    msgpack.packb({"t": "join", "room": 12}),
    msgpack.packb({"t": "chat", "text": ""}),
    msgpack.packb({"t": "chat", "text": "x" * 301}),
    msgpack.packb({"t": "add_bot", "level": "genius"}),
    msgpack.packb({"t": "act"}),
    msgpack.packb({"t": "act", "action": "bid"}),
    msgpack.packb({"t": "act", "action": {"type": "bid", "amount": True}}),
    msgpack.packb({"t": "act", "action": {"type": "bid", "amount": 2.5}}),
    msgpack.packb({"t": "act", "action": {"type": "bid", "amount": -1}}),
    msgpack.packb({"t": "act", "action": {"type": "bid"}}),
    msgpack.packb({"t": "act", "action": {"type": "play", "card": "picasso.open"}}),
    msgpack.packb({"t": "act", "action": {"type": "play", "card": 3}}),
    msgpack.packb({"t": "act", "action": {"type": "fly"}}),
]


@pytest.mark.parametrize("frame", BAD_FRAMES, ids=range(len(BAD_FRAMES)))
async def test_malformed_frames_get_bad_message_and_change_nothing(server, player, frame):
    ann = await player("Ann")
    await ann.send_raw(frame)
    await ann.expect_error("bad_message")
    rid = await ann.send("rooms")
    reply = await ann.expect("rooms", re=rid)
    assert reply["rooms"] == []  # nothing was created


async def test_error_replies_carry_the_request_id(player):
    ann = await player("Ann")
    await ann.ws.send(msgpack.packb({"t": "join", "id": 41, "room": "nope"}))
    err = await ann.expect_error("no_such_room")
    assert err["re"] == 41 and isinstance(err["message"], str)


async def test_lobby_error_codes(player):
    ann, bob, cy = await player("Ann"), await player("Bob"), await player("Cy")
    await ann.send("start")
    await ann.expect_error("not_allowed")  # not in a room
    await ann.send("create", seats=3, password="sesame")
    room = (await ann.expect("joined"))["room"]
    await ann.send("create", seats=3)
    await ann.expect_error("not_allowed")  # leave first
    await bob.send("join", room=room)
    await bob.expect_error("wrong_password")
    await bob.send("join", room=room, password="wrong")
    await bob.expect_error("wrong_password")
    await bob.send("watch", room=room)
    await bob.expect_error("wrong_password")
    await bob.send("join", room=room, password="sesame")
    await bob.expect("joined", seat=1)
    await bob.send("add_bot")
    await bob.expect_error("not_allowed")  # not the host
    await bob.send("start")
    await bob.expect_error("not_allowed")
    await ann.send("start")
    await ann.expect_error("not_allowed")  # a seat is free
    await ann.send("add_bot")
    await ann.expect("room")
    await ann.send("add_bot")
    await ann.expect_error("room_full")
    await cy.send("join", room=room, password="sesame")
    await cy.expect_error("room_full")
    await cy.send("act", action={"type": "pass"})
    await cy.expect_error("not_allowed")  # not seated
    await bob.send("act", action={"type": "pass"})
    await bob.expect_error("not_allowed")  # no game yet


async def test_game_error_codes_come_from_the_engine(player):
    """R12 too_low, R9 insufficient_funds, R8 not_your_turn and illegal; close is not_allowed."""
    ann, bob, cy = await player("Ann"), await player("Bob"), await player("Cy")
    hand = ["krypto.open"] + ["yoko.sealed"] * 3 + ["lite_metal.open"] * 3
    deck = deck_with(hand + ["christin_p.open"] * 3)
    await ann.send(
        "create", seats=3, options={"deck": deck, "first_auctioneer": 0, "shout_window_ms": 60000}
    )
    room = (await ann.expect("joined"))["room"]
    for c in (bob, cy):
        await c.send("join", room=room)
        await c.expect("joined")
    await ann.send("start")
    await ann.next_update()
    await bob.send("act", action={"type": "play", "card": "yoko.open"})
    await bob.expect_error("not_your_turn")
    await ann.send("act", action={"type": "play", "card": "yoko.open"})
    await ann.expect_error("illegal")  # not in Ann's hand
    await ann.act(type="play", card="krypto.open")
    await bob.until(lambda u: u["view"]["phase"] == "open")
    await bob.act(type="bid", amount=10)
    await cy.until(lambda u: u["view"]["high"] is not None)
    await cy.act(type="bid", amount=10)
    await cy.expect_error("too_low")
    await cy.act(type="bid", amount=101)
    await cy.expect_error("insufficient_funds")
    await cy.send("act", action={"type": "close"})
    await cy.expect_error("not_allowed")
    assert (await cy.drain()) == []  # none of the refusals changed anything


async def test_rate_limit_allows_50_a_second_then_refuses(player):
    ann = await player("Ann")
    await ann.drain()
    for _ in range(60):
        await ann.send("rooms")
    replies = [await ann.recv() for _ in range(60)]
    assert all(r["t"] == "rooms" for r in replies)
    for _ in range(150):
        await ann.send("rooms")
    seen = []
    try:
        while True:
            seen.append(await ann.recv(2))
    except (TimeoutError, ConnectionClosed):
        pass
    assert any(m["t"] == "error" and m["code"] == "rate_limited" for m in seen)


async def test_repeated_abuse_closes_that_connection_only(player):
    ann, bob = await player("Ann"), await player("Bob")
    for _ in range(30):
        await ann.send_raw(b"\xc1")
    assert await closed_code(ann) == 1008
    rid = await bob.send("rooms")
    await bob.expect("rooms", re=rid)


async def test_rate_limit_allows_a_sustained_50_messages_a_second(player, monkeypatch):
    """Three seconds at 50 a second on the buckets' clock, moved 20 ms after each answer:
    each message meets its bucket exactly 20 ms after the one before."""
    now = [time.monotonic()]
    monkeypatch.setattr(limits, "clock", lambda: now[0])
    ann = await player("Ann")
    await ann.drain()
    for _ in range(150):
        reply = await ann.expect_reply(await ann.send("rooms"))
        assert reply["t"] == "rooms", reply
        now[0] += 0.02
