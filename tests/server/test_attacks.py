"""A third attack round (issue 21): one test or more per item the server fixes, on
real sockets (items 4, 5, 6, 8 and 9; item 2 is the client's: tests/tui/
test_markup.py). Different client addresses come from X-Forwarded-For on a
server started with `trust_proxy`, as behind a reverse proxy.
"""

from __future__ import annotations

import asyncio
import fcntl
import logging
import socket
import struct
import termios
import threading
import time
from typing import Any

import msgpack
from websockets.asyncio.client import connect
from websockets.sync.client import connect as connect_sync

from modernart.server import hub
from modernart.server.lobby import pages
from modernart.server.people import identities
from modernart.server.rooms import play
from modernart.server.store.errors import token_hash
from modernart.server.wire.app import Server

from .test_hardening import start_with_bots
from .waiting import eventually
from .wsclient import Client


def conn_of(server: Server, client: Client) -> Any:
    assert server.hub is not None
    return server.hub.identities[client.you].conn


# 4 ------------------------------------------------------------- chat fan-out


async def test_4_spectators_per_room_are_bounded(public):
    _, url = await public(max_spectators=2)
    host = await Client.hello(url, "Host", address="10.4.0.1")
    room = await start_with_bots(host, bot_delay_ms=10_000)
    watchers = [await Client.hello(url, f"W{i}", address=f"10.4.1.{i}") for i in range(3)]
    for w in watchers[:2]:
        await w.send("watch", room=room)
        await w.expect("joined", room=room)
    await watchers[2].send("watch", room=room)
    refused = await watchers[2].expect_error("room_full")
    assert "2 spectators" in refused["message"]
    # A seat freed by a spectator who leaves lets the next one in.
    await watchers[0].send("leave")
    await watchers[0].expect("left")
    await watchers[2].send("watch", room=room)
    await watchers[2].expect("joined", room=room)
    for c in (host, *watchers):
        await c.close()


async def test_4_a_rooms_chat_is_rated_as_a_whole(public):
    """Each member stays within its own chat rate, but the room's lines are bounded
    (each goes to every member): refused politely, nobody is closed."""
    _, url = await public(room_chats_per_s=0.01)  # the room's burst, then nothing
    host = await Client.hello(url, "Host", address="10.4.2.1")
    room = await start_with_bots(host, bot_delay_ms=10_000)
    watchers = [await Client.hello(url, f"W{i}", address=f"10.4.3.{i}") for i in range(4)]
    for w in watchers:
        await w.send("watch", room=room)
        await w.expect("joined", room=room)
    for i in range(4):  # 4 × 4 lines: each member within its burst of 5
        for w in watchers:
            await w.send("chat", text=f"line {i}")
    busy = 0
    for w in watchers:
        busy += sum(
            1
            for m in await w.drain(0.2)
            if m.get("code") == "rate_limited" and "room" in m["message"]
        )
    assert busy == 16 - hub.ROOM_CHAT_BURST
    await host.drain(0.2)
    lines = [m for m in host.received if m["t"] == "chat"]
    assert len(lines) == hub.ROOM_CHAT_BURST
    assert all(w.ws.close_code is None for w in watchers)
    for c in (host, *watchers):
        await c.close()


async def test_4_sends_to_a_closed_socket_are_dropped_quietly(server, url, caplog):
    """A member whose socket just died gets nothing more: no write is tried, so asyncio
    logs no 'socket.send() raised exception' per frame (266 MB of them in the attack)."""
    ann = await Client.hello(url, "Ann")
    conn = conn_of(server, ann)
    caplog.set_level(logging.WARNING)
    conn.ws.transport.abort()  # gone, but websockets has not heard yet (call_soon)
    for _ in range(20):
        conn.send({"t": "chat", "from": "x", "seat": None, "text": "x"})
    await ann.ws.wait_closed()
    assert not [r for r in caplog.records if "socket.send()" in r.getMessage()]


# 5 ---------------------------------------------------------- kernel buffers


def unsent_in_kernel(sock: socket.socket) -> int:
    """Bytes the kernel still holds in a socket's send queue (SIOCOUTQ)."""
    return struct.unpack("i", fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, b"\0" * 4))[0]


async def test_5_what_a_non_reader_has_in_flight_is_bounded_with_the_kernels_share(server, player):
    """740 connections asked for lists without reading: ~2.1 MB each sat in the
    kernel, past the unread limit. The server's send buffer is bounded (SO_SNDBUF),
    so the kernel's share plus the server's own stays small."""
    for i in range(pages.PAGE_SIZE):
        host = await player(f"H{i}")
        await host.send("create", seats=5, name="x" * 40)
        await host.expect("joined")
    lurker = Client(await connect(f"ws://127.0.0.1:{server.port}/", max_size=None))
    await lurker.send("hello", v=1, name="Lurker")
    lurker.you = (await lurker.expect("welcome"))["you"]
    lurker.ws.transport.pause_reading()  # never reads again
    conn = conn_of(server, lurker)
    sock = conn.ws.transport.get_extra_info("socket")
    for _ in range(110):  # each answer a list of 50 rooms (~20 KiB): 2.2 MB asked for
        await lurker.send("rooms")
    await eventually(lambda: conn.messages.tokens < 11)  # all 110 handled
    await eventually(lambda: unsent_in_kernel(sock) > 0)
    in_flight = unsent_in_kernel(sock) + conn.ws.transport.get_write_buffer_size()
    bound = 2 * 64 * 1024 + conn.lobby_backlog + 64 * 1024  # SO_SNDBUF is doubled
    assert in_flight <= bound, (in_flight, bound)
    assert not conn.closed
    lurker.ws.transport.abort()


# 6 ------------------------------------------------- floods within the limits


async def test_6_an_address_over_its_budget_is_read_more_slowly_not_refused(public):
    """Three connections from one address, each within its own rate: together past
    the address's budget, their reading pauses; every request is answered, in
    order, nobody is refused or closed, and another address is served meanwhile."""
    server, url = await public(address_messages_per_s=20)  # a burst of 40
    flood = [await Client.hello(url, f"F{i}", address="10.6.0.1") for i in range(3)]
    other = await Client.hello(url, "Other", address="10.6.0.2")
    for c in flood:
        for _ in range(30):
            await c.send("rooms")
    rid = await other.send("rooms")
    await other.expect("rooms", re=rid)
    for c in flood:
        answers = [await c.expect_reply(rid) for rid in range(2, 32)]  # 1: hello
        assert all(a["t"] == "rooms" for a in answers)
        assert [a["re"] for a in answers] == sorted(a["re"] for a in answers)
        assert not [m for m in c.received if m["t"] == "error"]
        assert c.ws.close_code is None
    assert server.hub.noted["reads paused for an address over its message budget"] >= 1
    for c in (*flood, other):
        await c.close()


async def test_6_the_servers_own_stall_is_not_counted_as_a_clients_burst(public):
    """A client within its rate (4 a second, the limit 5 with a burst of 10) while the
    server's loop is held up for 4 s: the 16 messages that waited meanwhile are read
    at once, but they came in at the client's pace, so none is refused."""
    _, url = await public(messages_per_s=5)
    sent_some = threading.Event()
    answers: list[dict[str, Any]] = []

    def client() -> None:
        with connect_sync(url, additional_headers={"X-Forwarded-For": "10.6.1.1"}) as ws:
            ws.send(msgpack.packb({"t": "hello", "v": 1, "name": "Steady"}))
            for i in range(32):  # 8 s at 4 a second
                ws.send(msgpack.packb({"t": "rooms", "id": i}))
                if i == 4:
                    sent_some.set()
                time.sleep(0.25)  # the client's own pace, in its own thread
            ws.send(msgpack.packb({"t": "sync", "id": 999}))
            while True:
                message = msgpack.unpackb(ws.recv(timeout=30))
                answers.append(message)
                if message.get("re") == 999:
                    return

    loop = asyncio.get_running_loop()
    done = loop.run_in_executor(None, client)
    await loop.run_in_executor(None, sent_some.wait)
    time.sleep(4)  # the server's loop held up (a stand-in for a slow moment)
    await done
    assert not [m for m in answers if m.get("code") == "rate_limited"]
    assert sum(1 for m in answers if m["t"] == "rooms" and "re" in m) == 32


async def test_6_a_message_over_the_rate_is_refused_with_its_re(public):
    """PROTOCOL.md: an error answering a request carries its `re` (a client that waits
    for the answer to a request would otherwise wait for ever)."""
    _, url = await public(messages_per_s=5)  # a burst of 10
    client = await Client.hello(url, "Hasty", address="10.6.2.1")
    refused: list[dict[str, Any]] = []
    while not refused:  # a stall of the server's own is credited: try until one is over
        ids = [await client.send("who") for _ in range(15)]
        answers = [await client.expect_reply(rid) for rid in ids]
        refused = [m for m in answers if m.get("code") == "rate_limited"]
    assert client.ws.close_code is None
    await client.close()


# 8 --------------------------------------------------------- presence history


async def test_8_presence_in_a_rooms_history_is_coalesced(server, url):
    """A player reconnecting again and again (hello with its token) adds one presence
    event per seat to the history between two moves of the game, not two per hello."""
    host = await Client.hello(url, "Host")
    room = await start_with_bots(host, bot_delay_ms=10_000)
    token = host.token
    for _ in range(30):
        again = await Client.hello(url, "Host", token)
        await again.expect("update")
    await again.send("history")
    history = await again.expect("history", room=room)
    run: list[dict[str, Any]] = []  # presence events since the last other event
    for event in history["events"]:
        run = [*run, event] if event["type"] in ("connected", "disconnected") else []
        assert len(run) <= 1, run  # one seat, seat 0: its latest presence only
    assert any(e["type"] == "connected" for e in history["events"])
    assert history["more"] is False and history["upto"] == history["seq"]
    await again.close()


async def test_8_history_answers_are_paged_under_the_frame_limit(server, player, monkeypatch):
    """A long history comes in pages of whole updates (`more`, `upto`): each page
    fits the budget, and the pages together are the whole history."""
    from .test_history import autoplay, seated_table, seen_events

    clients, _ = await seated_table(player, 3)
    await asyncio.gather(*(autoplay(c, seed=60 + i) for i, c in enumerate(clients)))
    monkeypatch.setattr(play, "HISTORY_PAGE", 2000)
    late = clients[0]
    events: list[dict[str, Any]] = []
    since = None
    pages = 0
    while True:
        fields = {} if since is None else {"since": since}
        rid = await late.send("history", **fields)
        page = await late.expect("history", re=rid)
        assert len(late.frames[-1]) < 2000 + 512  # the page's events plus its fields
        events += page["events"]
        pages += 1
        if not page["more"]:
            assert page["upto"] == page["seq"]
            break
        since = page["upto"]
    assert pages > 3
    assert events == seen_events(clients[0])


# 9 ------------------------------------------------------------ identity expiry


async def test_9_identities_expire_in_small_batches_with_the_loop_free_between(server, url):
    """200,000 never-seated identities froze the server for 9 s in one sweep: they
    now go EXPIRY_BATCH at a time, and clients are served between the batches."""
    store = server.store
    count = 3 * identities.EXPIRY_BATCH + 7
    store.db.executemany(
        "INSERT INTO identities (id, name, token_hash, created, seated) VALUES (?, ?, ?, ?, 0)",
        [(f"old{i}", "Old", token_hash(f"t{i}"), 1000.0 + i) for i in range(count)],
    )

    def left() -> int:
        return store.db.execute("SELECT COUNT(*) FROM identities WHERE seated = 0").fetchone()[0]

    server.hub.limits.identity_ttl_hours = 1.0
    server.hub.people.expire()
    assert left() == count - identities.EXPIRY_BATCH  # one batch, then the loop is free
    newcomer = await Client.hello(url, "New")  # served while the expiry goes on
    assert left() > 0
    await eventually(lambda: left() == 1)  # the newcomer, connected, is kept
    assert store.find_identity(newcomer.token) is not None
    await newcomer.close()
