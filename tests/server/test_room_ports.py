"""A room is a unit with ports (issue 29): given stand-ins for its store, bots, lobby
and clock it seats, starts, plays, times turns and ends a game with no hub, no
socket and no event loop; and its modules import nothing of the hub's."""

from __future__ import annotations

import ast
import logging
import pathlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgpack
import pytest

from modernart.engine.modernart import parse_variant
from modernart.engine.modernart.bots import make_bot
from modernart.server.rooms.botpool import PoolStats
from modernart.server.rooms.options import RoomOptions, RoomSettings
from modernart.server.rooms.ports import RoomPorts
from modernart.server.rooms.room import FINISHED, PLAYING, Room
from modernart.server.store.errors import StoreError

from .test_layout import TOP, imports, module_name
from .vclock import ManualClock


class MemoryStore:
    """The store's room calls, kept in memory; `refuse` makes the next append fail."""

    def __init__(self) -> None:
        self.started: list[tuple[str, dict, dict, int]] = []
        self.actions: list[tuple[int, dict[str, Any], int]] = []
        self.seqs: list[int] = []
        self.saved_rooms: list[str] = []
        self.refuse = False

    def start_room(self, room_id: str, members: dict, header: dict, seq: int) -> None:
        self.started.append((room_id, members, header, seq))

    def append_action(self, room_id: str, idx: int, action: dict[str, Any], seq: int) -> None:
        if self.refuse:
            self.refuse = False
            raise StoreError("disk full")
        self.actions.append((idx, action, seq))

    def saved(self, room_id: str) -> None:
        self.saved_rooms.append(room_id)

    def save_seq(self, room_id: str, seq: int) -> None:
        self.seqs.append(seq)


class NoWorkers:
    """Bots' workers: none (the room's bots here never search)."""

    budget_s = 1.0
    worlds = None

    def __init__(self) -> None:
        self.stats = PoolStats()

    def warm(self, game: str) -> None:
        raise AssertionError("no searching bot sits here")

    def free(self) -> bool:
        return False

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        raise AssertionError("no searching bot sits here")


@dataclass
class RecordingLobby:
    said: list[tuple[str, Any]] = field(default_factory=list)

    def rooms_changed(self) -> None:
        self.said.append(("rooms_changed", None))

    def status_changed(self, room: Any, was: str) -> None:
        self.said.append(("status_changed", (was, room.status)))

    def attendance_changed(self, room: Any) -> None:
        self.said.append(("attendance_changed", None))

    def game_over(self, room: Any) -> dict[str, Any] | None:
        self.said.append(("game_over", None))
        return {"type": "rated", "ratings": []}


@dataclass
class Player:
    id: str
    name: str
    room: Any = None
    seat: int | None = None


@dataclass
class RecordingMember:
    """A connection: what the room sends it, decoded."""

    got: list[dict[str, Any]] = field(default_factory=list)

    def send(self, message: dict[str, Any]) -> None:
        self.got.append(message)

    def send_raw(self, data: bytes, room: Any = None) -> None:
        self.got.append(msgpack.unpackb(data))

    def send_framed(self, frame: bytes, room: Any = None) -> None:
        raise AssertionError("no spectator here")

    def updates(self) -> list[dict[str, Any]]:
        return [m for m in self.got if m["t"] == "update"]


TIMEOUT_S = 30


@pytest.fixture
def table(caplog: pytest.LogCaptureFixture):
    """A room of one human (connected) and two random bots, on virtual time."""
    store, lobby, clock = MemoryStore(), RecordingLobby(), ManualClock()
    ports = RoomPorts(store, NoWorkers(), lobby, clock=clock)
    options = RoomOptions(bot_delay_ms=0, takeover_s=0, turn_timeout_s=TIMEOUT_S)
    settings = RoomSettings(3, "t", parse_variant("classic", 3).to_dict(), options)
    room = Room(ports, "r1", settings, None)
    seat = room.seat_human(Player("p1", "Ann"))
    room.seat_bot("random")
    room.seat_bot("random")
    member = RecordingMember()
    room.attach(seat, member)
    yield room, seat, member, store, lobby, clock
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_room_plays_a_game_through_its_ports_alone(table):
    room, seat, member, store, lobby, clock = table
    room.start()
    assert store.started[0][0] == "r1" and room.status == PLAYING
    assert ("status_changed", ("waiting", PLAYING)) in lobby.said
    me = make_bot("random", seat)
    timed_out = False
    while not room.game.finished:
        if seat in room.game.to_act() and not room.game.realtime():
            if not timed_out:  # once, the turn clock plays for the human
                sent = len(member.updates())
                clock.advance(TIMEOUT_S)
                timed_out = True
                timeout = [{"type": "timeout", "seat": seat}]
                assert [u for u in member.updates()[sent:] if u["events"][:1] == timeout]
                continue
            room.act(seat, me.choose(room.game.view(seat)))
        else:
            clock.next()  # a bot's move, the hammer (the human bids in no auction)
    assert timed_out
    game = room.game
    assert [(i, a) for i, a, _ in store.actions] == list(enumerate(game.actions))
    assert store.saved_rooms == ["r1"] and room.status == FINISHED
    assert lobby.said[-3:] == [
        ("status_changed", (PLAYING, FINISHED)),
        ("rooms_changed", None),
        ("game_over", None),
    ]
    updates = member.updates()
    assert [u["seq"] for u in updates] == list(range(1, room.seq + 1))
    assert updates[-1]["events"][-1] == {"type": "rated", "ratings": []}
    assert updates[-1]["view"]["you"] == seat


def test_an_action_the_store_refuses_does_not_stand_and_the_clock_backs_off(table):
    room, seat, member, store, _, clock = table
    room.start()
    while seat not in room.game.to_act() or room.game.realtime():
        clock.next()
    clock.advance(0)  # what else is due now (bots' sealed bids)
    actions, sent = len(room.game.actions), len(member.updates())
    store.refuse = True
    with pytest.raises(StoreError):
        room.act(seat, make_bot("random", seat).choose(room.game.view(seat)))
    assert len(room.game.actions) == actions and len(member.updates()) == sent
    timeout = {"type": "timeout", "seat": seat}
    clock.advance(TIMEOUT_S)  # the turn clock stopped: the retry re-arms it a second later
    assert not [u for u in member.updates()[sent:] if timeout in u["events"]]
    clock.advance(1)
    assert [u for u in member.updates()[sent:] if u["events"][:1] == [timeout]]


# The modules a Room is made of (its parts, found from its classes, and what they
# share), and its ports.
ROOM_MODULES = sorted(
    {
        TOP.joinpath("server", *c.__module__.split(".")[2:]).with_suffix(".py")
        for c in Room.__mro__[:-1]
    }
    | {TOP / "server" / "rooms" / "base.py", TOP / "server" / "rooms" / "ports.py"}
)


@pytest.mark.parametrize("path", ROOM_MODULES, ids=lambda p: p.name)
def test_a_rooms_modules_import_nothing_of_the_hubs(path: pathlib.Path):
    """Only the ports: not the hub, nor what the hub holds (connections, the store,
    players, the lobby's listing); and no `.hub` attribute is reached for."""
    held = {"hub", "wire.session", "store.sqlite", "people.players", "lobby", "rooms.rematch"}
    held |= {"rooms.ends", "wire.app"}
    names = imports(path)
    packages = {f"modernart.server.{m}" for m in held}
    assert not {n for n in names for p in packages if n == p or n.startswith(p + ".")}
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "hub"]
    assert module_name(path).startswith("modernart.server.rooms.")
