"""Fuzzed frames (hypothesis) never crash the server; a good client is still answered.

The server runs in a thread with its own event loop so that hypothesis can
drive plain synchronous websocket clients example after example.
"""

from __future__ import annotations

import asyncio
import itertools
import pathlib
import threading
from collections.abc import Iterator

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from modernart.engine.games import GAME_NAMES, get_game
from modernart.server.wire.app import Server

TYPES = [
    "hello",
    "rooms",
    "create",
    "join",
    "watch",
    "leave",
    "add_bot",
    "start",
    "chat",
    "act",
    "sync",
    "close",
    "bid",
]
FIELDS = [
    "t",
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
    "type",
    "amount",
    "card",
    "deck",
    "first_auctioneer",
    "shout_window_ms",
    "seat",
]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**64 - 1),
    st.floats(allow_nan=True),
    st.text(max_size=30),
    st.binary(max_size=30),
    st.sampled_from([*TYPES, "krypto.open", "classic", "random"]),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.one_of(st.sampled_from(FIELDS), scalars), inner, max_size=5),
    ),
    max_leaves=20,
)
messages = st.fixed_dictionaries(
    {"t": st.sampled_from(TYPES)},
    optional={k: values for k in FIELDS[1:]},
)
frames = st.one_of(
    st.binary(max_size=200),
    values.map(lambda v: msgpack.packb(v, use_bin_type=True)),
    messages.map(lambda v: msgpack.packb(v, use_bin_type=True)),
    st.text(max_size=50),
)


@pytest.fixture(scope="module")
def live_server(tmp_path_factory) -> Iterator[int]:
    loop = asyncio.new_event_loop()
    server = Server(pathlib.Path(tmp_path_factory.mktemp("fuzz")), port=0, dev=True)
    ready = threading.Event()

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(server.start())
        ready.set()
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(10)
    yield server.port
    asyncio.run_coroutine_threadsafe(server.stop(), loop).result(10)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)


def url(port: int) -> str:
    return f"ws://127.0.0.1:{port}/"


_HELLOS = itertools.count(1)


def say_hello(ws: ClientConnection, name: str) -> None:
    """A new identity each time: one name is one player's (issue 18)."""
    name = f"{name}{next(_HELLOS)}"
    ws.send(msgpack.packb({"t": "hello", "v": 1, "name": name}))
    assert msgpack.unpackb(ws.recv(5))["t"] == "welcome"


def still_serves(port: int) -> None:
    with connect(url(port), compression=None) as ws:
        say_hello(ws, "Good")
        ws.send(msgpack.packb({"t": "rooms", "id": 1}))
        while True:
            reply = msgpack.unpackb(ws.recv(5))
            if reply.get("re") == 1:
                break
        assert reply["t"] == "rooms"


def send_all(ws: ClientConnection, batch: list) -> None:
    """Send the frames; no answer may be an internal error (a handler that raised)."""
    replies = []
    try:
        for frame in batch:
            ws.send(frame)
        while True:
            replies.append(msgpack.unpackb(ws.recv(0.05)))
    except (ConnectionClosed, TimeoutError):
        pass
    assert not [r for r in replies if r.get("code") == "internal"]


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(batch=st.lists(frames, min_size=1, max_size=6))
def test_fuzzed_frames_before_hello_never_crash(live_server, batch):
    with connect(url(live_server), compression=None) as ws:
        send_all(ws, batch)
    still_serves(live_server)


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(batch=st.lists(frames, min_size=1, max_size=8))
def test_fuzzed_frames_in_the_lobby_never_crash(live_server, batch):
    with connect(url(live_server), compression=None) as ws:
        say_hello(ws, "Fuzz")
        send_all(ws, batch)
    still_serves(live_server)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(batch=st.lists(messages.map(msgpack.packb), min_size=1, max_size=8))
def test_fuzzed_messages_in_a_running_game_never_crash(live_server, batch):
    with connect(url(live_server), compression=None) as ws:
        say_hello(ws, "Host")
        ws.send(msgpack.packb({"t": "create", "seats": 3, "options": {"takeover_s": 0}}))
        ws.send(msgpack.packb({"t": "add_bot"}))
        ws.send(msgpack.packb({"t": "add_bot"}))
        ws.send(msgpack.packb({"t": "start"}))
        send_all(ws, batch)
    still_serves(live_server)


GAME_ACTIONS = {name: get_game(name).actions for name in GAME_NAMES}
ACTION_TYPES = sorted({kind for actions in GAME_ACTIONS.values() for kind in actions})
ACTION_FIELDS = sorted(
    {field for actions in GAME_ACTIONS.values() for fields in actions.values() for field in fields}
)
act_scalars = st.one_of(
    scalars,
    st.integers(-3, 120),
    st.sampled_from(["A1", "J10", "start", "picked", "decor", "3x2", "1x1.0", "LM1"]),
)
act_values = st.one_of(act_scalars, st.lists(act_scalars, max_size=20))
actions = st.fixed_dictionaries(
    {"type": st.sampled_from(ACTION_TYPES)},
    optional={**{k: act_values for k in ACTION_FIELDS}, "seat": act_values},
)


@pytest.mark.parametrize("game", GAME_NAMES)
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(batch=st.lists(actions, min_size=1, max_size=8))
def test_fuzzed_actions_of_every_games_vocabulary_never_crash(live_server, game, batch):
    """Any game's action types with fields of any shape, in a running room of each game:
    only `bad_message` or the engine's refusals, never an internal error."""
    with connect(url(live_server), compression=None) as ws:
        say_hello(ws, "Host")
        create = {"t": "create", "game": game, "seats": 3, "options": {"takeover_s": 0}}
        ws.send(msgpack.packb(create))
        for _ in range(2):
            ws.send(msgpack.packb({"t": "add_bot", "level": "random"}))
        ws.send(msgpack.packb({"t": "start"}))
        send_all(ws, [msgpack.packb({"t": "act", "action": a}) for a in batch])
    still_serves(live_server)
