"""Update frames built once per update equal each member's own view (R4, R14 secrecy)."""

from __future__ import annotations

import dataclasses
import pathlib
import random
from typing import Any

import msgpack
import pytest

from modernart.engine.games import GameInfo, get_game
from modernart.engine.modernart import Game, parse_variant
from modernart.engine.modernart.bots import make_bot
from modernart.server.hub import Hub
from modernart.server.rooms.options import RoomOptions, RoomSettings
from modernart.server.rooms.ports import ports_of
from modernart.server.rooms.room import Room
from modernart.server.store.sqlite import Store
from modernart.server.wire.updates import UpdateFrames

ROOM_FIELDS = {"room": "r1", "status": "playing", "deadline_ms": 1234}


def decode(frame: bytes) -> dict[str, Any]:
    return msgpack.unpackb(frame, raw=False, strict_map_key=False)


def with_room_fields(view: dict[str, Any]) -> dict[str, Any]:
    """A view as the server sends it: the room's fields and per-seat presence flags."""
    view = {**view, **ROOM_FIELDS}
    view["seats"] = [
        {**info, "connected": s % 2 == 0, "bot": s == 1, "autopilot": False}
        for s, info in enumerate(view["seats"])
    ]
    return view


def check_frames(game: Any, seq: int, events: list, info: GameInfo | None = None) -> None:
    frames = UpdateFrames(game, seq, events, with_room_fields(game.view(None)), info)
    for seat in range(game.n):
        expected = with_room_fields(game.view(seat))
        got = decode(frames.for_seat(seat))
        assert got == {"t": "update", "seq": seq, "events": events, "view": expected}
    spectators = {"t": "update", "seq": seq, "events": events, "view": frames.public}
    assert decode(frames.for_spectators()) == spectators
    assert frames.public == with_room_fields(game.view(None))


@pytest.mark.parametrize(
    ("players", "variant"),
    [(3, "classic"), (4, "classic"), (5, "classic"), (3, "classic_3p_virtual"), (4, "japanese")],
)
def test_frames_equal_each_seats_view_through_whole_games_R4_R14(players: int, variant: str):
    for seed in range(3):
        game = Game([f"P{i}" for i in range(players)], variant, seed=seed)
        bots = [make_bot("random", seed * 10 + i) for i in range(players)]
        rng = random.Random(seed)
        check_frames(game, 1, [])
        seq = 1
        while not game.finished:
            seat = rng.choice(game.to_act()) if game.phase != "open" or rng.random() < 0.9 else -1
            if seat < 0:
                events = game.apply({"type": "close"})
            else:
                action = bots[seat].choose(game.view(seat))
                assert action is not None
                events = game.apply({"seat": seat, **action})
            seq += 1
            check_frames(game, seq, events)


async def test_room_frames_equal_update_message(tmp_path: pathlib.Path):
    store = Store(tmp_path)
    try:
        settings = RoomSettings(
            4, "t", parse_variant("classic", 4).to_dict(), RoomOptions(bot_delay_ms=0, takeover_s=0)
        )
        room = Room(ports_of(Hub(store)), "r1", settings, None)
        for _ in range(4):
            room.seat_bot("random")
        room.start()
        game = room.game
        assert game is not None
        bots = [make_bot("random", i) for i in range(4)]
        for _ in range(60):
            seat = game.to_act()[0]
            events = game.apply({"seat": seat, **bots[seat].choose(game.view(seat))})
            now = room.clock.time()
            frames = room.update_frames(events, now)
            for member in (0, 1, 2, 3):
                expected = room.update_message(member, events, now)
                assert decode(frames.for_seat(member)) == expected
            assert decode(frames.for_spectators()) == room.update_message(None, events, now)
        room.stop_clocks()
    finally:
        store.close()


def play_through(name: str, players: int, seed: int, **change: Any) -> None:
    """A whole game of random bots, checking every update's frames (built with the
    game's GameInfo, or with `change`s to it)."""
    info = dataclasses.replace(get_game(name), **change)
    game = info.create([f"P{i}" for i in range(players)], seed=seed)
    bots = [info.make_bot("random", seed * 10 + i) for i in range(players)]
    rng = random.Random(seed)
    seq = 1
    check_frames(game, seq, [], info)
    while not game.finished:
        seat = rng.choice(game.to_act())
        action = bots[seat].choose(game.view(seat))
        assert action is not None
        seq += 1
        check_frames(game, seq, game.apply({"seat": seat, **action}), info)


@pytest.mark.parametrize(
    ("name", "players"), [("serengeti", 3), ("serengeti", 5), ("artsociety", 2), ("artsociety", 4)]
)
def test_frames_equal_each_seats_view_in_every_game_S3_A28(name: str, players: int):
    """Serengeti's chips (S3) and Art Society's hands, bids and stacks stay per seat:
    every frame of whole games equals that seat's own view (GameInfo.seat_keys)."""
    for seed in range(2):
        play_through(name, players, seed)


@pytest.mark.parametrize("name", ["serengeti", "artsociety"])
@pytest.mark.parametrize("change", [{"seat_keys": None}, {"seat_view": None}])
def test_without_a_seat_view_frames_are_built_from_whole_views_S3_A28(
    name: str, change: dict[str, Any]
):
    """The fallbacks: without `seat_view` the seat's entries come from `view(seat)`;
    without `seat_keys` each seat's `view(seat)` is packed whole."""
    play_through(name, 3, seed=5, **change)
