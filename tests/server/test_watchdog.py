"""The terminal workers' watchdog (issue 16): a worker whose loop is blocked or computes
without yielding is killed; one that only waits for a core on a busy machine is not
(the third session's 200-session run lost workers, and their sessions' screens, to
CPU starvation alone); beats already waiting in the socket count."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator

import pytest

from modernart.server.doors.terminal.pool import (
    STARVED_FACTOR,
    WorkerPool,
    WorkerProcess,
    main_thread,
    process_cpu,
    stuck,
)

from .waiting import eventually

T = 4.0  # hang_timeout


def test_a_loop_that_computes_without_beating_runs_away() -> None:
    assert stuck(T, T, ("R", 11.5), 10.0).startswith("computing without yielding")
    # Asleep in a C call that computed first (a state caught mid-step) is no excuse.
    assert stuck(T, T, ("S", 12.0), 10.0).startswith("computing without yielding")


def test_a_loop_asleep_without_computing_is_blocked() -> None:
    assert stuck(T, T, ("S", 10.01), 10.0) == "blocked"
    assert stuck(T, T, ("D", 10.0), 10.0) == "blocked"
    assert stuck(T, T, ("T", 10.0), 10.0) == "blocked"  # stopped (SIGSTOP)
    # A key's work, then a blocking call: CPU since the beat, none since the last look.
    assert stuck(T, T, ("S", 10.3), 10.0, lately=0.0) == "blocked"


def test_a_loop_waiting_for_a_core_is_not_killed_until_long_after() -> None:
    # Runnable, with a little CPU now and then: the machine is busy, not the worker.
    assert stuck(T, T, ("R", 10.3), 10.0) is None
    assert stuck(T * STARVED_FACTOR - 0.1, T, ("R", 10.0), 10.0) is None
    # Asleep after some work (waiting for the GIL an app's thread holds, which computes
    # meanwhile): not blocked.
    assert stuck(T, T, ("S", 10.3), 10.0) is None
    assert stuck(T, T, ("S", 10.3), 10.0, lately=0.4) is None
    assert stuck(T * STARVED_FACTOR, T, ("R", 10.3), 10.0) == "no heartbeat"


def test_without_proc_the_wall_clock_alone_decides() -> None:
    assert stuck(T, T, None, 10.0) == "no heartbeat"
    assert stuck(T, T, ("R", 10.0), None) == "no heartbeat"


@pytest.fixture
def child() -> Iterator[Callable[[str], subprocess.Popen]]:
    """`child(code)`: a Python process of its own group (the watchdog kills groups)."""
    procs: list[subprocess.Popen] = []

    def start(code: str) -> subprocess.Popen:
        proc = subprocess.Popen([sys.executable, "-c", code], start_new_session=True)
        procs.append(proc)
        return proc

    yield start
    for proc in procs:
        proc.kill()
        proc.wait()


async def until(condition: Callable[[], bool], what: str) -> None:
    await eventually(condition, what, timeout=30.0, interval=0.02)


async def test_main_thread_reads_a_process_state_and_cpu(child) -> None:
    sleeping = child("import time; time.sleep(600)")
    spinning = child("while True: pass")
    await until(lambda: (main_thread(spinning.pid) or ("", 0.0))[1] >= 0.3, "the spin's CPU")
    state, cpu = main_thread(spinning.pid) or ("", 0.0)
    assert state == "R" and cpu >= 0.3
    await until(lambda: (main_thread(sleeping.pid) or ("",))[0] == "S", "the sleep")
    assert (main_thread(sleeping.pid) or ("", 9.0))[1] < 0.5
    assert main_thread(2**22 + 12345) is None  # no such process


def watched(pid: int) -> tuple[WorkerProcess, socket.socket]:
    """A WorkerProcess for `pid`, with its watchdog disarmed (its checks are made by
    hand) and the worker's end of its socket."""
    pool = WorkerPool(zygote=None, per_worker=1, hang_timeout=0)  # type: ignore[arg-type]
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    worker = WorkerProcess(pool, pid, ours, -1)
    pool.hang_timeout = T
    return worker, theirs


async def let_go(worker: WorkerProcess, theirs: socket.socket) -> None:
    """The worker's end closes: the server side sees it gone (and stops watching)."""
    theirs.close()
    await worker.gone.wait()


async def test_beats_waiting_in_the_socket_count_before_the_watchdog_judges(child) -> None:
    proc = child("import time; time.sleep(600)")  # asleep: blocked, were it silent
    await until(lambda: (main_thread(proc.pid) or ("",))[0] == "S", "the sleep")
    worker, theirs = watched(proc.pid)
    worker.last_beat = time.monotonic() - 2 * T  # the server's loop was busy meanwhile
    theirs.send(json.dumps({"beat": 1}).encode())
    worker._watch()
    assert proc.poll() is None and time.monotonic() - worker.last_beat < T
    # Silent as well: a loop asleep that did not beat is blocked, and killed.
    worker.last_beat = time.monotonic() - 2 * T
    worker._watch()
    assert proc.wait(10) == -9
    await let_go(worker, theirs)


async def test_a_loop_that_worked_then_blocked_is_killed_at_the_next_look(child) -> None:
    """F10's case in test_terminal_faults: the app handled a key (CPU since its beat),
    then blocked. Its process used no CPU since the watchdog's previous look: blocked,
    killed then, not left for the starved loop's six timeouts."""
    proc = child("x = sum(range(10**7)); import time; time.sleep(600)")
    await until(lambda: (main_thread(proc.pid) or ("",))[0] == "S", "the sleep")
    worker, theirs = watched(proc.pid)
    cpu = (main_thread(proc.pid) or ("", 0.0))[1]
    worker.beat_cpu = cpu - 0.3  # it worked since its beat
    worker.last_beat = time.monotonic() - T
    assert worker.looked_cpu == process_cpu(proc.pid)
    worker._watch()
    assert proc.wait(10) == -9
    await let_go(worker, theirs)


async def test_a_starved_worker_is_spared_and_a_runaway_one_killed(child, caplog) -> None:
    proc = child("while True: pass")
    await until(lambda: (main_thread(proc.pid) or ("", 0.0))[1] >= 0.1, "the spin's CPU")
    worker, theirs = watched(proc.pid)
    # Quiet for the timeout, but little CPU used since its beat: it waits for a core.
    worker.last_beat = time.monotonic() - T
    worker.beat_cpu = (main_thread(proc.pid) or ("", 0.0))[1]
    worker._watch()
    assert proc.poll() is None
    assert "waiting for CPU" in caplog.text
    # A second of CPU since its beat (a quarter of the timeout) without beating: killed.
    worker.beat_cpu -= T
    worker._watch()
    assert proc.wait(10) == -9
    assert "computing without yielding" in caplog.text
    await let_go(worker, theirs)
