"""The store's contract on both databases (issue 30): every test here runs on SQLite
in the data directory and on a real PostgreSQL (tests/server/pgcluster.py), through
the calls the server makes (server/store/port.py), and again after the store is
closed and opened anew."""

from __future__ import annotations

import pathlib
import subprocess
import sys
import time

import pytest

from modernart.server.people.names import name_keys
from modernart.server.store.errors import StoreError
from modernart.server.store.players import Rating, SeatResult
from modernart.server.store.port import StorePort, open_store
from modernart.server.wire.app import Server

from .conftest import deck_with, start_three
from .wsclient import Client

BIN = pathlib.Path(sys.executable).parent
HEADER = {"players": ["A", "B", "C"], "variant": "classic", "deck": ["x"], "first_auctioneer": 0}


def reopened(store: StorePort, tmp_path: pathlib.Path, url: str | None) -> StorePort:
    store.close()
    return open_store(tmp_path, url)


def test_rooms_and_their_actions_are_kept(tmp_path, store_url):
    store = open_store(tmp_path, store_url)
    store.add_room("r1", "Ann's", {"seats": 3, "options": {"deck": None}}, {"host": 0})
    store.add_room("r2", "Bob's", {"seats": 4}, {"host": 0})
    store.add_room("r3", "Cy's", {"seats": 4}, {"host": 0})
    assert store.room_exists("r1") and not store.room_exists("nope")
    store.save_members("r1", {"host": 0, "seats": ["u1"]})
    store.start_room("r1", {"host": 0, "seats": ["u1", "u2"]}, HEADER, 1)
    store.append_action("r1", 0, {"seat": 0, "type": "play", "card": "a.b"}, 2)
    store.append_action("r1", 1, {"seat": 1, "type": "bid", "amount": 5}, 3)
    store.save_seq("r1", 5)
    store.delete_room("r1")  # only a waiting room goes
    store.delete_room("r2")
    store.set_status("r3", "finished")

    store = reopened(store, tmp_path, store_url)
    try:
        room = store.room("r1")
        assert room is not None
        assert (room.name, room.status, room.seq) == ("Ann's", "playing", 5)
        assert room.settings == {"seats": 3, "options": {"deck": None}}
        assert room.members == {"host": 0, "seats": ["u1", "u2"]}
        assert room.header == HEADER
        assert room.actions[1] == {"seat": 1, "type": "bid", "amount": 5}
        assert [r.id for r in store.unfinished_rooms()] == ["r1"]
        assert store.unfinished_room_ids(time.time() + 60) == ["r1"]  # its id alone
        assert store.unfinished_room_ids(time.time() - 60) == []  # made since then
        assert store.finished_room_ids() == ["r3"]
        assert store.room("r2") is None
    finally:
        store.close()


def test_a_turns_batch_is_stored_at_its_end_and_a_failed_write_never_leaves_a_gap(
    tmp_path, store_url
):
    """Group commit: rooms' actions wait for the turn's end. A refused write of one room
    (a duplicate action: a bug's stand-in) is that room's StoreError; every other room
    of the turn is either stored or named lost, never stored in part unannounced."""
    store = open_store(tmp_path, store_url)
    opened: list[bool] = []
    store.batch_opened = lambda: opened.append(True)
    for room in ("a", "b"):
        store.add_room(room, room, {}, {})
        store.start_room(room, {}, HEADER, 1)
    store.append_action("a", 0, {"n": 0}, 2)
    store.append_action("b", 0, {"n": 0}, 2)
    assert opened == [True]
    assert store.commit_batch() == ({}, 2)

    store.append_action("a", 1, {"n": 1}, 3)
    with pytest.raises(StoreError):
        store.append_action("b", 0, {"n": 9}, 3)  # idx 0 is stored already
    lost, _ = store.commit_batch()
    assert set(lost) <= {"a"}
    assert lost.get("a", (1, 2)) == (1, 2)  # what the store holds of it: 1 action, seq 2

    store = reopened(store, tmp_path, store_url)
    try:
        a, b = store.room("a"), store.room("b")
        assert a is not None and b is not None
        assert a.actions == ([{"n": 0}] if "a" in lost else [{"n": 0}, {"n": 1}])
        assert b.actions == [{"n": 0}]
    finally:
        store.close()


def test_names_are_held_once_and_kept_a_while_after_a_rename(tmp_path, store_url):
    store = open_store(tmp_path, store_url)
    try:
        store.add_identity_named("u1", "Ann", "tok-1", name_keys("Ann"))
        store.add_identity_named("u2", "Bob", "tok-2", name_keys("Bob"))
        assert store.find_identity("tok-1") == ("u1", "Ann", False)
        assert store.name_holder(name_keys("ann")) == "u1"
        assert store.name_holder(name_keys("Ann"), besides="u1") is None
        with pytest.raises(StoreError):  # Bob's name is Bob's
            store.add_identity_named("u3", "Bob", "tok-3", name_keys("Bob"))
        assert store.find_identity("tok-3") is None  # nothing of it was stored
        store.claim_name("u1", "Anna", name_keys("Anna"), keep_s=3600, kept=1)
        assert store.identity_name("u1") == "Anna"
        assert store.name_holder(name_keys("Ann")) == "u1"  # kept for an hour
        with pytest.raises(StoreError):
            store.claim_name("u2", "Ann", name_keys("Ann"))
        store.mark_seated("u1")
        assert store.find_identity("tok-1") == ("u1", "Anna", True)
        assert store.expire_identities(time.time() + 1, set(), 10) == 1  # Bob, never seated
        store.release_unheld_names()
        assert store.name_holder(name_keys("Bob")) is None
        store.add_identity_named("u4", "Cy", "tok-4", name_keys("Cy"))
        store.db.execute("UPDATE identities SET name = 'Anna' WHERE id = 'u4'")  # a clash
        renamed = store.dedupe_names(name_keys, lambda name, taken: name + "2")
        assert renamed == [("u4", "Anna", "Anna2")]
    finally:
        store.close()


def test_keys_devices_and_reviews(tmp_path, store_url):
    store = open_store(tmp_path, store_url)
    key = "SHA256:" + "k" * 43
    store.add_identity_named("u1", "Ann", "tok-1", name_keys("Ann"))
    store.put_key_token(key, "tok-old")
    store.put_key_token(key, "tok-1")  # replaced
    store.import_key_tokens({key: "tok-ignored", "SHA256:other": "tok-1"})  # kept as it is
    store.add_device("u1", "tok-phone", "phone")
    phone = store.device_of("tok-phone")
    assert phone is not None and phone.identity == "u1"
    store.device_seen(phone.id, "tablet")
    store.save_review("r1", {"v": 1})
    store.save_review("r1", {"v": 2})  # replaced

    store = reopened(store, tmp_path, store_url)
    try:
        assert store.key_token(key) == "tok-1"
        assert store.key_token("SHA256:other") == "tok-1"
        assert [d.label for d in store.devices_of("u1")] == ["first device", "tablet"]
        assert store.remove_device("u2", phone.id) is None  # not its device
        assert store.remove_device("u1", phone.id) is not None
        assert store.find_identity("tok-phone") is None
        assert store.stored_review("r1") == {"v": 2}
        assert store.stored_review("r2") is None
    finally:
        store.close()


def test_hand_off_codes_are_stored_hashed_and_taken_once(tmp_path, store_url):
    """A cluster's codes (server/store/handoffs.py): an identity's new code replaces its
    old one, a code is taken once and only before it expires, a revoked device's code
    goes, and two identities' codes never share a hash (the caller draws another code)."""
    store = open_store(tmp_path, store_url)
    assert store.put_handoff("h-old", "u1", "d1", expires=100.0, now=0.0)
    assert store.put_handoff("h-1", "u1", "d1", expires=100.0, now=1.0)  # replaces h-old
    assert store.put_handoff("h-2", "u2", None, expires=50.0, now=1.0)
    assert not store.put_handoff("h-1", "u3", "d3", expires=100.0, now=1.0)  # h-1 is u1's
    assert store.put_handoff("h-4", "u4", "d4", expires=100.0, now=1.0)

    store = reopened(store, tmp_path, store_url)
    try:
        assert store.take_handoff("h-old", now=2.0) is None
        assert store.take_handoff("h-2", now=50.0) is None  # expired
        assert store.take_handoff("h-1", now=2.0) == ("u1", "d1", 100.0)
        assert store.take_handoff("h-1", now=2.0) is None  # used up
        store.cancel_handoff("u4", "d-other")  # another device's: the code stays
        store.cancel_handoff("u3", "d3")  # no code: nothing to do
        assert store.put_handoff("h-5", "u5", "d5", expires=100.0, now=60.0)  # h-2 swept
        store.cancel_handoff("u5", "d5")
        assert store.take_handoff("h-5", now=61.0) is None
        rows = list(store.db.execute("SELECT code_hash FROM handoffs"))  # type: ignore[attr-defined]
        assert [r[0] for r in rows] == ["h-4"]
    finally:
        store.close()


def test_results_ratings_and_who_may_see_a_game(tmp_path, store_url):
    store = open_store(tmp_path, store_url)
    try:
        store.add_room("open", "open", {"seats": 2}, {})
        store.add_room("locked", "locked", {"seats": 2, "password": "pw"}, {})
        for room in ("open", "locked"):
            seats = [
                SeatResult(0, "u1", "Ann", 1, 90, 1500, 1510),
                SeatResult(1, "bot:hard", "Hard bot", 2, 10, 1600, 1590),
            ]
            rated = [
                Rating("u1", "Ann", 26.000123456789, 3.0, 1, established=True),
                Rating("bot:hard", "Hard bot", 24.0, 2.0, 1, established=True),
            ]
            store.save_results(room, "modernart", "finished", seats, rated)
        store.save_results("open", "modernart", "finished", seats, rated)  # stored again
        assert store.has_results("open") and not store.has_results("none")
        assert store.room("open").status == "finished"  # type: ignore[union-attr]
        got = store.ratings("modernart", ["u1", "bot:hard", "u9"])
        assert sorted(got) == ["bot:hard", "u1"]
        assert got["u1"].mu == 26.000123456789  # a double, in both
        board = store.leaderboard("modernart", 10)
        assert [r.player for r in board] == ["bot:hard", "u1"]  # mu - 3 sigma: 18, 17
        assert store.games_together("modernart", "u1", "bot:hard", 0) == 2
        assert store.opponents("modernart", "u1") == {"bot:hard"}
        seen = {g["room"] for g in store.games_of("u1", 10, "u2")}
        assert seen == {"open"}  # a locked room's game only to its players
        assert {g["room"] for g in store.games_of("u1", 10, "u1")} == {"open", "locked"}
    finally:
        store.close()


def test_export_and_backup_commands(tmp_path, store_url):
    store = open_store(tmp_path, store_url)
    store.add_room("r1", "Ann's", {"seats": 3}, {})
    store.start_room("r1", {}, HEADER, 1)
    store.append_action("r1", 0, {"seat": 0, "type": "play", "card": "a.b"}, 2)
    store.set_status("r1", "finished")
    store.close()
    where = ["--data", str(tmp_path)] + (["--store", store_url] if store_url else [])
    out = tmp_path / "records"
    done = subprocess.run(
        [BIN / "modernart-server", "export", "--all", *where, "--out", str(out)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert '"play"' in (out / "r1.json").read_text()
    copy = tmp_path / "copy"
    done = subprocess.run(
        [BIN / "modernart-server", "backup", str(copy), *where], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    magic = b"SQLite format 3" if store_url is None else b"PGDMP"
    assert copy.read_bytes().startswith(magic)


def test_a_store_url_that_is_not_postgresql_or_cannot_be_reached_is_refused(tmp_path):
    with pytest.raises(StoreError, match="postgresql://"):
        open_store(tmp_path, "mysql://db/modernart")
    done = subprocess.run(
        [
            *(BIN / "modernart-server", "--data", str(tmp_path), "--port", "0"),
            *("--store", f"postgresql://nobody@/none?host={tmp_path}&port=1"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "cannot use the PostgreSQL store" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr


def test_a_dropped_postgresql_connection_fails_one_write_then_connects_again(tmp_path, pg_cluster):
    import psycopg

    url = pg_cluster.database()
    store = open_store(tmp_path, url)
    try:
        store.batch_opened = lambda: None
        store.add_room("r1", "r1", {}, {})
        store.start_room("r1", {}, HEADER, 1)
        store.append_action("r1", 0, {"n": 0}, 2)  # in the turn's open batch
        with psycopg.connect(url, autocommit=True) as admin:  # PostgreSQL drops us
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        lost, rows = store.commit_batch()
        assert lost == {"r1": (0, 1)} and rows == 0  # what the store still holds
        store.append_action("r1", 0, {"n": 0}, 2)  # connected again
        assert store.commit_batch() == ({}, 1)
        stored = store.room("r1")
        assert stored is not None and stored.actions == [{"n": 0}]
    finally:
        store.close()


def test_both_databases_have_the_same_tables_and_columns(tmp_path, pg_cluster):
    def tables(store: StorePort, listing: str) -> dict[str, list[str]]:
        names = sorted(row[0] for row in store.db.execute(listing))  # type: ignore[attr-defined]
        return {name: sorted(store._columns(name)) for name in names}  # type: ignore[attr-defined]

    lite = open_store(tmp_path)
    pg = open_store(tmp_path, pg_cluster.database())
    try:
        here = tables(lite, "SELECT name FROM sqlite_master WHERE type = 'table'")
        there = tables(
            pg,
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema()",
        )
        assert here == there
        assert {"rooms", "actions", "identities", "devices", "results"} <= set(here)
    finally:
        lite.close()
        pg.close()


def test_a_commit_whose_answer_is_lost_rewinds_to_what_postgresql_holds(tmp_path, pg_cluster):
    """The connection drops after PostgreSQL applied the turn's COMMIT: the rooms go
    back to what the database holds (the batch), not to before it."""
    import psycopg

    store = open_store(tmp_path, pg_cluster.database())
    try:
        store.batch_opened = lambda: None
        store.add_room("r1", "r1", {}, {})
        store.start_room("r1", {}, HEADER, 1)
        store.append_action("r1", 0, {"n": 0}, 2)
        store.save_seq("r1", 3)
        db = store.db  # type: ignore[attr-defined]
        execute = db.execute

        def answer_lost(sql: str, params: tuple = ()) -> object:
            cursor = execute(sql, params)
            if sql == "COMMIT":
                raise psycopg.OperationalError("server closed the connection unexpectedly")
            return cursor

        db.execute = answer_lost
        lost, rows = store.commit_batch()
        db.execute = execute
        assert lost == {"r1": (1, 3)} and rows == 0  # the action and seq 3 are stored
    finally:
        store.close()


async def test_a_game_on_postgresql_goes_on_after_the_database_drops_the_server(
    tmp_path, pg_cluster
):
    """PostgreSQL restarted under a running game: the act of that moment is refused
    (`internal`, nothing stored, nothing applied), the next one connects again."""
    import psycopg

    url = pg_cluster.database()
    server = Server(tmp_path, port=0, dev=True, store_url=url)
    await server.start()
    try:
        ws = f"ws://127.0.0.1:{server.port}/"
        ann, bob, cy = [await Client.hello(ws, n) for n in ("Ann", "Bob", "Cy")]
        deck = deck_with(["krypto.open", "yoko.sealed"])
        room = await start_three(ann, bob, cy, deck)
        for client in (ann, bob, cy):
            await client.next_update()
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        await ann.act(type="play", card="krypto.open")
        assert "could not save" in (await ann.expect_error("internal"))["message"]
        await ann.act(type="play", card="krypto.open")
        played = await bob.next_update()
        assert played["events"][0] == {"type": "played", "seat": 0, "card": "krypto.open"}
        stored = server.store.room(room)  # type: ignore[union-attr]
        assert stored is not None
        assert stored.actions == [{"seat": 0, "type": "play", "card": "krypto.open"}]
        for client in (ann, bob, cy):
            await client.close()
    finally:
        await server.stop()
