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


async def test_sessions_at_once_each_see_their_own_lobby_and_act_alone(ssh):
    gate = await ssh()
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(4)]
    terms = await asyncio.gather(*(lobby(gate, k, f"p{i}") for i, k in enumerate(keys)))
    pids = {s.process.pid for s in gate.sessions}
    assert len(pids) == 4 and None not in pids
    terms[1].send("c")
    await terms[1].wait_text("Create a room")
    await answers(terms[2])
    assert all("Create a room" not in t.text() for i, t in enumerate(terms) if i != 1)
    assert all(f"p{i}" in t.text() for i, t in enumerate(terms) if i != 1), terms[0].text()


@pytest.mark.parametrize(
    ("fault", "settings"),
    [
        (F9, {}),  # an exception in the app
        (F10, {"hang_timeout": 2.0}),  # its event loop blocked
        (F11, {"hang_timeout": 2.0}),  # its event loop spinning
    ],
    ids=["raise", "block", "spin"],
)
async def test_a_faulty_session_leaves_the_others_answering_and_comes_back_to_its_seat(
    ssh, fault, settings
):
    gate = await ssh(app=FAULTY, **settings)
    key, other_key = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    faulty, other = await asyncio.gather(lobby(gate, key, "faulty"), lobby(gate, other_key, "ok"))
    await host_a_room(faulty)
    room_id, seat = seat_of(gate, key)
    assert room_id is not None and seat == 0
    (session,) = [s for s in gate.sessions if s.process.name == "faulty"]
    first_pid = session.process.pid
    faulty.send(fault)
    await answers(other)  # while the fault lasts, or right after it
    # The faulty session's process is replaced on the same channel, back at its seat.
    await faulty.wait(lambda: session.process.pid not in (first_pid, None), "a new process")
    await faulty.wait(lambda: "You host" in faulty.text(), "the seat again")
    assert seat_of(gate, key) == (room_id, 0)
    assert not faulty.closed.is_set()
    await answers(other)


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
    gate = await ssh()
    term = await lobby(gate, key)
    zygote = gate.terminals.zygote
    os.kill(zygote.pid, signal.SIGKILL)
    await zygote.proc.wait()
    await answers(term)  # the running session carries on
    other = await lobby(gate, asyncssh.generate_private_key("ssh-ed25519"), "bob")
    await answers(other)  # and a new one starts from a new zygote
    assert zygote.restarts == 1 and zygote.pid is not None
