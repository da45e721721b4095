"""Fairness inside the shared terminal workers (issue 33 item 7): where sessions are
placed, each session's share of its worker's input, and a worker's memory."""

from __future__ import annotations

import asyncio
import pathlib
import re
import time

import asyncssh
import pytest

from modernart.server.terminal import fairness

from .sshgate import lobby
from .sshterm import Terminal, open_terminal, ssh_connect
from .waiting import eventually


def workers_of(gate) -> dict[int, list[str]]:
    """The sessions' peers by the pid of the worker that holds them."""
    workers: dict[int, list[str]] = {}
    for session in gate.sessions:
        workers.setdefault(session.process.pid, []).append(session.process.peer)
    return workers


async def test_sessions_of_one_address_never_fill_a_worker(ssh):
    gate = await ssh()  # 8 sessions a worker, 4 an address, 2 of an address a worker
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(4)]
    await asyncio.gather(*(lobby(gate, k, f"m{i}", "127.0.0.7") for i, k in enumerate(keys)))
    spread = workers_of(gate)
    assert sorted(len(peers) for peers in spread.values()) == [2, 2]
    # Another address joins a worker that has room; it is not given one of its own.
    await lobby(gate, asyncssh.generate_private_key("ssh-ed25519"), "n", "127.0.0.8")
    after = workers_of(gate)
    assert len(after) == 2 and sorted(len(p) for p in after.values()) == [2, 3]


# ------------------------------------------------------- each session's share of input

COUNTING = "tests.server.counting_app:CountingApp"
ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture
def importable_tests(monkeypatch: pytest.MonkeyPatch) -> None:
    """The zygote (a subprocess) imports the counting app from this checkout's tests."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT))


def keys_seen(term: Terminal, name: str) -> int:
    found = re.search(rf"{name} keys (\d+)\.", term.text())
    return int(found[1]) if found else -1


async def counting(gate, name: str, address: str) -> Terminal:
    term = await open_terminal(await ssh_connect(gate.port, name, None, address))
    await term.wait_text(f"{name} keys 0.")
    return term


@pytest.mark.usefixtures("importable_tests")
async def test_a_flooding_session_is_served_at_its_share_after_its_neighbour_and_loses_nothing(
    ssh,
):
    gate = await ssh(app=COUNTING, guests=True)
    hostile = await counting(gate, "hostile", "127.0.0.20")
    neighbour = await counting(gate, "neighbour", "127.0.0.21")
    assert len(workers_of(gate)) == 1  # both in one worker
    flood = 400
    start = time.monotonic()
    hostile.send("x" * flood)  # arrives in one read or a few: thousands of keys a second
    for i in range(1, 6):  # the neighbour's keys are answered while the flood waits
        neighbour.send("x")
        await neighbour.wait_text(f"neighbour keys {i}.")
    elapsed = time.monotonic() - start
    seen = keys_seen(hostile, "hostile")
    assert seen < flood
    # At most its bucket and the whole worker's rate since (a bound, not a speed).
    assert seen <= fairness.BURST + fairness.WORKER_RATE * elapsed
    # Nothing is lost: every key arrives, in the end.
    await hostile.wait_text(f"hostile keys {flood}.", timeout=120)
    neighbour.send("x")
    await neighbour.wait_text("neighbour keys 6.")


def test_a_share_is_the_worker_rate_split_between_typing_sessions_and_costs_by_size():
    now = [0.0]
    shares = fairness.InputShares(rate=60.0, burst=30.0, clock=lambda: now[0])
    small = shares.join(lambda: 80 * 24)
    large = shares.join(lambda: 300 * 100)
    assert small.cost() == 1.0 and large.cost() == 300 * 100 / fairness.BASE_CELLS
    assert sum(small.take() == 0.0 for _ in range(40)) == 30  # its burst, then it waits
    wait = small.take()
    assert wait > 0  # alone typing: the whole worker's rate refills it
    now[0] += wait
    assert small.take() == 0.0
    assert sum(large.take() == 0.0 for _ in range(10)) == 5  # 6.25 an event: 5 in 30
    # Two sessions typing share the worker's rate: each refills at half of it.
    assert shares.each(now[0]) == 30.0
    now[0] += 10.0  # neither typed for a while: a full bucket, the rate for whoever types
    assert shares.each(now[0]) == 60.0 and small.take() == 0.0 and small.tokens == 29.0


# ------------------------------------------------------------------ a worker's memory


def session_of(gate, name: str):
    (session,) = [s.process for s in gate.sessions if s.process.name == name]
    return session


@pytest.mark.usefixtures("importable_tests")
async def test_a_worker_over_its_memory_limit_ends_its_heaviest_session_not_its_neighbour(ssh):
    # Every worker is over 1 MB: the reading (called here, not every 5 s) finds it over.
    gate = await ssh(app=COUNTING, guests=True, measure_every=0, worker_max_mb=1)
    heavy = await counting(gate, "heavy", "127.0.0.30")
    calm = await counting(gate, "calm", "127.0.0.31")
    calm.send("x")
    await calm.wait_text("calm keys 1.")
    pid = session_of(gate, "calm").pid
    assert session_of(gate, "heavy").pid == pid
    heavy.send("x" * 2000)  # given far more than its neighbour lately
    await eventually(lambda: session_of(gate, "heavy").fed == 2000)
    await gate.terminals.measure()
    await heavy.wait_closed()
    assert "more than its share of the server's memory" in heavy.output()
    # The neighbour stays, in the same worker, and answers.
    calm.send("x")
    await calm.wait_text("calm keys 2.")
    assert session_of(gate, "calm").pid == pid and not calm.closed.is_set()
