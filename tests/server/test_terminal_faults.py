"""Terminal sessions (issue 16): many at once, each its own; one session's fault (an
exception, a blocked or spinning event loop, its process killed) leaves the others
answering, and the faulty session comes back on its terminal, at its seat."""

from __future__ import annotations

import asyncio
import os
import pathlib
import signal

import asyncssh
import pytest

from .sshgate import lobby, seat_of
from .sshterm import Terminal

F9, F10, F11 = "\x1b[20~", "\x1b[21~", "\x1b[23~"
FAULTY = "tests.server.faulty_app:FaultyApp"
ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def importable_tests(monkeypatch: pytest.MonkeyPatch) -> None:
    """The zygote (a subprocess) imports the faulty app from this checkout's tests."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT))


async def answers(term: Terminal) -> None:
    """The session reacts to a key: 'c' opens the create dialog, Escape closes it."""
    term.send("c")
    await term.wait_text("Create a room")
    term.send("\x1b")
    await term.wait(lambda: "Create a room" not in term.text(), "the dialog closed")


async def host_a_room(term: Terminal) -> None:
    term.send("c")
    await term.wait_text("Create a room")
    term.send("\x13")  # ctrl+s: create with the defaults
    await term.wait_text("You host")


def by_worker(gate, names: list[str]) -> dict[int, list[str]]:
    """The sessions' names by the pid of the worker that holds them."""
    workers: dict[int, list[str]] = {}
    for session in sorted(gate.sessions, key=lambda s: names.index(s.process.name)):
        workers.setdefault(session.process.pid, []).append(session.process.name)
    return workers


def session_named(gate, name: str):
    (session,) = [s for s in gate.sessions if s.process.name == name]
    return session.process


async def four_in_two_workers(gate):
    """Four sessions, two to a worker: {name: (key, terminal)} and the workers' names."""
    names = [f"p{i}" for i in range(4)]
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in names]
    terms = await asyncio.gather(*(lobby(gate, k, n) for k, n in zip(keys, names, strict=True)))
    workers = by_worker(gate, names)
    assert sorted(len(w) for w in workers.values()) == [2, 2] and None not in workers
    return dict(zip(names, zip(keys, terms, strict=True), strict=True)), list(workers.values())


async def test_sessions_at_once_each_see_their_own_lobby_and_act_alone(ssh):
    gate = await ssh(sessions_per_worker=2)
    sessions, (first, second) = await four_in_two_workers(gate)
    # Each is an app of its own, also beside another in the same process.
    a, b = (sessions[name][1] for name in first)
    a.send("c")
    await a.wait_text("Create a room")
    await answers(b)
    assert "Create a room" in a.text()
    assert all("Create a room" not in t.text() for name, (_, t) in sessions.items() if t is not a)
    assert all(name in t.text() for name, (_, t) in sessions.items() if t is not a)
    await answers(sessions[second[0]][1])


async def test_a_window_change_resizes_only_its_own_session(ssh):
    gate = await ssh(sessions_per_worker=2)
    sessions, (first, _) = await four_in_two_workers(gate)
    a, b = (sessions[name][1] for name in first)
    a.resize(100, 30)
    await a.wait(lambda: "Quit" in a.screen.display[29], "the footer on row 30")
    await answers(b)
    # b's redraw after the dialog may come in more than one frame: wait for its footer.
    await b.wait(lambda: "Quit" in b.screen.display[23], "b's footer on row 24")
    assert len(b.screen.display) == 24 and b.screen.columns == 80


async def test_an_exception_in_one_app_leaves_its_neighbour_answering_and_returns_to_its_seat(ssh):
    gate = await ssh(app=FAULTY, sessions_per_worker=2)
    sessions, (first, _) = await four_in_two_workers(gate)
    faulty_name, neighbour_name = first
    (key, faulty), (_, neighbour) = sessions[faulty_name], sessions[neighbour_name]
    await host_a_room(faulty)
    room_id, seat = seat_of(gate, key)
    assert room_id is not None and seat == 0
    session = session_named(gate, faulty_name)
    pid, slot = session.pid, session.slot
    faulty.send(F9)
    await faulty.wait(lambda: session.slot not in (slot, None), "the app started again")
    await faulty.wait(lambda: "You host" in faulty.text(), "the seat again")
    assert seat_of(gate, key) == (room_id, 0)
    # Only the app ended: it starts again in the same worker, beside its neighbour.
    assert session.pid == pid == session_named(gate, neighbour_name).pid
    await answers(neighbour)
    assert not faulty.closed.is_set() and not neighbour.closed.is_set()


@pytest.mark.parametrize(
    ("fault", "why"), [(F10, "blocked"), (F11, "computing without yielding")], ids=["block", "spin"]
)
async def test_a_stuck_worker_leaves_the_other_workers_answering_and_its_sessions_return(
    ssh, fault, why, caplog
):
    gate = await ssh(app=FAULTY, sessions_per_worker=2, hang_timeout=4.0)
    sessions, (stuck, other) = await four_in_two_workers(gate)
    for name in stuck:  # both sessions of the worker that will be stuck sit at a table
        await host_a_room(sessions[name][1])
    seats = {name: seat_of(gate, sessions[name][0]) for name in stuck}
    assert all(room is not None and seat == 0 for room, seat in seats.values())
    stuck_pid = session_named(gate, stuck[0]).pid
    assert session_named(gate, stuck[1]).pid == stuck_pid  # the fault stops both
    sessions[stuck[0]][1].send(fault)
    # While the worker is stuck (its watchdog waits 4 s), another worker's sessions answer
    # (on a loaded machine their answers may come after it was killed: both are fine).
    await asyncio.gather(*(answers(sessions[name][1]) for name in other))
    # The stuck worker is killed; its two sessions start again in another, at their seats.
    for name in stuck:
        term = sessions[name][1]
        session = session_named(gate, name)
        await term.wait(lambda s=session: s.pid not in (stuck_pid, None), "a new worker")
        await term.wait(lambda t=term: "You host" in t.text(), "the seat again")
        assert seat_of(gate, sessions[name][0]) == seats[name]
        assert not term.closed.is_set()
    # Killed as stuck, not after the six timeouts a loop starved of CPU is given.
    assert f"worker {stuck_pid}: {why}" in caplog.text
    await asyncio.gather(*(answers(sessions[name][1]) for name in other))


async def test_a_session_that_keeps_failing_is_closed_with_a_message(ssh, key):
    gate = await ssh(app=FAULTY)
    term = await lobby(gate, key)
    (session,) = gate.sessions
    for _ in range(4):  # three restarts are allowed within a minute; the fourth fault ends it
        pid = session.process.pid
        await term.wait(lambda: "Rooms" in term.text(), "the lobby")
        term.send(F9)
        await term.wait(
            lambda pid=pid: term.closed.is_set() or session.process.pid not in (pid, None),
            "a restart or the end",
        )
    await term.wait_closed()
    assert "keeps failing" in term.output() and term.exit_status == 1
    assert not gate.sessions


async def test_a_killed_zygote_takes_no_session_with_it_and_is_started_again(ssh, key):
    gate = await ssh(sessions_per_worker=1)  # a new session needs a new worker
    term = await lobby(gate, key)
    zygote = gate.terminals.zygote
    os.kill(zygote.pid, signal.SIGKILL)
    await zygote.proc.wait()
    await answers(term)  # the running session carries on
    other = await lobby(gate, asyncssh.generate_private_key("ssh-ed25519"), "bob")
    await answers(other)  # and a new one starts from a new zygote
    assert zygote.restarts == 1 and zygote.pid is not None


async def test_a_guest_whose_app_failed_comes_back_as_itself_at_its_seat(ssh):
    """A guest has no key: its identity is the one its client's `hello` was given, which
    the session keeps (Terminals.welcomed), so the app started again after a fault says
    hello with that token: back at its seat, not asked for another name (its own is
    taken, by itself)."""
    gate = await ssh(app=FAULTY, guests=True)
    guest = await lobby(gate, None, "gus")
    await host_a_room(guest)
    (session,) = [s.process for s in gate.sessions]
    assert session.token is not None  # learnt from the client's welcome
    slot = session.slot
    guest.send(F9)
    await guest.wait(lambda: session.slot not in (slot, None), "the app started again")
    await guest.wait(lambda: "You host" in guest.text(), "the seat again")
    assert "another player's name" not in guest.text()
    assert not guest.closed.is_set()
