"""Lobby flows: the rooms list, create/join/watch/leave, host hand-over, bots, start, chat."""

from __future__ import annotations

import asyncio

from modernart.engine.modernart.bots import BOT_LEVELS
from modernart.server.lobby import roomlist
from modernart.server.wire.app import Server

from .wsclient import Client


async def start_with_bots(host: Client, **create) -> str:
    """A 3-seat room of `host` and two bots, started; its id."""
    await host.send("create", seats=3, **create)
    room = (await host.expect("joined"))["room"]
    await host.send("add_bot")
    await host.send("add_bot")
    await host.send("start")
    await host.next_update()
    return room


async def disconnected(server: Server, *clients: Client) -> None:
    """Wait until the server has let go of these clients' connections."""
    identities = server.hub.identities
    async with asyncio.timeout(10):
        while any(identities[c.you].conn is not None for c in clients):
            await asyncio.sleep(0.01)


async def lobby_rooms(client: Client, predicate) -> list[dict]:
    """Read pushed `rooms` lists until one satisfies `predicate`."""
    while True:
        msg = await client.expect("rooms")
        if predicate(msg["rooms"]):
            return msg["rooms"]


async def test_rooms_list_is_pushed_to_the_lobby_and_hides_the_password(player):
    watcher = await player("Wat")
    await watcher.expect("rooms")
    ann = await player("Ann")
    await ann.send("create", seats=4, name="Ann's den", password="hunter2", variant="japanese")
    joined = await ann.expect("joined", seat=0)
    room_msg = await ann.expect("room")
    assert room_msg["you"] == 0 and room_msg["room"]["host"] == 0
    rooms = await lobby_rooms(watcher, lambda rs: len(rs) == 1)
    summary = rooms[0]
    assert summary["id"] == joined["room"]
    assert summary["name"] == "Ann's den" and summary["seats"] == 4
    assert summary["seated"] == ["Ann", None, None, None]
    assert summary["status"] == "waiting" and summary["locked"] is True
    assert summary["variant"] == {"double_payment": "second_takes_all", "virtual_player": False}
    assert summary["spectators"] == 0
    assert b"hunter2" not in repr(watcher.received).encode()
    assert "password" not in summary


async def test_join_takes_the_lowest_free_seat_and_everyone_sees_it(player):
    ann, bob, cy = await player("Ann"), await player("Bob"), await player("Cy")
    await ann.send("create", seats=3)
    room = (await ann.expect("joined"))["room"]
    await bob.send("join", room=room)
    assert (await bob.expect("joined"))["seat"] == 1
    update = await ann.expect("room", you=0)
    while update["room"]["seated"][1] is None:
        update = await ann.expect("room")
    assert update["room"]["seated"] == ["Ann", "Bob", None]
    await cy.send("watch", room=room)
    assert (await cy.expect("joined"))["seat"] is None
    spect = await cy.expect("room")
    assert spect["you"] is None
    await bob.send("leave")
    await bob.expect("left", room=room)
    await bob.expect("rooms")
    msg = await ann.expect("room")
    while msg["room"]["seated"][1] is not None:
        msg = await ann.expect("room")
    await cy.send("join", room=room)  # a spectator takes the free seat
    assert (await cy.expect("joined"))["seat"] == 1


async def test_host_leaving_hands_on_and_an_empty_room_disappears(player):
    watcher = await player("Wat")
    ann, bob = await player("Ann"), await player("Bob")
    await ann.send("create", seats=3)
    room = (await ann.expect("joined"))["room"]
    await bob.send("join", room=room)
    await bob.expect("joined")
    await ann.send("add_bot")
    await ann.send("leave")
    await ann.expect("left")
    msg = await bob.expect("room")
    while msg["room"]["host"] != 1:
        msg = await bob.expect("room")
    assert msg["room"]["seated"][0] is None
    await bob.send("add_bot")  # Bob is the host now
    msg = await bob.expect("room")
    await bob.send("leave")
    await bob.expect("left")
    await lobby_rooms(watcher, lambda rs: rs == [])


async def test_add_bot_levels_come_from_the_engine_and_start_needs_every_seat(player):
    ann = await player("Ann")
    await ann.send("create", seats=3)
    await ann.expect("joined")
    await ann.send("add_bot", level=BOT_LEVELS[0])
    await ann.expect("room")
    await ann.send("start")
    await ann.expect_error("not_allowed")
    await ann.send("add_bot", level=BOT_LEVELS[-1])
    msg = await ann.expect("room")
    while None in msg["room"]["seated"]:
        msg = await ann.expect("room")
    assert msg["room"]["bots"] == [False, True, True]
    await ann.send("start")
    update = await ann.next_update()
    view = update["view"]
    assert view["status"] == "playing" and view["you"] == 0
    assert [s["bot"] for s in view["seats"]] == [False, True, True]
    assert all(s["connected"] for s in view["seats"])


async def test_chat_reaches_every_member_and_is_rate_limited(player):
    ann, bob, cy = await player("Ann"), await player("Bob"), await player("Cy")
    await ann.send("create", seats=3)
    room = (await ann.expect("joined"))["room"]
    await bob.send("join", room=room)
    await cy.send("watch", room=room)
    await cy.expect("joined")
    await bob.expect("joined")
    await bob.send("chat", text="hello all")
    for c in (ann, bob, cy):
        msg = await c.expect("chat")
        assert msg == {"t": "chat", "from": "Bob", "seat": 1, "text": "hello all"}
    for i in range(8):
        await ann.send("chat", text=f"spam {i}")
    await ann.expect_error("rate_limited")


async def test_chat_outside_a_room_is_not_allowed(player):
    ann = await player("Ann")
    await ann.send("chat", text="anyone?")
    await ann.expect_error("not_allowed")


async def test_dev_options_are_refused_without_dev(tmp_path):
    server = Server(tmp_path, port=0, dev=False)
    await server.start()
    try:
        ann = await Client.hello(f"ws://127.0.0.1:{server.port}/", "Ann")
        await ann.send("create", seats=3, options={"first_auctioneer": 1})
        await ann.expect_error("not_allowed")
        await ann.send("create", seats=3, options={"shout_window_ms": 500})
        room = await ann.expect("room")
        assert room["room"]["options"]["bot_delay_ms"] > 0  # human-like pause by default
        await ann.close()
    finally:
        await server.stop()


async def test_joining_unknown_room_and_rejoining_own_running_seat(player):
    ann = await player("Ann")
    await ann.send("join", room="deadbeef")
    await ann.expect_error("no_such_room")
    room = await start_with_bots(ann, options={"takeover_s": 0})
    await ann.send("leave")
    await ann.expect("left")
    ann.buffer.clear()  # updates sent before the leave
    await ann.send("join", room=room)
    assert (await ann.expect("joined"))["seat"] == 0
    update = await ann.next_update()
    assert update["events"] == [] and update["view"]["you"] == 0


async def test_watching_a_running_game_gives_the_spectator_view(player):
    ann, spec = await player("Ann"), await player("Spec")
    room = await start_with_bots(ann, options={"takeover_s": 0})
    await spec.send("watch", room=room)
    assert (await spec.expect("joined"))["seat"] is None
    assert (await spec.expect("room"))["room"]["status"] == "playing"
    view = (await spec.next_update())["view"]
    assert view["you"] is None and view["hand"] == [] and view["legal"] == {}
    assert view["money"] is None and all(s["money"] is None for s in view["seats"])
    rid = await spec.send("sync")
    again = await spec.expect("update", re=rid)
    assert again["events"] == [] and again["view"]["you"] is None
    await spec.send("leave")
    assert (await spec.expect("left"))["room"] == room
    await spec.send("sync")
    await spec.expect_error("not_allowed")


async def test_create_echoes_variant_and_public_options_but_not_the_deck(player):
    from modernart.engine.modernart.cards import FULL_DECK

    ann = await player("Ann")
    options = {"deck": list(FULL_DECK), "first_auctioneer": 2, "shout_window_ms": 700}
    await ann.send("create", seats=3, variant="classic_3p_virtual", options=options)
    summary = (await ann.expect("room"))["room"]
    assert summary["variant"] == {"double_payment": "split", "virtual_player": True}
    assert summary["options"]["fixed_deck"] is True and "deck" not in summary["options"]
    assert summary["options"]["shout_window_ms"] == 700
    assert summary["options"]["first_auctioneer"] == 2


async def test_sweeper_drops_deserted_waiting_rooms(server, player, monkeypatch):
    """(Running games nobody attends end by a timer: tests/server/test_players.py.)"""
    from modernart.server.lobby import desk

    monkeypatch.setattr(desk, "IDLE_SWEEPS", 2)
    ann = await player("Ann")
    await ann.send("create", seats=3)
    waiting = (await ann.expect("joined"))["room"]
    await ann.close()
    await disconnected(server, ann)
    server.hub.sweep()
    assert waiting in server.hub.rooms  # one idle sweep is not enough
    server.hub.sweep()
    assert waiting not in server.hub.rooms
    assert server.store.room(waiting) is None


async def test_sweeper_forgets_idle_identities_but_their_tokens_still_work(server, player):
    ann, bob = await player("Ann"), await player("Bob")
    await bob.send("create", seats=3)
    room = (await bob.expect("joined"))["room"]
    ann_token, ann_id, bob_id = ann.token, ann.you, bob.you
    await ann.close()
    await bob.close()
    await disconnected(server, ann, bob)
    server.hub.sweep()
    assert ann_id not in server.hub.identities  # neither connected nor seated
    assert bob_id in server.hub.identities  # still seated in the waiting room
    again = await player("Ann", ann_token)
    assert again.you == ann_id
    await again.send("join", room=room)
    assert (await again.expect("joined"))["seat"] == 1


async def test_a_push_that_shows_the_same_page_again_is_not_sent(server, player, monkeypatch):
    """`rooms` is pushed when the list changes (docs/protocol.md): a change the first page
    does not show makes the same page, which a client that had it is not sent again; a
    client whose last list was an answer to its request gets it; a changed page goes."""
    lobby = server.hub.lobby
    pushed = asyncio.Event()
    push = lobby._push_rooms

    def push_and_tell() -> None:
        push()
        pushed.set()

    monkeypatch.setattr(lobby, "_push_rooms", push_and_tell)
    watcher = await player("Wat")
    ann = await player("Ann")

    async def push_now() -> None:
        pushed.clear()
        server.hub.rooms_changed()  # nothing the page shows changed
        await pushed.wait()

    await ann.send("create", seats=4, name="first")
    await ann.expect("joined")
    while lobby._push is not None:  # the create's push still to come: let it go
        pushed.clear()
        await pushed.wait()
    rid = await watcher.send("rooms")
    while (await watcher.expect("rooms")).get("re") != rid:  # every list so far, read
        pass
    await push_now()  # the same page, but its last list was an answer: sent
    again = await watcher.expect("rooms")
    assert "re" not in again and [r["name"] for r in again["rooms"]] == ["first"]
    await push_now()  # the same page as its last push: not sent
    bob = await player("Bob")
    await bob.send("create", seats=3, name="second")
    await bob.expect("joined")
    changed = await watcher.expect("rooms")  # the next list it gets is the changed page
    assert "re" not in changed
    assert sorted(r["name"] for r in changed["rooms"]) == ["first", "second"]


async def test_a_room_with_no_name_gets_one_no_other_room_has(player):
    """Play-tests 2026-12-03 evening #9: two rooms were both "carol's table"."""
    carol = await player("carol")
    names = []
    for _ in range(3):
        names.append(await created_name(carol))
        await carol.send("add_bot")
        await carol.send("add_bot")
        await carol.send("start")  # it stays listed, playing, after she leaves
        await carol.next_update()
        await carol.send("leave")
        await carol.expect("left")
    assert names == ["carol's table", "carol's table 2", "carol's table 3"]
    assert await created_name(carol, name="carol's table 2") == "carol's table 2"  # as given


async def created_name(host: Client, **create) -> str:
    """The name of a 3-seat room `host` creates."""
    await host.send("create", seats=3, **create)
    room = (await host.expect("joined"))["room"]
    while (msg := await host.expect("room"))["room"].get("id") != room:
        pass
    return msg["room"]["name"]


class LobbyConn:
    """A client in the lobby as the push sees one: what it was sent, in a shared order."""

    def __init__(self, sent: list[LobbyConn]) -> None:
        self.sent = sent
        self.in_lobby, self.backlogged = True, False
        self.rooms_pushed: bytes | None = None
        self.got: list[bytes] = []

    def send_now(self, frame: bytes) -> None:
        self.got.append(frame)
        self.sent.append(self)


async def test_a_push_reaches_a_big_lobby_a_slice_at_a_time_and_each_client_once(monkeypatch):
    """A list pushed to 100 terminal sessions at once had every worker of the server's
    machine draw it in the same moment (docs/benchmarks.md): a push goes out in slices."""
    monkeypatch.setattr(roomlist, "LOBBY_SLICE", 4)
    monkeypatch.setattr(roomlist, "LOBBY_SPREAD", 0.004)  # at most 4 slices …
    monkeypatch.setattr(roomlist, "LOBBY_SLICE_EVERY", 0.001)  # … 1 ms apart
    sent: list[LobbyConn] = []
    conns = [LobbyConn(sent) for _ in range(22)]
    lobby = roomlist.Lobby(lambda: [], lambda: conns)
    lobby._push_rooms()
    assert sent == conns[:6]  # 22 clients in 4 slices: 6 a slice (more than 4), at once
    conns[7].in_lobby = False  # gone into a room before its slice
    conns[8].backlogged = True  # its output unread
    done = asyncio.Event()
    conns[-1].send_now = lambda frame: (LobbyConn.send_now(conns[-1], frame), done.set())
    await asyncio.wait_for(done.wait(), 10)
    assert sent == [c for i, c in enumerate(conns) if i not in (7, 8)]  # slice by slice
    assert all(len(c.got) == 1 for c in sent) and not conns[7].got and not conns[8].got
    small = [LobbyConn(sent) for _ in range(3)]
    sent.clear()
    roomlist.Lobby(lambda: [], lambda: small)._push_rooms()
    assert sent == small  # a small lobby: all at once
