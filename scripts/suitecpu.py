#!/usr/bin/env python3
"""Where the test suite's CPU goes (issue 29): each test's CPU, its own and its children's.

The suite is CPU-bound on two cores (docs/decisions/29-vtime.md), so its wall time follows
its CPU; `--durations` shows the wall time only, which on a loaded machine says more
about the neighbours than about the test. Run the suite with this file as a plugin:

    SUITE_CPU_DIR=/tmp/cpu PYTHONPATH=scripts scripts/test -p suitecpu
    python scripts/suitecpu.py /tmp/cpu [--top 40]

Each xdist worker appends one line per test (set-up, call and tear-down together) to a
file of its own: the node id, the worker's CPU (user + sys) and its reaped children's
(servers, browsers, OpenSSH: `RUSAGE_CHILDREN` counts a child once it is waited for), and
the wall time. The report sums them per test, per file and in all. The terminal doors' zygotes
are forked by the test process's nursery (tests/nursery.py), which is reaped only when the
worker ends: their sessions' CPU counts toward each worker's last test.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import pathlib
import resource
import time
from collections.abc import Iterator

import pytest


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    folder = os.environ.get("SUITE_CPU_DIR")
    if not folder:
        yield
        return
    own, children, wall = (
        _cpu(resource.RUSAGE_SELF),
        _cpu(resource.RUSAGE_CHILDREN),
        time.monotonic(),
    )
    yield
    line = {
        "test": item.nodeid,
        "own": _cpu(resource.RUSAGE_SELF) - own,
        "children": _cpu(resource.RUSAGE_CHILDREN) - children,
        "wall": time.monotonic() - wall,
    }
    path = pathlib.Path(folder) / f"{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as out:
        out.write(json.dumps(line) + "\n")


def report(folder: pathlib.Path, top: int) -> None:
    tests = [json.loads(line) for path in folder.glob("*.jsonl") for line in path.open()]
    total = sum(t["own"] + t["children"] for t in tests)
    print(f"{len(tests)} tests, CPU {total:.0f} s (own {sum(t['own'] for t in tests):.0f} s)")
    by_file: collections.Counter[str] = collections.Counter()
    for t in tests:
        by_file[t["test"].split("::")[0]] += t["own"] + t["children"]
    print(f"\nfiles by CPU (top {top}):")
    for name, cpu in by_file.most_common(top):
        print(f"  {cpu:7.1f} s {cpu / total:5.1%}  {name}")
    print(f"\ntests by CPU (top {top}):")
    for t in sorted(tests, key=lambda t: -(t["own"] + t["children"]))[:top]:
        cpu = t["own"] + t["children"]
        print(f"  {cpu:6.1f} s (children {t['children']:5.1f}, wall {t['wall']:5.1f})  {t['test']}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=pathlib.Path)
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args()
    report(args.folder, args.top)
