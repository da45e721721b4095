"""A worker's garbage collector (issue 31): the sessions' objects frozen out of its reach
on each beat, reclaimed after a session ends, and every collection's pause told with
the beats (server/doors/terminal/collector.py)."""

from __future__ import annotations

import gc
import json
import logging
import os
import socket
import weakref
from collections.abc import Iterator

import pytest

from modernart.server.doors.terminal.collector import PAUSE_AIM, Collector, Pauses
from modernart.server.doors.terminal.pool import WorkerPool, WorkerProcess

from .sshterm import open_terminal, ssh_connect
from .test_fairness import COUNTING, importable_tests  # noqa: F401 (a fixture)
from .waiting import eventually


class Node:
    """One half of a cycle: only the collector frees it."""

    other: Node | None = None


def cycle() -> Node:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return a


@pytest.fixture
def collector() -> Iterator[Collector]:
    """A collector in this process, which starts with its objects frozen as a worker
    starts with the zygote's; all given back to the collector after."""
    assert gc.get_freeze_count() == 0
    gc.collect()
    gc.freeze()
    made = Collector()
    made.install()
    yield made
    made.pauses.uninstall()
    gc.unfreeze()


def test_a_settle_frees_the_young_garbage_and_freezes_what_survived(collector) -> None:
    young = weakref.ref(cycle())
    kept = cycle()
    collector.settle()
    assert young() is None  # garbage made since the last settle: freed
    assert gc.get_freeze_count() > 0 and not gc.get_objects(generation=2)
    assert collector.grown > 0
    # A frozen cycle that dies later is not seen by the collector any more...
    old = weakref.ref(kept)
    del kept
    gc.collect()
    collector.settle()
    assert old() is not None
    # ... until a reclaim, which freezes again what lives.
    collector.reclaim()
    assert old() is None
    assert gc.get_freeze_count() == collector.base and collector.grown == 0


def test_a_settle_reclaims_once_the_frozen_objects_grew_by_the_share(collector) -> None:
    collector.settle()
    assert collector.reclaims == 0
    kept = [cycle() for _ in range(int(collector.growth * collector.base) + 10)]
    dead = weakref.ref(kept[0])
    collector.settle()  # the frozen objects grew by more than the share: a reclaim
    assert collector.reclaims == 1 and collector.grown == 0
    del kept
    collector.reclaim()
    assert dead() is None


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


async def test_the_server_adds_up_the_beats_figures_and_logs_a_slow_pause_once_a_minute(
    caplog,
) -> None:
    pool = WorkerPool(zygote=None, per_worker=8, hang_timeout=0)  # type: ignore[arg-type]
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    worker = WorkerProcess(pool, os.getpid(), ours, -1)
    slow_ms = PAUSE_AIM * 1000 * 3
    beats = [
        {"n": 10, "full": 1, "slow": 0, "max_ms": 3.0, "frozen": 1000, "reclaims": 0},
        {"n": 5, "full": 2, "slow": 1, "max_ms": slow_ms, "frozen": 1200, "reclaims": 1},
        {"n": 5, "full": 1, "slow": 1, "max_ms": slow_ms, "frozen": 900, "reclaims": 2},
    ]
    with caplog.at_level(logging.WARNING, "modernart.server.doors.terminal"):
        for figures in beats:
            theirs.send(json.dumps({"beat": 1, "gc": figures}).encode())
        worker._read()
    assert worker.gc == {
        "n": 20,
        "full": 4,
        "slow": 2,
        "max_ms": slow_ms,
        "frozen": 900,
        "reclaims": 2,
    }
    slow = [r for r in caplog.records if "garbage collection paused" in r.getMessage()]
    assert len(slow) == 1
    theirs.close()
    await worker.gone.wait()


@pytest.mark.usefixtures("importable_tests")
async def test_a_real_worker_freezes_its_sessions_objects_and_reclaims_after_one_ends(ssh):
    gate = await ssh(app=COUNTING, guests=True)
    terms = []
    for name, address in (("ann", "127.0.0.40"), ("bob", "127.0.0.41")):
        terms.append(await open_terminal(await ssh_connect(gate.port, name, None, address)))
        await terms[-1].wait_text(f"{name} keys 0.")
    (worker,) = {s.process.worker for s in gate.sessions}
    # Its beats say it settles (a full collection of the young each) and keeps what
    # survived frozen: the zygote's objects and its sessions'.
    await eventually(lambda: worker.gc["full"] >= 2 and worker.gc["frozen"] > 0, "settles")
    assert worker.gc["n"] >= worker.gc["full"]
    terms[0].chan.close()  # a session ends: its frozen objects are reclaimed
    await eventually(lambda: worker.gc["reclaims"] >= 1, "a reclaim", timeout=30)
    assert worker.gc["reclaims"] >= 1
