"""Every garbage collection's pause in a server's terminal workers, timed from outside
(issue 31), the same way for any design (a baseline commit's tree has no hook of its own).

`hook(into)` writes a `sitecustomize.py` into `into`; a server started with `into` first
on its PYTHONPATH and `GC_PAUSES_DIR` set imports it in every Python process it starts.
Only processes forked without exec (the zygote's workers: the zygote itself, the server
and the bots' processes are exec'ed and import it with their own pid) record: each
collection's generation, pause (wall clock: what the sessions wait) and CPU time (its
own cost: on a loaded machine a pause also waits for a core), a line each, appended to
`GC_PAUSES_DIR/<pid>`, and whether the worker started it when its sessions were quiet
(server/doors/terminal/collector.py's `quietly`; a tree without it: never).
`read(directory)` gathers them; `summary()` says what a report shows.
"""

from __future__ import annotations

import pathlib
from dataclasses import dataclass, field

ENV = "GC_PAUSES_DIR"
AIM_MS = 20.0

SITECUSTOMIZE = """
import os

if os.environ.get("GC_PAUSES_DIR"):
    import gc
    import sys
    import time

    _home = os.getpid()  # the process that imported this: not recorded
    _out = [None, -1]  # (fd, pid it was opened in)
    _start = [0.0, 0.0]

    def _gc_pause(phase, info, perf=time.perf_counter, cpu=time.thread_time):
        if phase == "start":
            _start[0], _start[1] = perf(), cpu()
            return
        pause, used = perf() - _start[0], cpu() - _start[1]
        pid = os.getpid()
        if pid == _home:
            return
        if _out[1] != pid:
            path = os.path.join(os.environ["GC_PAUSES_DIR"], str(pid))
            _out[0] = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
            _out[1] = pid
        idle = sys.modules.get("modernart.server.doors.terminal.collector")
        quiet = int(bool(getattr(idle, "quietly", False)))
        generation = info["generation"]
        live = len(gc.get_objects(2)) if generation == 2 else 0  # after the pause is timed
        line = b"%d %.3f %.3f %d %d %d\\n" % (
            generation, pause * 1000, used * 1000, quiet, info["collected"], live
        )
        os.write(_out[0], line)

    gc.callbacks.append(_gc_pause)
"""


def hook(into: pathlib.Path) -> pathlib.Path:
    """A directory holding the hook (`sitecustomize.py`), to put first on PYTHONPATH."""
    into.mkdir(parents=True, exist_ok=True)
    (into / "sitecustomize.py").write_text(SITECUSTOMIZE)
    return into


@dataclass
class Pauses:
    """The workers' collections: (generation, pause ms, CPU ms) each, over `seconds`."""

    collections: list[tuple[int, float, float, bool]] = field(default_factory=list)
    full_sizes: list[tuple[int, int]] = field(default_factory=list)  # (freed, live) each
    workers: int = 0
    seconds: float = 0.0

    def of(self, full: bool, cpu: bool = False, busy: bool = False) -> list[float]:
        """Sorted pauses (or CPU): all, or the full collections; `busy`: only those
        that did not run at a quiet moment (the sessions waited for them)."""
        return sorted(
            c[1 + cpu] for c in self.collections if (not full or c[0] == 2) and not (busy and c[3])
        )


def lines(directory: pathlib.Path) -> dict[str, int]:
    """How many collections each worker has written so far (to `read` only later ones)."""
    return {
        p.name: len(p.read_text().splitlines()) for p in directory.iterdir() if p.name.isdigit()
    }


def read(directory: pathlib.Path, seconds: float, skip: dict[str, int] | None = None) -> Pauses:
    """The collections written to `directory`, but the first `skip[worker]` of each."""
    pauses = Pauses(seconds=seconds)
    for path in directory.iterdir():
        if not path.name.isdigit():
            continue
        pauses.workers += 1
        for line in path.read_text().splitlines()[(skip or {}).get(path.name, 0) :]:
            fields = line.split()
            if len(fields) in (3, 4, 6):
                generation, pause, cpu = int(fields[0]), float(fields[1]), float(fields[2])
                quiet = len(fields) >= 4 and fields[3] == "1"
                pauses.collections.append((generation, pause, cpu, quiet))
                if generation == 2 and len(fields) == 6:
                    pauses.full_sizes.append((int(fields[4]), int(fields[5])))
    return pauses


def pct(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def figures(values: list[float]) -> str:
    """'n: p50 / p99 / max ms, k over the aim' for sorted pauses."""
    if not values:
        return "0"
    over = sum(ms > AIM_MS for ms in values)
    return (
        f"{len(values)}: {pct(values, 0.5):.1f} / {pct(values, 0.99):.1f} / {values[-1]:.0f} ms, "
        f"{over} over {AIM_MS:.0f} ms"
    )


def sizes(pauses: Pauses) -> str:
    """What the full collections walked: the objects each freed and left alive (p50 / max)."""
    if not pauses.full_sizes:
        return "not recorded"
    freed = sorted(f for f, _ in pauses.full_sizes)
    live = sorted(n for _, n in pauses.full_sizes)
    return (
        f"freed {pct(freed, 0.5):,} / {freed[-1]:,}, "
        f"left alive {pct(live, 0.5):,} / {live[-1]:,} objects (p50 / max)"
    )


def summary(pauses: Pauses, cpu: bool = False) -> tuple[str, str, str]:
    """(every collection, the full ones, the full ones the sessions waited for): count,
    pause (or CPU) p50 / p99 / max, over the aim."""
    return (
        figures(pauses.of(False, cpu)),
        figures(pauses.of(True, cpu)),
        figures(pauses.of(True, cpu, busy=True)),
    )
