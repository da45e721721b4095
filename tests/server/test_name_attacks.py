"""Issue 33, items 1 and 8, over real sockets: a taken name's suggestion costs a
bounded number of lookups however many look-alikes are held; names that pass for
other players, for bots or for the server are refused; a renamed player's earlier
name stays theirs; an identity that only sat in a room still expires."""

from __future__ import annotations

import sqlite3
import time
from typing import Any

import pytest

from modernart.server.people import names
from modernart.server.people.players import NAME_KEPT_HOURS, NAMES_KEPT
from modernart.server.store import players as playerstore
from modernart.server.store.errors import token_hash
from modernart.server.wire.app import Server

from .sshgate import identity_of
from .sshterm import open_terminal, ssh_connect
from .test_players import hello_refused, request
from .waiting import eventually
from .wsclient import Client


def hold(server: Server, prefix: str, count: int) -> None:
    """`prefix`, `prefix2` … `prefix<count>` held by as many identities, seeded in
    the store as `hello` would (thousands take a moment)."""
    store, now = server.store, time.time()
    rows, keys = [], []
    for n in range(1, count + 1):
        name = prefix if n == 1 else f"{prefix}{n}"
        rows.append((f"s{n}", name, token_hash(f"t{n}"), now))
        keys += [(k, f"s{n}", name) for k in names.name_keys(name)]
    store.db.execute("BEGIN")
    store.db.executemany(
        "INSERT INTO identities (id, name, token_hash, created, seated) VALUES (?,?,?,?,0)", rows
    )
    store.db.executemany("INSERT INTO name_keys (key, identity, name) VALUES (?,?,?)", keys)
    store.db.execute("COMMIT")


def count_lookups(server: Server, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every store lookup of a name's holder, counted (one indexed query each)."""
    store, calls = server.store, [0]
    lookup = store.name_holder

    def counted(*args: Any, **kwargs: Any) -> str | None:
        calls[0] += 1
        return lookup(*args, **kwargs)

    monkeypatch.setattr(store, "name_holder", counted)
    return calls


# ------------------------------------------------------------- 33.1


BOUND = 1 + names.SUGGEST_IN_ORDER + names.SUGGEST_AT_RANDOM  # is it taken, then the tries


async def test_a_taken_name_among_thousands_of_look_alikes_costs_a_few_lookups(
    server, player, monkeypatch
):
    hold(server, "zz", 9_999)
    bob = await player("bob")
    lookups = count_lookups(server, monkeypatch)
    error = await request(bob, "rename", name="zz")
    assert error["code"] == "name_taken"
    assert lookups[0] <= BOUND
    suggestion = error["suggestion"]  # a random suffix past zz9999: free
    assert server.store.name_holder(names.name_keys(suggestion)) is None
    assert (await request(bob, "rename", name=suggestion))["name"] == suggestion


async def test_when_every_name_tried_is_taken_the_refusal_has_no_suggestion(
    server, url, player, monkeypatch
):
    hold(server, "zz", 9_999)

    class Unlucky:  # every random suffix falls among the held ones
        @staticmethod
        def randrange(lo: int, hi: int) -> int:
            return 5_000

    monkeypatch.setattr(names, "_random", Unlucky)
    bob = await player("bob")
    lookups = count_lookups(server, monkeypatch)
    error = await request(bob, "rename", name="zz")
    assert error["code"] == "name_taken" and "suggestion" not in error
    assert "choose another" in error["message"]
    assert lookups[0] <= BOUND
    assert server.store.identity_name(bob.you) == "bob"
    lookups[0] = 0
    error = await hello_refused(url, "ZZ")  # a new identity's hello: the same bound
    assert error["code"] == "name_taken" and "suggestion" not in error
    assert lookups[0] <= BOUND


# ------------------------------------------------------------- 33.8


@pytest.mark.parametrize(
    "name",
    [
        "\u0430\u04cf\u0456\u0441\u0435",  # аӏісе: Cyrillic, with a palochka for the l
        "ali\u03f2e",  # aliϲe: a lunate sigma, which NFKC makes σ
        "al\u0131\u0307ce",  # alı̇ce: a dotless ı and a combining dot above
        "car\u043e\u04cf",  # caroӏ (carol is offline)
        "\u03f2arol",  # ϲarol
    ],
)
async def test_look_alikes_of_a_live_or_an_offline_name_are_taken(url, player, name):
    await player("alice")
    carol = await player("carol")
    await carol.close()
    error = await hello_refused(url, name)
    assert error["code"] == "name_taken", name
    bob = await player("bob")
    assert (await request(bob, "rename", name=name))["code"] == "name_taken", name


@pytest.mark.parametrize(
    "name",
    [
        "Otto \u276aR\u276b",  # Otto ❪R❫
        "Otto (R).",
        "Otto \u00ae",  # Otto ®
        "Otto \u24c7",  # Otto Ⓡ
        "Vera <X>",
        "Server",
        "server: restart",
        "SYSTEM",
        "modernart",
        "Modern Art",
        "m0dernart",
        "Guest 1234",
        "guest1234",
    ],
)
async def test_names_passing_for_a_bot_or_the_server_are_refused(url, player, name):
    host = await player("Host")
    await host.send("create", seats=3)
    room = (await host.expect("joined"))["room"]
    await host.send("add_bot", level="random")
    seated: list = []
    while not any("(R)" in (n or "") for n in seated):  # a real bot's mark: "Vera (R)"
        seated = (await host.expect("room"))["room"]["seated"]
    error = await hello_refused(url, name)
    assert error["code"] == "bad_message", name
    bob = await player("bob")
    assert (await request(bob, "rename", name=name))["code"] == "bad_message", name
    assert (await request(bob, "join", room=room))["t"] == "joined"  # as bob, not a bot


async def test_names_like_the_refused_ones_but_harmless_are_kept(player):
    bob = await player("bob")
    # "expert-bot": `modernart bot`'s player (a person's bot over the network, docs/bots.md).
    for name in ("Otto", "Botany", "Serena", "Zoë", "Ann (Lee", "🇫🇷 Ann", "expert-bot"):
        assert (await request(bob, "rename", name=name))["name"] == name


async def test_a_renamed_players_earlier_name_stays_theirs(server, url, player):
    alice, bob = await player("alice"), await player("bob")
    await alice.send("create", seats=3)
    room = (await alice.expect("joined"))["room"]
    await alice.send("add_bot", level="random")
    await alice.send("add_bot", level="random")
    await alice.send("start")
    await alice.next_update()
    await request(alice, "leave")  # the seat stays hers, shown as "alice"
    assert (await request(alice, "rename", name="Alicia"))["name"] == "Alicia"
    assert (await hello_refused(url, "alice"))["code"] == "name_taken"
    assert (await request(bob, "rename", name="ALICE"))["code"] == "name_taken"
    watcher = await Client.open(url)  # nobody speaks to her table as "alice"
    await watcher.send("hello", v=1, name="a\u04cfice")
    assert (await watcher.expect("error"))["code"] == "name_taken"
    await watcher.close()
    assert (await request(alice, "join", room=room))["t"] == "joined"
    await request(alice, "leave")
    assert (await request(alice, "rename", name="alice"))["name"] == "alice"  # hers again


async def test_only_the_latest_earlier_names_are_kept(player):
    ann, bob = await player("Ann"), await player("bob")
    for n in range(NAMES_KEPT + 1):
        assert (await request(ann, "rename", name=f"Ann {'BCDE'[n]}"))["t"] == "renamed"
    assert (await request(bob, "rename", name="Ann B"))["code"] == "name_taken"
    assert (await request(bob, "rename", name="Ann"))["name"] == "Ann"  # the oldest: free


async def test_an_identity_that_only_sat_in_a_room_expires_and_frees_its_name(server, url):
    leaver = await Client.hello(url, "Leaver")
    await leaver.send("create", seats=3)
    await leaver.expect("joined")
    await request(leaver, "leave")
    playing = await Client.hello(url, "Playing")
    await playing.send("create", seats=3)
    await playing.expect("joined")
    await playing.send("add_bot", level="random")
    await playing.send("add_bot", level="random")
    await playing.send("start")
    await playing.next_update()
    await request(playing, "leave")
    for client in (leaver, playing):
        await client.close()
    hub = server.hub
    await eventually(lambda: all(i.conn is None for i in hub.identities.values()))
    hub.limits.identity_ttl_hours = 1e-9
    hub.people.expire()
    assert server.store.find_identity(leaver.token) is None
    assert server.store.find_identity(playing.token) is not None  # played: kept
    taker = await Client.hello(url, "Leaver")  # the name is free again
    assert taker.you != leaver.you
    await taker.close()


async def test_a_store_keyed_by_older_rules_is_keyed_again_once(tmp_path):
    data = tmp_path / "old"
    srv = Server(data, port=0, dev=True)
    await srv.start()
    await srv.stop()
    db = sqlite3.connect(data / "modernart.sqlite3")
    db.execute("DELETE FROM name_rules")  # as a store keyed by issue 18's rules
    for i, name in enumerate(["Jos\u00e9", "Jose", "a\u04cfice", "alice"]):
        db.execute(
            "INSERT INTO identities (id, name, token_hash, created, seated) VALUES (?,?,?,?,1)",
            (f"u{i}", name, f"h{i}", 100.0 + i),
        )
    db.commit()
    db.close()
    srv = Server(data, port=0, dev=True)
    await srv.start()
    try:
        got = [srv.store.identity_name(f"u{i}") for i in range(4)]
        assert got == ["Jos\u00e9", "Jose2", "a\u04cfice", "alice2"]
    finally:
        await srv.stop()


async def test_a_key_whose_user_name_no_player_may_have_gets_a_guest_name(ssh, key):
    """`ssh admin@…` (issue 33): the door's hello gets a guest name, which only a door
    may carry; the player may rename in the lobby."""
    gate = await ssh()
    term = await open_terminal(await ssh_connect(gate.port, "admin", key, "127.0.0.1"))
    fingerprint = key.get_fingerprint()
    await term.wait(lambda: gate.identities.get(fingerprint) is not None, "the key's identity")
    assert identity_of(gate, key).name.startswith("Guest ")


async def test_a_name_whose_keys_are_held_by_oneself_and_another_is_taken(server, player):
    """`ALICE` is both `alice` and `allce` (I looks like l): bob, holding `allce`,
    holds it as much as alice does; alice gets `name_taken`, not a store error."""
    alice = await player("alice")
    await player("allce")
    error = await request(alice, "rename", name="ALICE")
    assert error["code"] == "name_taken"
    assert server.store.identity_name(alice.you) == "alice"


async def test_an_earlier_name_is_free_once_its_time_is_over(player, monkeypatch):
    ann, bob = await player("Ann"), await player("bob")
    assert (await request(ann, "rename", name="Annie"))["t"] == "renamed"
    assert (await request(bob, "rename", name="Ann"))["code"] == "name_taken"
    later = time.time() + NAME_KEPT_HOURS * 3600 + 1

    class Later:
        @staticmethod
        def time() -> float:
            return later

    monkeypatch.setattr(playerstore, "time", Later)
    assert (await request(bob, "rename", name="Ann"))["name"] == "Ann"
