"""A worker's garbage collections (issue 31): each one timed, the figures told with the
beats, added up by the server, and a pause over the aim logged
(server/doors/terminal/collector.py)."""

from __future__ import annotations

import gc
import json
import logging
import os
import socket

import pytest

from modernart.server.doors.terminal import collector
from modernart.server.doors.terminal.collector import PAUSE_AIM, Pauses
from modernart.server.doors.terminal.pool import WorkerPool, WorkerProcess

from .sshterm import open_terminal, ssh_connect
from .test_fairness import COUNTING, importable_tests  # noqa: F401 (a fixture)
from .waiting import eventually


def test_each_collection_is_counted_and_the_figures_start_again_after_a_report() -> None:
    pauses = Pauses()
    pauses.install()
    try:
        gc.collect(0)
        gc.collect()
    finally:
        pauses.uninstall()
    figures = pauses.report()
    assert figures["n"] >= 2 and figures["full"] >= 1 and figures["max_ms"] >= 0
    assert pauses.report() == {"n": 0, "full": 0, "slow": 0, "max_ms": 0.0}
    assert pauses.total[0] >= 2
    gc.collect()  # uninstalled: not counted
    assert pauses.report()["n"] == 0


async def test_the_server_adds_up_the_beats_figures_and_logs_a_slow_pause_once(caplog) -> None:
    pool = WorkerPool(zygote=None, per_worker=8, hang_timeout=0)  # type: ignore[arg-type]
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    worker = WorkerProcess(pool, os.getpid(), ours, -1)
    slow_ms = PAUSE_AIM * 1000 * 3
    beats = [
        {"n": 10, "full": 1, "slow": 0, "max_ms": 3.0},
        {"n": 5, "full": 2, "slow": 1, "max_ms": slow_ms},
        {"n": 5, "full": 1, "slow": 1, "max_ms": slow_ms / 2},
        {"n": "x"},  # a worker's bad figures change nothing
    ]
    with caplog.at_level(logging.WARNING, "modernart.server.doors.terminal"):
        for figures in beats:
            theirs.send(json.dumps({"beat": 1, "gc": figures}).encode())
        theirs.send(json.dumps({"beat": 1}).encode())  # a beat without figures
        worker._read()
    assert worker.gc == {"n": 20, "full": 4, "slow": 2, "max_ms": slow_ms}
    slow = [r for r in caplog.records if "garbage collection paused" in r.getMessage()]
    assert len(slow) == 1 and f"{slow_ms:.0f} ms" in slow[0].getMessage()
    theirs.close()
    await worker.gone.wait()


@pytest.mark.usefixtures("importable_tests")
async def test_a_real_worker_times_its_collections_and_tells_them_with_its_beats(ssh):
    gate = await ssh(app=COUNTING, guests=True)
    term = await open_terminal(await ssh_connect(gate.port, "ann", None, "127.0.0.40"))
    await term.wait_text("ann keys 0.")
    (worker,) = {s.process.worker for s in gate.sessions}
    await eventually(lambda: worker.gc["n"] >= 1, "a collection told with a beat", timeout=30)
    assert worker.gc["n"] >= worker.gc["full"] and worker.gc["max_ms"] >= 0


class Quiet:
    """What the idle collector looks at, scripted: the apps' CPU, waiting input, time."""

    def __init__(self) -> None:
        self.cpu, self.waits, self.now = 0.0, False, 0.0


def full_collections(run) -> int:
    """How many collections of the oldest generation `run()` made."""
    pauses = Pauses()
    pauses.install()
    try:
        run()
    finally:
        pauses.uninstall()
    return pauses.report()["full"]


def make_due() -> None:
    while gc.get_count()[2] < collector.DUE:
        gc.collect(1)


@pytest.fixture
async def idle():
    """An idle collector installed in this process, on scripted looks; CPython's own
    thresholds back after the test."""
    state = Quiet()
    collections = collector.IdleCollections(
        lambda: state.cpu, lambda: state.waits, lambda: state.now
    )
    saved = gc.get_threshold()
    collections.install()
    try:
        yield collections, state
    finally:
        collections.uninstall()
    assert gc.get_threshold() == saved


async def test_a_due_full_collection_waits_for_quiet_apps_then_runs_once(idle) -> None:
    """Issue 31: CPython's own full collections ran while a session drew; the worker
    runs them when its apps computed next to nothing and no key or news waits."""
    collections, state = idle
    assert gc.get_threshold()[2] == collector.NEVER  # CPython starts none itself
    make_due()
    state.cpu += 0.05  # the apps drew since the last look: not now
    assert full_collections(collections.look) == 0
    state.waits = True  # quiet apps, but a key waits its turn
    assert full_collections(collections.look) == 0
    state.waits = False
    state.now += 0.2  # the look came late: the loop was busy, or waited for a core
    assert full_collections(collections.look) == 0
    assert full_collections(collections.look) == 1  # quiet and on time: collected
    assert gc.get_count()[2] < collector.DUE
    assert full_collections(collections.look) == 0  # not due any more


async def test_a_worker_never_quiet_still_collects_after_the_latest_wait(idle) -> None:
    collections, state = idle
    make_due()

    def busy_look() -> None:
        state.cpu += 0.05
        collections.look()

    assert full_collections(busy_look) == 0
    state.now += collector.LATEST_S - 0.1
    assert full_collections(busy_look) == 0
    state.now += 0.1
    assert full_collections(busy_look) == 1


async def test_memory_is_handed_back_after_the_next_quiet_full_collection(idle) -> None:
    collections, state = idle
    handed: list[int] = []
    gc.collect()  # nothing due
    collections.soon(lambda: handed.append(collections.full))
    state.cpu += 0.05
    assert full_collections(collections.look) == 0 and handed == []  # not quiet yet
    assert full_collections(collections.look) == 1 and handed == [1]
    assert full_collections(collections.look) == 0 and handed == [1]  # once
