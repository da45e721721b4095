"""Secrecy over every message clients receive in whole games (R4, R14; PROTOCOL.md)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from modernart.engine.modernart.cards import is_card

from .wsclient import Client, autoplay

FORBIDDEN_KEYS = {"deck", "hands", "password", "salt", "hash", "token_hash", "sealed_bids"}
SEAT_KEYS = {"name", "hand_size", "purchased", "money", "connected", "bot", "autopilot", "left"}
PASSWORD = "open-sesame-4821"


def walk(value: Any, path: str = ""):
    """Every (path, key, value) of nested maps and every list in a message."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield path, k, v
            yield from walk(v, f"{path}.{k}")
    elif isinstance(value, list):
        yield path, None, value
        for v in value:
            yield from walk(v, path)


def check_client(client: Client, others: list[Client], n: int) -> None:
    """Everything `client` received: no hand, money, sealed bid, deck, password or token."""
    for frame in client.frames:
        assert PASSWORD.encode() not in frame
        for other in others:
            assert other.token is not None and other.token.encode() not in frame
    sealed_in: set[int] = set()
    for msg in client.received:
        for _, key, value in walk(msg):
            assert key not in FORBIDDEN_KEYS
            if key == "token":
                assert msg["t"] == "welcome" and value == client.token
            if isinstance(value, list) and sum(map(is_card, value)) > 30:
                raise AssertionError("a list of cards as long as a deck was sent")
        if msg["t"] != "update":
            continue
        view, events = msg["view"], msg["events"]
        you = view["you"]
        assert you == client.seat
        finished = view["finished"]
        for seat, info in enumerate(view["seats"]):
            assert set(info) == SEAT_KEYS
            if seat != you and not finished:
                assert info["money"] is None  # R4
        if you is None:
            assert view["hand"] == [] and view["money"] is None and view["legal"] == {}
            assert view["my_sealed"] is None
        else:
            assert view["money"] == view["seats"][you]["money"]
            assert len(view["hand"]) == view["seats"][you]["hand_size"]
        for event in events:
            if event["type"] == "sealed_in":
                assert set(event) == {"type", "seat"}  # R14: no amount
                sealed_in.add(event["seat"])
            elif event["type"] == "reveal":
                assert sealed_in == set(range(n)), "a reveal before every bid was in"
                sealed_in = set()


async def whole_game(player, n: int, variant: str, seed: int) -> None:
    clients = [await player(f"P{i}") for i in range(n)]
    spectator = await player("Spec")
    await clients[0].send(
        "create", seats=n, variant=variant, password=PASSWORD, options={"shout_window_ms": 100}
    )
    room = (await clients[0].expect("joined"))["room"]
    for c in clients[1:]:
        await c.send("join", room=room, password=PASSWORD)
        await c.expect("joined")
    await spectator.send("watch", room=room, password=PASSWORD)
    await spectator.expect("joined")
    await clients[0].send("start")
    for c in clients:
        await c.next_update()
    finals = await asyncio.gather(*(autoplay(c, seed=seed * 10 + i) for i, c in enumerate(clients)))
    await spectator.until(lambda u: u["view"]["finished"], timeout=30)
    assert len({f["seq"] for f in finals}) == 1
    everyone = [*clients, spectator]
    for c in everyone:
        check_client(c, [o for o in everyone if o is not c], n)
    # Every member saw the same updates in the same order.
    streams = [
        [(m["seq"], m["events"]) for m in c.received if m["t"] == "update" and m["events"]]
        for c in everyone
    ]
    assert all(s == streams[0] for s in streams)


@pytest.mark.parametrize(
    ("n", "variant", "seed"), [(3, "classic_3p_virtual", 1), (4, "classic", 2), (5, "japanese", 3)]
)
async def test_whole_games_leak_nothing_r4_r14(player, n, variant, seed):
    await whole_game(player, n, variant, seed)
