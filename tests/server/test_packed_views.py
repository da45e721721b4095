"""A room's update frames are the bytes the previous fan-out packed (issue 21, fifth
session): the views packed once per state and used again for updates that are no
action (`going`, a spectator count, presence), and each frame joined with its
WebSocket header, give every member exactly the frame of main's `UpdateFrames`
(kept below as the reference) — so no secret moves between seats (R4, S3, A28)."""

from __future__ import annotations

import asyncio
import pathlib
import random
from typing import Any

import msgpack
import pytest

from modernart.engine.games import GameInfo, get_game
from modernart.server.codec import encode, encode_entries, map_header, ws_frame
from modernart.server.hub import Hub
from modernart.server.options import RoomOptions, RoomSettings
from modernart.server.room import Room
from modernart.server.store import Store
from modernart.server.updates import SEAT_FLAGS


def reference_frames(
    game: Any, seq: int, events: list, public: dict[str, Any], info: GameInfo
) -> tuple[list[bytes], bytes]:
    """Main's frames (server/updates.py before the packed views): per seat, and the
    spectators' one, each framed as `Conn.send_raw` framed it."""
    intro = map_header(4) + encode_entries({"t": "update", "seq": seq, "events": events})
    keys = info.seat_keys

    def full_view(seat: int) -> dict[str, Any]:
        view = game.view(seat)
        view["seats"] = [
            {**mine, **{k: room[k] for k in SEAT_FLAGS if k in room}}
            for mine, room in zip(view["seats"], public["seats"], strict=True)
        ]
        return {**public, **view}

    if keys is None:
        seats = [intro + encode("view") + encode(full_view(s)) for s in range(game.n)]
        return [ws_frame(f) for f in seats], ws_frame(intro + encode("view") + encode(public))
    shared = {k: v for k, v in public.items() if k not in keys}
    head = intro + encode("view") + map_header(len(shared) + len(keys)) + encode_entries(shared)
    seats = []
    for seat in range(game.n):
        if info.seat_view is not None:
            secrets = info.seat_view(game, seat, public)
        else:
            view = full_view(seat)
            secrets = {k: view[k] for k in keys}
        seats.append(ws_frame(head + encode_entries(secrets)))
    return seats, ws_frame(head + encode_entries({k: public[k] for k in keys}))


class Recorder:
    """A member: keeps the frames the room queues for it."""

    def __init__(self) -> None:
        self.frames: list[bytes] = []

    def send(self, message: dict[str, Any]) -> None:
        self.send_raw(encode(message))

    def send_raw(self, data: bytes, room: Any = None) -> None:
        self.send_framed(ws_frame(data), room)

    def send_framed(self, frame: bytes, room: Any = None) -> None:
        self.frames.append(frame)


class FrozenLoop:
    """The running loop with a clock the test moves: the reference is built at the
    same `now` as the room's frames (their `deadline_ms`)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.real, self.now = loop, loop.time()

    def time(self) -> float:
        return self.now

    def call_later(self, delay: float, callback: Any, *args: Any) -> asyncio.TimerHandle:
        return self.real.call_at(self.now + delay, callback, *args)

    def call_at(self, when: float, callback: Any, *args: Any) -> asyncio.TimerHandle:
        return self.real.call_at(when, callback, *args)


def payload(frame: bytes) -> dict[str, Any]:
    head = 4 if frame[1] == 126 else 2
    return msgpack.unpackb(frame[head:], raw=False, strict_map_key=False)


def check(room: Room, seated: list[Recorder], watchers: list[Recorder], now: float) -> int:
    """Every member got one new frame, the reference's bytes for its seat; its count."""
    frames = [m.frames.pop() for m in seated + watchers]
    assert all(not m.frames for m in seated + watchers)
    message = payload(frames[0])
    assert room.game is not None
    public = room.view_for(None, now)
    seats, spectators = reference_frames(
        room.game, message["seq"], message["events"], public, room.info
    )
    assert frames[: len(seated)] == seats
    assert frames[len(seated) :] == [spectators] * len(watchers)
    for seat, frame in enumerate(frames[: len(seated)]):
        assert payload(frame)["view"] == room.view_for(seat, now)  # R4: its own view only
    return 1


@pytest.mark.parametrize(
    ("name", "players"), [("modernart", 4), ("modernart", 3), ("serengeti", 4), ("artsociety", 3)]
)
async def test_frames_are_the_reference_bytes_through_whole_games_R4_S3_A28(
    tmp_path: pathlib.Path, name: str, players: int
):
    info = get_game(name)
    store = Store(tmp_path)
    try:
        for seed in range(2):
            rng = random.Random(seed)
            settings = RoomSettings(
                players,
                "t",
                info.parse_variant(None, players),
                RoomOptions(bot_delay_ms=0, takeover_s=0),
                game=name,
            )
            room = Room(Hub(store), f"r{seed}", settings, None)
            loop = FrozenLoop(asyncio.get_running_loop())
            room._loop = loop  # type: ignore[assignment]
            for _ in range(players):
                room.seat_bot("random")
            seated = [Recorder() for _ in range(players)]
            for s, conn in zip(room.seats, seated, strict=True):
                assert s is not None
                s.conn = conn
            watchers: list[Recorder] = []
            room.start()
            checked = check(room, seated, watchers, loop.now)
            game = room.game
            assert game is not None
            bots = [info.make_bot("random", seed * 10 + i) for i in range(players)]
            reused = 0
            while not game.finished:
                loop.now += rng.choice((0.0, 0.05, 0.3))
                roll = rng.random()
                if roll < 0.15:  # no action: the views packed for the last update again
                    room.notify([{"type": "going", "stage": 1, "deadline_ms": 5}])
                    reused += 1
                elif roll < 0.2:
                    watcher = Recorder()
                    room.spectators.add(watcher)
                    watchers.append(watcher)
                    room.spectators_changed()
                elif roll < 0.25:
                    seat = room.seats[rng.randrange(players)]
                    assert seat is not None
                    seat.left = not seat.left  # a room field in the views: packed afresh
                    room.notify([{"type": "left", "seat": 0}])
                elif game.realtime() and roll < 0.35:
                    room._hammer_falls()
                else:
                    seat_no = rng.choice(game.to_act())
                    action = bots[seat_no].choose(game.view(seat_no))
                    assert action is not None
                    room.act(seat_no, action)
                checked += check(room, seated, watchers, loop.now)
                game = room.game
                assert game is not None
            room.stop_clocks()
            assert reused > 5 and checked > 50
    finally:
        store.close()
