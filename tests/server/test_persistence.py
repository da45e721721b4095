"""Nothing lost: kill -9 mid-auction, restart on the same data, reconnect, finish identically.
On both stores: SQLite in the data directory and PostgreSQL (`--store`, issue 30)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pathlib
import random
import signal
import subprocess
import sys
from typing import Any

from websockets.exceptions import ConnectionClosed

from modernart.engine.modernart import Game
from modernart.engine.modernart.cards import FULL_DECK
from modernart.server.wire.app import Server

from .wsclient import Client, free_port

BIN = pathlib.Path(sys.executable).parent


async def start_process(
    port: int, data: pathlib.Path, store_url: str | None = None, *extra: str
) -> subprocess.Popen:
    """A dev `modernart-server` on `port` (`extra`: more flags), once it answers."""
    proc = subprocess.Popen(
        [
            BIN / "modernart-server",
            *(["--store", store_url] if store_url else []),
            *extra,
            "--port",
            str(port),
            "--data",
            str(data),
            "--dev",
            "--log-level",
            "warning",
        ],
    )
    for _ in range(200):
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            await writer.drain()
            ok = (await reader.readline()).startswith(b"HTTP/1.1 200")
            writer.close()
            if ok:
                return proc
        except OSError:
            pass
        await asyncio.sleep(0.05)
    proc.kill()
    raise RuntimeError("server did not come up")


def policy(view: dict[str, Any]) -> dict[str, Any] | None:
    """Deterministic and order-independent: pass, decline, 0, the lowest price, first card."""
    legal = view["legal"]
    for kind in ("pass", "decline"):
        if kind in legal:
            return {"type": kind}
    if "sealed" in legal:
        return {"type": "sealed", "amount": 0}
    if "price" in legal:
        return {"type": "price", "amount": legal["price"][0]}
    if "play" in legal:
        return {"type": "play", "card": legal["play"][0]}
    return None


def comparable(view: dict[str, Any]) -> dict[str, Any]:
    """A view without what legitimately changes across a restart (presence, clocks)."""
    out = dict(view)
    out.pop("deadline_ms")
    out["seats"] = [{k: v for k, v in s.items() if k != "connected"} for s in view["seats"]]
    return out


async def play_out(clients: list[Client]) -> dict[str, Any]:
    """Every client follows `policy` on its newest view until the game ends."""

    async def one(client: Client) -> dict[str, Any]:
        view = client.view
        while True:
            if view is not None and not view["finished"]:
                action = policy(view)
                if action is not None:
                    await client.act(**action)
            msg = await client.next_update(timeout=20)
            while client.buffer:
                nxt = await client.recv()
                if nxt["t"] == "update":
                    msg = nxt
            view = msg["view"]
            if view["finished"]:
                return msg

    results = await asyncio.gather(*(one(c) for c in clients))
    return results[0]


def expected_money(deck: list[str]) -> list[int]:
    """The same game in the engine alone: Ann's krypto.open, Bob's bid, then the policy."""
    game = Game(["A", "B", "C"], "classic", deck, first_auctioneer=0)
    game.apply({"seat": 0, "type": "play", "card": "krypto.open"})
    game.apply({"seat": 1, "type": "bid", "amount": 5})
    while not game.finished:
        seat = game.to_act()[0]
        action = policy(game.view(seat))
        assert action is not None
        game.apply({"seat": seat, **action})
    return list(game.money)


async def test_kill_9_mid_auction_restart_reconnect_and_finish_identically(tmp_path, store_url):
    deck = list(FULL_DECK)
    random.Random(7).shuffle(deck)
    deck.remove("krypto.open")
    deck.insert(0, "krypto.open")
    data, port = tmp_path / "data", free_port()
    url = f"ws://127.0.0.1:{port}/"
    proc = await start_process(port, data, store_url)
    try:
        clients = [await Client.hello(url, n) for n in ("A", "B", "C")]
        options = {"deck": deck, "first_auctioneer": 0, "shout_window_ms": 60000}
        await clients[0].send("create", seats=3, options=options)
        room = (await clients[0].expect("joined"))["room"]
        for c in clients[1:]:
            await c.send("join", room=room)
            await c.expect("joined")
        await clients[0].send("start")
        await clients[0].next_update()
        await clients[0].act(type="play", card="krypto.open")
        await clients[1].until(lambda u: u["view"]["phase"] == "open")
        await clients[1].act(type="bid", amount=5)
        before = [await c.until(lambda u: u["view"]["high"] is not None) for c in clients]
        proc.send_signal(signal.SIGKILL)  # not a graceful stop
        proc.wait(10)
        for c in clients:
            with contextlib.suppress(ConnectionClosed):
                await c.close()

        proc = await start_process(port, data, store_url)
        back = [await Client.hello(url, n, c.token) for n, c in zip("ABC", clients, strict=True)]
        for client, old in zip(back, before, strict=True):
            resync = await client.next_update()
            assert resync["seq"] >= old["seq"]
            assert comparable(resync["view"]) == comparable(old["view"])
        final = await play_out(back)
        money = next(e for e in final["events"] if e["type"] == "game_end")["money"]
        assert money == expected_money(deck)

        # Graceful stop: clients are told the server is going away (1001).
        proc.send_signal(signal.SIGTERM)
        codes = []
        for client in back:
            try:
                while True:
                    await client.recv(10)
            except ConnectionClosed as exc:
                codes.append(exc.rcvd.code if exc.rcvd else None)
        assert codes == [1001, 1001, 1001]
        assert proc.wait(10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()

    # The finished game comes out as a record that `modernart replay` reads.
    out = tmp_path / "records"
    where = ["--data", str(data)] + (["--store", store_url] if store_url else [])
    done = subprocess.run(
        [BIN / "modernart-server", "export", "--all", *where, "--out", str(out)],
        capture_output=True,
        text=True,
        check=True,
    )
    path = pathlib.Path(done.stdout.split()[0])
    assert path.name == f"{room}.json"
    replayed = subprocess.run(
        [BIN / "modernart", "replay", str(path)], capture_output=True, text=True, check=True
    )
    result = json.loads(replayed.stdout)
    assert result["ok"] and result["finished"] and result["money"] == money


async def test_graceful_stop_and_restart_keeps_waiting_and_playing_rooms(tmp_path, store_url):
    server = Server(tmp_path, port=0, dev=True, store_url=store_url)
    await server.start()
    url = f"ws://127.0.0.1:{server.port}/"
    ann = await Client.hello(url, "Ann")
    await ann.send("create", seats=3, options={"takeover_s": 0})
    room = (await ann.expect("joined"))["room"]
    await ann.send("add_bot")
    await ann.send("add_bot")
    await ann.send("start")
    started = await ann.next_update()
    bob = await Client.hello(url, "Bob")
    await bob.send("create", seats=4, name="Bob's wait")
    waiting = (await bob.expect("joined"))["room"]
    await server.stop()
    try:
        while True:
            await ann.recv(5)
    except ConnectionClosed as exc:
        assert exc.rcvd is not None and exc.rcvd.code == 1001

    server = Server(tmp_path, port=0, dev=True, store_url=store_url)
    await server.start()
    try:
        url = f"ws://127.0.0.1:{server.port}/"
        again = await Client.hello(url, "Ann", ann.token)
        joined = await again.expect("joined")
        assert joined == {"t": "joined", "room": room, "seat": 0}
        resync = await again.next_update()
        assert comparable(resync["view"])["hand"] == started["view"]["hand"]
        assert resync["view"]["status"] == "playing"
        await again.close()
        bob_again = await Client.hello(url, "Bob", bob.token)
        assert (await bob_again.expect("joined")) == {"t": "joined", "room": waiting, "seat": 0}
        summary = (await bob_again.expect("room"))["room"]
        assert summary["name"] == "Bob's wait" and summary["status"] == "waiting"
        await bob_again.close()
    finally:
        await server.stop()


def test_data_dir_holds_one_sqlite_database(tmp_path):
    assert not os.path.exists(tmp_path / "modernart.sqlite3")
    from modernart.server.store.sqlite import Store

    store = Store(tmp_path)
    store.close()
    assert (tmp_path / "modernart.sqlite3").exists()
