"""Several servers as one (issue 30): processes sharing a PostgreSQL store and a Redis.

Real everything: each server a real `Server` on its own loopback port (in this test's
loop) or a real `modernart-server` process, a real PostgreSQL (tests/server/pgcluster.py)
and a real redis-server (tests/server/rediscluster.py), real WebSocket clients.
"""

from __future__ import annotations

import asyncio
import contextlib
import pathlib
import random
import signal
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from modernart.engine.modernart.cards import FULL_DECK
from modernart.server.cluster.nodes import DEAD_S
from modernart.server.limits import CONNECTIONS, Limits
from modernart.server.people import names
from modernart.server.wire.app import Server

from .pgcluster import Cluster
from .rediscluster import redis_url  # noqa: F401 (a fixture)
from .test_persistence import comparable, expected_money, play_out, start_process
from .wsclient import Client, autoplay, free_port

MakeServer = Callable[..., Awaitable[Server]]


@pytest.fixture
def pg_url(pg_cluster: Cluster) -> str:
    return pg_cluster.database()


@pytest.fixture
async def servers(
    tmp_path: pathlib.Path,
    pg_url: str,
    redis_url: str,  # noqa: F811 (the fixture)
) -> AsyncIterator[MakeServer]:
    """`await servers("a")`: a dev server of the cluster on a free port; all stopped after."""
    started: list[Server] = []

    async def make(name: str, **settings: Any) -> Server:
        """`settings`: more of `Server`'s keyword arguments (limits …)."""
        server = Server(
            tmp_path / name, port=0, dev=True, store_url=pg_url, redis_url=redis_url, **settings
        )
        await server.start()
        started.append(server)
        return server

    yield make
    for server in started:
        await server.stop()


def url(server: Server) -> str:
    return f"ws://127.0.0.1:{server.port}/"


async def listed(client: Client, room: str) -> dict[str, Any]:
    """The room's entry in the client's lobby list, waiting for the pushes until it shows."""
    await client.send("rooms")
    while True:
        msg = await client.expect("rooms")
        entry = next((r for r in msg["rooms"] if r["id"] == room), None)
        if entry is not None:
            return entry


async def across(a: Server, b: Server, guest: str, *, watch: bool = False) -> tuple:
    """Ann (on A) makes a 3-seat room; `guest` (on B) sees it in B's lobby and joins it
    (or watches it). (ann, the guest, the room's id)."""
    ann = await Client.hello(url(a), "Ann")
    other = await Client.hello(url(b), guest)
    await ann.send("create", seats=3)
    room = (await ann.expect("joined"))["room"]
    await listed(other, room)
    await other.send("watch" if watch else "join", room=room)
    assert (await other.expect("joined"))["seat"] == (None if watch else 1)
    return ann, other, room


async def against_two_bots(client: Client) -> tuple[str, dict[str, Any]]:
    """The client makes a 3-seat room, fills it with two random bots and starts it: the
    room's id and the client's first update."""
    await client.send("create", seats=3)
    room = (await client.expect("joined"))["room"]
    await client.send("add_bot", level="random")
    await client.send("add_bot", level="random")
    await client.send("start")
    return room, await client.next_update()


def shouts(client: Client, seat: int) -> list[dict[str, Any]]:
    """The bids of `seat` the client was told of."""
    return [
        e
        for msg in client.received
        if msg["t"] == "update"
        for e in msg.get("events", [])
        if e.get("type") == "bid" and e.get("seat") == seat
    ]


async def test_two_players_on_two_processes_play_one_room_to_its_end_with_shouts(servers):
    a, b = await servers("a"), await servers("b")
    ann = await Client.hello(url(a), "Ann")
    bob = await Client.hello(url(b), "Bob")
    try:
        await ann.send("create", seats=3)
        room = (await ann.expect("joined"))["room"]
        assert room in a.hub.rooms and room not in b.hub.rooms  # the room lives on A
        assert (await listed(bob, room))["seated"] == ["Ann", None, None]  # one lobby
        await bob.send("join", room=room)
        assert (await bob.expect("joined"))["seat"] == 1
        await ann.send("add_bot", level="random")
        await ann.send("start")
        ends = await asyncio.gather(autoplay(ann, seed=1), autoplay(bob, seed=2))
    finally:
        await ann.close()
        await bob.close()
    assert ends[0]["view"]["finished"] and ends[1]["view"]["finished"]
    assert ends[0]["seq"] == ends[1]["seq"]
    assert ends[0]["view"]["seats"] == ends[1]["view"]["seats"]
    # Bob's shouts went from B to the room on A and came back to both of them.
    bobs = shouts(bob, 1)
    assert bobs and shouts(ann, 1) == bobs
    # Bob never received Ann's hand or money (seat_keys travel only to their seat).
    for msg in bob.received:
        if msg["t"] == "update":
            assert msg["view"]["you"] == 1
            assert all("hand" not in s for s in msg["view"]["seats"])


async def test_a_process_killed_mid_auction_its_room_resumes_on_another_nothing_lost(
    tmp_path,
    servers,
    pg_url,
    redis_url,  # noqa: F811 (the fixture)
):
    """R12's open auction under way on process A; A gets SIGKILL. Process B takes the
    room from the store: its players (Bob, Cy on B; Ann back through B with her token)
    are in their seats again with the same view, and the game ends as the engine alone
    plays it. Nobody is ever sent another's hand."""
    deck = list(FULL_DECK)
    random.Random(7).shuffle(deck)
    deck.remove("krypto.open")
    deck.insert(0, "krypto.open")
    port = free_port()
    a = await start_process(port, tmp_path / "a", pg_url, "--redis", redis_url)
    try:
        b = await servers("b")
        ann = await Client.hello(f"ws://127.0.0.1:{port}/", "Ann")
        bob, cy = [await Client.hello(url(b), n) for n in ("Bob", "Cy")]
        options = {"deck": deck, "first_auctioneer": 0, "shout_window_ms": 60000}
        await ann.send("create", seats=3, options=options)
        room = (await ann.expect("joined"))["room"]
        for client in (bob, cy):
            await listed(client, room)
            await client.send("join", room=room)
            await client.expect("joined")
        await ann.send("start")
        await ann.next_update()
        await ann.act(type="play", card="krypto.open")
        await bob.until(lambda u: u["view"]["phase"] == "open")
        await bob.act(type="bid", amount=5)
        before = [await c.until(lambda u: u["view"]["high"] is not None) for c in (ann, bob, cy)]
        assert room not in b.hub.rooms
        a.send_signal(signal.SIGKILL)
        a.wait(10)
        with contextlib.suppress(ConnectionClosed):
            await ann.close()

        ann = await Client.hello(url(b), "Ann", ann.token)
        back = [ann, bob, cy]
        for client, old in zip(back, before, strict=True):
            assert (await client.expect("joined", timeout=30))["seat"] == old["view"]["you"]
            resync = await client.next_update()
            assert resync["seq"] >= old["seq"]
            assert comparable(resync["view"]) == comparable(old["view"])
        assert room in b.hub.rooms
        final = await play_out(back)
    finally:
        if a.poll() is None:
            a.kill()
            a.wait()
    money = next(e for e in final["events"] if e["type"] == "game_end")["money"]
    assert money == expected_money(deck)
    for client in (bob, cy):
        for msg in client.received:
            if msg["t"] == "update":
                assert all("hand" not in s for s in msg["view"]["seats"])


async def first_answer(client: Client) -> dict[str, Any]:
    """The first message a client gets: `welcome` or an `error`."""
    return await client.recv()


async def test_one_name_one_player_across_processes_however_hellos_race(
    tmp_path,
    pg_url,
    redis_url,  # noqa: F811 (the fixture)
):
    """Two real processes; each new name said in a hello to both at the same moment:
    exactly one of the two is welcomed, the other refused `name_taken` (never an
    internal error), however the two processes' checks and inserts interleave."""
    ports = [free_port(), free_port()]
    procs = [
        await start_process(port, tmp_path / str(port), pg_url, "--redis", redis_url)
        for port in ports
    ]
    try:
        for i in range(12):
            name = f"Racer{i}"
            clients = [await Client.open(f"ws://127.0.0.1:{port}/") for port in ports]
            await asyncio.gather(*(c.send("hello", v=1, name=name) for c in clients))
            answers = await asyncio.gather(*(first_answer(c) for c in clients))
            kinds = sorted(a["t"] if a["t"] == "welcome" else a["code"] for a in answers)
            assert kinds == ["name_taken", "welcome"], answers
            for client in clients:
                with contextlib.suppress(ConnectionClosed):
                    await client.close()
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()


async def test_a_name_taken_in_another_process_after_the_check_is_refused_as_taken(servers):
    """The race's narrow window made certain: B checks that "Zoe" is free, A's hello
    for "Zoe" is stored just then, and B's insert then fails on the store's unique
    key: B answers `name_taken` with a free name like it, not `internal`."""
    a, b = await servers("a"), await servers("b")
    check = b.hub.players.taken

    def taken_then_taken_elsewhere(name: str, identity_id: str | None) -> bool:
        free = not check(name, identity_id)
        if free and name == "Zoe":
            a.hub.players.add_identity("u0000000000a", "Zoe", "a-token")  # A's hello lands
        return not free

    b.hub.players.taken = taken_then_taken_elsewhere  # type: ignore[method-assign]
    client = await Client.open(url(b))
    try:
        await client.send("hello", v=1, name="Zoe")
        answer = await client.recv()
    finally:
        with contextlib.suppress(ConnectionClosed):
            await client.close()
    assert answer["t"] == "error" and answer["code"] == "name_taken", answer
    assert b.hub.store.name_holder(names.name_keys("Zoe"), besides=None) == "u0000000000a"


async def test_limits_per_address_hold_across_processes(servers):
    """One address, two processes: its waiting rooms and its connections are counted
    together (each process adds what the others' beats count)."""
    limits = Limits.for_dev().replace(waiting_rooms_per_address=1)
    a = await servers("a", limits=limits, max_per_address=3)
    b = await servers("b", limits=limits, max_per_address=3)
    heard = asyncio.Event()
    a.hub.cluster.nodes.on_rooms = lambda node, beat: heard.set()
    ann = await Client.hello(url(a), "Ann")
    bob, cy = [await Client.hello(url(b), n) for n in ("Bob", "Cy")]
    try:
        await ann.send("create", seats=3)
        room = (await ann.expect("joined"))["room"]
        await listed(bob, room)  # B has heard A's beat, which counts Ann's waiting room
        await bob.send("create", seats=3)
        refused = await bob.expect("error")
        assert refused["code"] == "limit_reached" and "waiting" in refused["message"]
        await cy.send("join", room=room)  # joining is no new waiting room
        await cy.expect("joined")

        while a.hub.elsewhere(CONNECTIONS, "127.0.0.1") < 2:  # B's beat: Bob and Cy
            heard.clear()
            await heard.wait()
        with pytest.raises(InvalidStatus) as refusal:  # Ann, Bob, Cy: 3 from one address
            await Client.open(url(a))
        assert refusal.value.response.status_code == 429
    finally:
        for client in (ann, bob, cy):
            await client.close()


async def test_a_spectator_on_another_process_watches_chats_and_leaves_to_the_one_lobby(
    servers,
):
    """Watch, chat, errors and leave cross processes like a seat's messages: Cy (on B)
    watches Ann's room (on A), both hear each other's chat, an error for Cy's bad request
    comes back to Cy, and after `leave` Cy is in B's lobby, whose list holds the room."""
    ann, cy, room = await across(await servers("a"), await servers("b"), "Cy", watch=True)
    try:
        await cy.send("chat", text="good luck")
        for client in (ann, cy):
            line = await client.expect("chat")
            assert line == {"t": "chat", "from": "Cy", "seat": None, "text": "good luck"}
        await ann.send("chat", text="thanks")
        assert (await cy.expect("chat"))["text"] == "thanks"
        await cy.send("start")  # only the host may start: refused by A, answered to Cy
        assert (await cy.expect("error"))["code"] == "not_allowed"
        await cy.send("leave")
        assert (await cy.expect("left"))["room"] == room
        assert (await listed(cy, room))["spectators"] == 0
    finally:
        await ann.close()
        await cy.close()


async def test_a_process_stopping_gracefully_hands_its_rooms_over_at_once(servers, caplog):
    """SIGTERM's stop says goodbye: B takes Ann's running game (on A) from the store
    without waiting for A's silence, and Bob (on B) is seated again and plays on."""
    a, b = await servers("a"), await servers("b")
    ann, bob, room = await across(a, b, "Bob")
    try:
        await ann.send("add_bot", level="random")
        await ann.send("start")
        before = await bob.next_update()
        await a.stop()
        assert (await bob.expect("joined"))["seat"] == 1
        assert not [r for r in caplog.records if "is silent" in r.getMessage()]  # A's goodbye
        resumed = await bob.next_update()
        assert room in b.hub.rooms
        assert resumed["view"]["hand"] == before["view"]["hand"]
        assert resumed["seq"] >= before["seq"]
    finally:
        await bob.close()


async def test_a_process_taken_for_dead_gives_its_room_up_and_its_players_return(servers):
    """A's loop stalls past the silence limit: B takes Ann's room (as `kill -9` would
    have it). A's next renewal finds B's name on the room: A drops its copy (two would
    diverge) and closes its players' sockets (1012); Ann, back on A, is seated in the
    room on B."""
    a, b = await servers("a"), await servers("b")
    ann = await Client.hello(url(a), "Ann")
    try:
        room, before = await against_two_bots(ann)
        nodes, heard = b.hub.cluster.nodes, asyncio.Event()
        on_rooms = nodes.on_rooms
        nodes.on_rooms = lambda node, beat: (on_rooms(node, beat), heard.set())
        while nodes.owner_of(room) != a.hub.cluster.node:  # B hears A's beat with the room
            heard.clear()
            await heard.wait()
        nodes._gone(a.hub.cluster.node)  # what A's silence makes B do
        await asyncio.gather(*b.hub.cluster._tasks)  # B claims and restores the room
        assert room in b.hub.rooms
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await ann.recv()  # until A's next beat renews, finds B's name, closes
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        assert room not in a.hub.rooms
        again = await Client.hello(url(a), "Ann", ann.token)
        assert (await again.expect("joined"))["seat"] == 0
        resumed = await again.next_update()
        assert resumed["view"]["hand"] == before["view"]["hand"]  # only her own plays change it
        await again.close()
    finally:
        with contextlib.suppress(ConnectionClosed):
            await ann.close()


async def test_a_stalled_loop_judges_nobody_dead_when_it_wakes(servers, caplog):
    """Both processes' loop (this test's) held up past the silence limit, as a loaded
    machine can: when it runs again, B's late beat knows it was asleep itself and does
    not take A for dead (which would move A's rooms for nothing)."""
    a, b = await servers("a"), await servers("b")
    ann = await Client.hello(url(a), "Ann")
    try:
        await ann.send("create", seats=3)
        room = (await ann.expect("joined"))["room"]
        nodes, heard = b.hub.cluster.nodes, asyncio.Event()
        on_rooms = nodes.on_rooms
        nodes.on_rooms = lambda node, beat: (on_rooms(node, beat), heard.set())
        while nodes.owner_of(room) != a.hub.cluster.node:
            heard.clear()
            await heard.wait()
        time.sleep(DEAD_S + 0.5)  # the stall itself (not a wait): the loop runs nothing
        for _ in range(3):  # three of A's beats heard by B after the stall
            heard.clear()
            await heard.wait()
        assert nodes.owner_of(room) == a.hub.cluster.node and room not in b.hub.rooms
        assert not [r for r in caplog.records if "is silent" in r.getMessage()]
    finally:
        await ann.close()


async def test_a_player_reconnecting_through_another_socket_keeps_the_seat_connected(servers):
    """Bob (on B) in a game on A opens a new connection with his token: B replaces the old
    one (4000) and sends the new one back to his seat. When the old socket's end reaches
    A, after the new one took the seat, the seat stays connected."""
    a, b = await servers("a"), await servers("b")
    ann, bob, _ = await across(a, b, "Bob")
    gone = asyncio.Event()
    released = b.hub.cluster.released
    b.hub.cluster.released = lambda conn: (released(conn), gone.set())
    try:
        await ann.send("add_bot", level="random")
        await ann.send("start")
        await bob.next_update()
        again = await Client.hello(url(b), "Bob", bob.token)
        assert (await again.expect("joined"))["seat"] == 1
        await again.next_update()
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await bob.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4000
        await gone.wait()  # B let the old socket go (its "gone" is on its way to A)
        rid = await again.send("sync")  # after that "gone", in order
        view = (await again.expect_reply(rid))["view"]
        assert view["seats"][1]["connected"] is True
        await again.close()
    finally:
        await ann.close()


async def test_a_player_who_left_a_running_game_is_not_sent_back_to_it_by_another_process(
    servers,
):
    """On one server a player who left a running game (`leave`) says hello again into the
    lobby, not the seat: across processes too, the room's beats stop naming him seated."""
    a, b = await servers("a"), await servers("b")
    ann, bob, room = await across(a, b, "Bob")
    nodes, heard = b.hub.cluster.nodes, asyncio.Event()
    on_rooms = nodes.on_rooms
    nodes.on_rooms = lambda node, beat: (on_rooms(node, beat), heard.set())
    try:
        await ann.send("add_bot", level="random")
        await ann.send("start")
        await bob.next_update()
        while nodes.seat_of(bob.you) is None:  # A's beats name Bob seated in the game
            heard.clear()
            await heard.wait()
        assert nodes.seat_of(bob.you) == (a.hub.cluster.node, room)
        await bob.send("leave")
        await bob.expect("left")
        for _ in range(5):  # A's beats after the leave (the first may have left before it)
            if nodes.seat_of(bob.you) is None:
                break
            heard.clear()
            await heard.wait()
        assert nodes.seat_of(bob.you) is None
        again = await Client.hello(url(b), "Bob", bob.token)
        rid = await again.send("sync")
        assert (await again.expect_reply(rid))["code"] == "not_allowed"  # in the lobby
        await again.close()
    finally:
        await ann.close()
        await bob.close()
