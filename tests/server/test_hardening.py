"""A hostile internet (issue 7): one test (or more) per item, on real sockets.

Different client addresses come from X-Forwarded-For on a server started with
`trust_proxy`, as behind a reverse proxy.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import pathlib
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from typing import Any

import msgpack
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus
from websockets.frames import Frame, Opcode

from modernart.server.limits import NEW_IDENTITIES_BURST, PASSWORD_TRIES, Limits
from modernart.server.lobby import pages
from modernart.server.rooms.room import Room

from .waiting import eventually
from .wsclient import Client


async def start_with_bots(host: Client, **options: Any) -> str:
    await host.send("create", seats=3, options=options)
    room = (await host.expect("joined"))["room"]
    await host.send("add_bot")
    await host.send("add_bot")
    await host.send("start")
    update = await host.expect("update")
    assert update["view"]["status"] == "playing"
    return room


# 1 ------------------------------------------------------------- the room list


async def test_1_room_list_is_paged_newest_first_and_built_once_per_change(
    server, player, monkeypatch
):
    page = pages.PAGE_SIZE
    ids = []
    for i in range(page + 5):
        host = await player(f"H{i}")
        await host.send("create", seats=3)
        ids.append((await host.expect("joined"))["room"])
    newest_first = ids[::-1]
    ann = await player("Ann")
    pushed = await ann.expect("rooms")  # on entering the lobby: the first page
    assert len(pushed["rooms"]) == page

    rid = await ann.send("rooms")
    first = await ann.expect("rooms", re=rid)
    assert [r["id"] for r in first["rooms"]] == newest_first[:page]
    assert (first["more"], first["waiting"], first["playing"]) == (5, page + 5, 0)
    rid = await ann.send("rooms", page=1)
    second = await ann.expect("rooms", re=rid)
    assert [r["id"] for r in second["rooms"]] == newest_first[page:]
    assert second["more"] == 0
    rid = await ann.send("rooms", status="playing")
    assert (await ann.expect("rooms", re=rid))["rooms"] == []

    # With no change, asking again and again never builds the list again.
    monkeypatch.setattr(pages, "MAX_AGE", 3600.0)
    built = 0
    summary = Room.summary

    def counting(room: Room) -> dict[str, Any]:
        nonlocal built
        built += 1
        return summary(room)

    monkeypatch.setattr(Room, "summary", counting)
    server.hub.rooms_changed()
    for _ in range(20):
        rid = await ann.send("rooms")
        assert len((await ann.expect("rooms", re=rid))["rooms"]) == page
    assert built == page


async def test_1_a_client_that_does_not_read_gets_no_more_room_lists(server, player):
    """Its unread output stays bounded (lists stop once an eighth of the unread limit
    waits), instead of a copy of the list per request piling up in the server."""
    for i in range(pages.PAGE_SIZE):
        host = await player(f"H{i}")
        await host.send("create", seats=5, name="x" * 40)
        await host.expect("joined")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # no room in the kernel
    sock.connect(("127.0.0.1", server.port))
    lurker = Client(await connect(f"ws://127.0.0.1:{server.port}/", sock=sock, max_size=None))
    await lurker.send("hello", v=1, name="Lurker")
    lurker.you = (await lurker.expect("welcome"))["you"]
    lurker.ws.transport.pause_reading()  # never reads again
    conn = server.hub.identities[lurker.you].conn
    # Small kernel buffers on both ends, as on a slow link: what is not read
    # soon waits in the server's own memory.
    server_sock = conn.ws.transport.get_extra_info("socket")
    server_sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    handled = 0
    handle = server.hub.handle

    def counting(c: Any, frame: object, within_rate: bool) -> None:
        nonlocal handled
        handled += c is conn
        handle(c, frame, within_rate)

    server.hub.handle = counting
    for _ in range(100):  # each answer would be a list of 50 rooms (~20 KiB)
        await lurker.send("rooms")
    await eventually(lambda: handled == 100)
    unread = conn.ws.transport.get_write_buffer_size()
    assert unread <= conn.lobby_backlog + 64 * 1024
    assert not conn.closed  # bounded, not dropped: it may read and ask again
    lurker.ws.transport.abort()


# 2 ---------------------------------------------------------- rooms per address


async def test_2_waiting_rooms_per_address_are_limited(public):
    _, url = await public(waiting_rooms_per_address=2)
    first, second, third = [await Client.hello(url, n, address="10.0.0.1") for n in "ABC"]
    other = await Client.hello(url, "D", address="10.0.0.2")
    for client in (first, second):
        await client.send("create", seats=3)
        await client.expect("joined")
    await third.send("create", seats=3)
    refused = await third.expect_error("limit_reached")
    assert "waiting" in refused["message"]
    await other.send("create", seats=3)
    await other.expect("joined")
    await first.send("leave")  # its room goes: room for another
    await first.expect("left")
    await third.send("create", seats=3)
    await third.expect("joined")
    for client in (first, second, third, other):
        await client.close()


# 3 -------------------------------------------------- message size, connections


async def test_3_an_unfinished_fragmented_message_is_refused_once_past_64_KiB(url):
    client = await Client.hello(url, "Mallory")
    never = asyncio.Event()

    async def fragments() -> AsyncIterator[bytes]:
        for _ in range(5):  # 80 KiB, then nothing more: the message never ends
            yield b"x" * 16384
        await never.wait()

    sending = asyncio.create_task(client.ws.send(fragments()))
    refused = await client.expect_error("bad_message")
    assert "65536" in refused["message"]
    await client.ws.wait_closed()
    assert client.ws.close_code == 1009
    never.set()
    with contextlib.suppress(Exception):
        await sending


async def test_3_a_frame_over_64_KiB_gets_bad_message_then_1009(url):
    client = await Client.hello(url, "Ann")
    await client.send_raw(msgpack.packb({"t": "rooms", "pad": "x" * (64 * 1024)}))
    await client.expect_error("bad_message")
    await client.ws.wait_closed()
    assert client.ws.close_code == 1009


async def test_3_connections_are_capped_in_all(public):
    server, url = await public(max_connections=2)
    first = await Client.hello(url, "A", address="10.0.0.1")
    second = await Client.hello(url, "B", address="10.0.0.2")
    with pytest.raises(InvalidStatus) as refused:
        await Client.open(url, address="10.0.0.3")
    assert refused.value.response.status_code == 503
    await first.close()
    await eventually(lambda: len(server.hub.conns) < 2)
    third = await Client.hello(url, "C", address="10.0.0.3")
    await second.close()
    await third.close()


# 4 ------------------------------------------------------------------ bot farms


@pytest.mark.parametrize("options", [{"bot_delay_ms": 0}, {"takeover_s": 1}])
async def test_4_a_public_server_refuses_instant_bots_and_takeovers(public, options):
    _, url = await public()
    ann = await Client.hello(url, "Ann")
    await ann.send("create", seats=3, options=options)
    refused = await ann.expect_error("bad_message")
    assert "at least" in refused["message"]
    await ann.send("create", seats=3, options={"bot_delay_ms": 500, "takeover_s": 0})
    await ann.expect("joined")
    await ann.close()


async def test_4_a_game_with_no_player_connected_stops_until_one_returns(public):
    server, url = await public()
    ann = await Client.hello(url, "Ann")
    room_id = await start_with_bots(ann, bot_delay_ms=500)
    room = server.hub.rooms[room_id]
    await ann.close()
    await eventually(lambda: room.paused)
    assert all(s.pending is None and s.takeover is None for s in room.seats if s)
    assert room._hammer == [] and room._turn_clock is None  # no clock runs either

    ann = await Client.hello(url, "Ann", ann.token)
    await ann.expect("joined", room=room_id)
    resumed = await ann.next_update()
    assert not room.paused and resumed["view"]["status"] == "playing"
    assert room._hammer or room._turn_clock is not None  # the clocks run again
    await ann.close()


async def test_4_running_games_per_address_and_per_identity_are_limited(public):
    _, url = await public(games_per_address=1, games_per_identity=1)
    ann = await Client.hello(url, "Ann", address="10.0.0.1")
    bob = await Client.hello(url, "Bob", address="10.0.0.1")
    cy = await Client.hello(url, "Cy", address="10.0.0.2")
    await start_with_bots(ann)
    await bob.send("create", seats=3)
    await bob.expect("joined")
    await bob.send("add_bot")
    await bob.send("add_bot")
    await bob.send("start")
    assert "address" in (await bob.expect_error("limit_reached"))["message"]
    await start_with_bots(cy)  # another address
    await cy.send("leave")  # the seat stays: cy still plays that game
    await cy.expect("left")
    await cy.send("create", seats=3)
    await cy.expect("joined")
    await cy.send("add_bot")
    await cy.send("add_bot")
    await cy.send("start")
    assert "running games" in (await cy.expect_error("limit_reached"))["message"]
    for client in (ann, bob, cy):
        await client.close()


# 6 ----------------------------------------------------------- ghost spectators


async def test_6_a_player_who_watches_then_rejoins_is_only_seated(server, player):
    ann = await player("Ann")
    room_id = await start_with_bots(ann, takeover_s=0)
    room = server.hub.rooms[room_id]
    for _ in range(3):
        await ann.send("leave")
        await ann.expect("left")
        await ann.send("watch", room=room_id)
        await ann.expect("joined", seat=None)
        await ann.send("join", room=room_id)
        await ann.expect("joined", seat=0)
        assert room.spectators == set()
    await ann.send("leave")
    await ann.expect("left")
    assert room.spectators == set() and all(c is not ann for c, _ in room.members())
    assert room.summary()["spectators"] == 0


# 7 ------------------------------------------------------------------ passwords


async def test_7_wrong_passwords_back_off_per_address_and_per_room(public):
    _, url = await public()
    ann = await Client.hello(url, "Ann", address="10.0.0.1")
    await ann.send("create", seats=4, password="1234")
    room = (await ann.expect("joined"))["room"]
    mallory = await Client.hello(url, "Mal", address="10.6.6.6")
    for guess in range(PASSWORD_TRIES):
        await mallory.send("join", room=room, password=f"{guess:04d}")
        await mallory.expect_error("wrong_password")
    await mallory.send("join", room=room, password="1234")  # right, but too late
    assert "wrong passwords" in (await mallory.expect_error("rate_limited"))["message"]
    # The room is guarded whatever the address …
    eve = await Client.hello(url, "Eve", address="10.7.7.7")
    await eve.send("join", room=room, password="1234")
    await eve.expect_error("rate_limited")
    # … and the address whatever the room.
    bob = await Client.hello(url, "Bob", address="10.0.0.2")
    await bob.send("create", seats=3, password="9999")
    other = (await bob.expect("joined"))["room"]
    await mallory.send("watch", room=other, password="0000")
    await mallory.expect_error("rate_limited")
    await eve.send("watch", room=other, password="0000")
    await eve.expect_error("wrong_password")  # a fresh address, a fresh room
    for client in (ann, mallory, eve, bob):
        await client.close()


# 8 ----------------------------------------------------- malformed input, fuzzed


async def test_8_a_variant_with_a_non_string_key_is_bad_message(player, caplog):
    ann = await player("Ann")
    await ann.send("create", seats=3, variant={1: 1, "a": 2})
    await ann.expect_error("bad_message")
    assert [r for r in caplog.records if r.exc_info] == []


HOSTILE = [
    None,
    True,
    -1,
    0,
    2**63,
    1.5,
    "",
    "x" * 5000,
    "\x00\x07",
    b"\xff",
    [],
    [1, "a", None],
    {},
    {1: 1, "a": 2},
    {"type": {1: 2}},
    {"double_payment": [], "virtual_player": "yes"},
]
FUZZED_FIELDS = [
    "id",
    "v",
    "name",
    "token",
    "seats",
    "variant",
    "password",
    "options",
    "room",
    "level",
    "text",
    "action",
    "page",
    "status",
    "since",
]
BASELINE: dict[str, dict[str, Any]] = {
    "rooms": {},
    "create": {"seats": 3},
    "join": {"room": "r"},
    "watch": {"room": "r"},
    "leave": {},
    "add_bot": {},
    "start": {},
    "chat": {"text": "hi"},
    "act": {"action": {"type": "pass"}},
    "sync": {},
    "history": {},
    "hello": {"v": 1, "name": "Ann"},
}


async def test_8_no_field_of_any_message_makes_a_handler_fail(server, player, caplog):
    """Every message type with every field set to hostile values, in the lobby, in a
    waiting room and in a running game: never `internal`, never a traceback."""
    ann = await player("Ann")
    conn = server.hub.identities[ann.you].conn
    unlimited = type(conn.messages)(10**9, 10**9)
    conn.messages = conn.abuse = conn.chats = unlimited
    cases = itertools.product(BASELINE, FUZZED_FIELDS, HOSTILE)
    for i, (kind, field, value) in enumerate(cases):
        await ann.send_raw(msgpack.packb({"t": kind, **BASELINE[kind], field: value}))
        if i % 100 == 99:  # read as we go, as a client does
            rid = await ann.send("sync")
            await ann.expect_reply(rid)
    await ann.send("create", seats=3)  # wherever the fuzzing left it, play a game too
    await ann.send("add_bot")
    await ann.send("add_bot")
    await ann.send("start")
    for value in HOSTILE:
        await ann.send_raw(msgpack.packb({"t": "act", "action": {"type": "bid", "amount": value}}))
        await ann.send_raw(msgpack.packb({"t": "act", "action": {"type": "play", "card": value}}))
        await ann.send_raw(msgpack.packb({"t": "act", "action": value}))
    rid = await ann.send("rooms")
    await ann.expect("rooms", re=rid)
    answers = ann.received
    assert [a for a in answers if a.get("code") == "internal"] == []
    assert any(a.get("code") == "bad_message" for a in answers)
    assert [r for r in caplog.records if r.exc_info] == []


# 9 ----------------------------------------------------------------- identities


async def test_9_new_identities_per_address_are_limited(public):
    _, url = await public(new_identities_per_hour=1)
    tokens = []
    for i in range(NEW_IDENTITIES_BURST):
        client = await Client.hello(url, f"N{i}", address="10.0.0.1")
        tokens.append(client.token)
        await client.close()
    late = await Client.open(url, address="10.0.0.1")
    await late.send("hello", v=1, name="Late")
    refused = await late.expect_error("rate_limited")
    assert "identities" in refused["message"]
    await late.ws.wait_closed()
    assert late.ws.close_code == 1008
    back = await Client.hello(url, "N0", tokens[0], address="10.0.0.1")  # a known token
    elsewhere = await Client.hello(url, "Far", address="10.0.0.2")
    await back.close()
    await elsewhere.close()


async def test_9_identities_that_never_sat_expire(server, url):
    idle = await Client.hello(url, "Idle")
    seated = await Client.hello(url, "Seated")
    await seated.send("create", seats=3)
    await seated.expect("joined")
    here = await Client.hello(url, "Here")  # never sat, but connected: kept
    await idle.close()
    await seated.close()
    await eventually(lambda: server.hub.identities[idle.you].conn is None)
    server.hub.limits.identity_ttl_hours = 1e-9
    server.hub.people.expire()
    again = await Client.hello(url, "Idle", idle.token)
    assert again.you != idle.you  # its token now starts a new identity
    seated_again = await Client.hello(url, "Seated", seated.token)
    assert seated_again.you == seated.you
    assert server.store.find_identity(here.token) is not None
    for client in (again, seated_again, here):
        await client.close()


# 10 ------------------------------------------------------------------------ chat


async def test_10_chatting_too_fast_is_refused_politely_not_closed(player):
    ann = await player("Ann")
    await ann.send("create", seats=3)
    await ann.expect("joined")
    for i in range(40):
        await ann.send("chat", text=f"spam {i}")
    rid = await ann.send("sync")
    await ann.expect("room", re=rid)
    assert sum(1 for m in ann.received if m.get("code") == "rate_limited") >= 30
    assert ann.ws.close_code is None


# 11 ------------------------------------------------- abusive connections' frames


async def test_11_a_connection_closed_for_abuse_is_not_read_any_more(server, url):
    hub = server.hub
    handled = 0
    handle = hub.handle

    def counting(conn: Any, frame: object, within_rate: bool) -> None:
        nonlocal handled
        handled += 1
        handle(conn, frame, within_rate)

    gone = asyncio.Event()
    disconnected = hub.disconnected

    def noting(conn: Any) -> None:
        disconnected(conn)
        gone.set()

    hub.handle, hub.disconnected = counting, noting
    client = await Client.hello(url, "Mallory")
    transport = client.ws.transport
    transport.pause_reading()  # never sees the close frame, never answers it
    text_frame = Frame(Opcode.TEXT, b"x").serialize(mask=True)  # bad_message
    for _ in range(5000):
        transport.write(text_frame)
    await asyncio.wait_for(gone.wait(), 30)
    assert handled <= Limits().bad_messages + 5  # hello, the burst of bad messages, then nothing


# 12 ------------------------------------------------------ the data directory


def run_server(data: pathlib.Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "modernart.server.cli", "--port", "0", "--data", str(data)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def unusable_data_dirs(tmp: pathlib.Path) -> list[pathlib.Path]:
    a_file = tmp / "a-file"
    a_file.write_text("not a directory")
    dir_db = tmp / "db-is-a-dir"
    (dir_db / "modernart.sqlite3").mkdir(parents=True)
    out = [a_file, dir_db]
    if os.geteuid() != 0:  # root writes anywhere
        read_only = tmp / "read-only"
        read_only.mkdir()
        read_only.chmod(0o555)
        out.append(read_only)
    return out


def test_12_an_unusable_data_directory_is_one_clear_line_and_exit_1(tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    for data in unusable_data_dirs(tmp_path):
        done = run_server(data)
        assert done.returncode == 1, done
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
        assert str(data) in lines[0] and lines[0].startswith("modernart-server: ")


# The operator's flags ------------------------------------------------------------


def test_every_limit_has_a_flag_and_dev_lifts_the_per_address_ones():
    from modernart.server.cli import build_parser, limits_of

    args = build_parser().parse_args(
        ["--max-connections", "7", "--password-tries-per-minute", "0.5", "--games-per-address", "0"]
    )
    limits = limits_of(args)
    assert (limits.max_connections, limits.password_tries_per_minute) == (7, 0.5)
    assert limits.games_per_address == 0 and limits.waiting_rooms_per_address == 10
    dev = limits_of(build_parser().parse_args(["--dev", "--games-per-identity", "2"]))
    assert dev.waiting_rooms_per_address == 0 and dev.min_bot_delay_ms == 0
    assert dev.games_per_identity == 2
    flags = build_parser().format_help()
    for name in Limits.__dataclass_fields__:
        assert "--" + name.replace("_", "-") in flags
