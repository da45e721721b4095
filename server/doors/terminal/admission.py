"""Who may start a terminal session now: a memory budget, per-address limits, start rates.

The budget is what the session workers may take of the machine's memory in all
(every transport's sessions together). Each session reserves what a session
grows to in a whole game (`reserve_mb`), and each worker process what it costs
besides its sessions (`worker_mb`): a worker is charged what it uses (its
proportional set size, read from /proc) beyond its sessions' reservations, but
never less than `worker_mb`. A session that would take the total over the budget
(with a new worker's reservation when no worker has room) is refused with a
message, never an out-of-memory kill.

The per-address limit counts identities, not sessions (issue 28): a session that
comes with a key (an SSH key's fingerprint, a browser's device) already holding a
session at that address replaces it (the door closes the old one) and is never
refused for the count, so a page reload or an SSH reconnect always gets in.
"""

from __future__ import annotations

import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass

FULL = "The server is full, try again in a few minutes."
DEFAULT_PER_ADDRESS = 8  # identities at once per address: a family or a meetup behind one NAT
# A session's share after a whole game, and a worker's own cost (docs/benchmarks.md,
# "Sessions per worker (K) and 200 sessions").
DEFAULT_RESERVE_MB = 12.0  # a session after a whole game, beside others in its worker
DEFAULT_WORKER_MB = 40.0  # a worker: its copy of the pages the client code dirties
DEFAULT_STARTS_PER_ADDRESS = (10, 60.0)  # session starts per address: 10 a minute
DEFAULT_STARTS_TOTAL = (20, 1.0)  # and from everyone: 20 a second


def proc_mb(path: str, field: str, default: float) -> float:
    """A kB figure of a /proc file (`field` as the line starts: "Pss:"), in MB; `default`
    where the file or the line is missing."""
    try:
        with open(path, encoding="ascii") as f:
            for line in f:
                if line.startswith(field):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return default


def available_mb() -> float:
    """The machine's available memory (MemAvailable), in MB."""
    return proc_mb("/proc/meminfo", "MemAvailable:", 1024.0)


def default_budget_mb() -> int:
    """Half the memory available when the server starts."""
    return max(64, int(available_mb() / 2))


class Rate:
    """At most `count` events in any `window` seconds (a sliding window of times)."""

    def __init__(self, count: int, window: float) -> None:
        self.count, self.window = count, window
        self.times: deque[float] = deque()

    def allows(self, now: float) -> bool:
        while self.times and now - self.times[0] >= self.window:
            self.times.popleft()
        return not self.count or len(self.times) < self.count

    def add(self, now: float) -> None:
        self.times.append(now)


@dataclass
class Limits:
    """The limits an operator sets (docs/operations.md): 0 turns a limit off."""

    memory_mb: int = 0  # 0: default_budget_mb()
    per_address: int = DEFAULT_PER_ADDRESS
    reserve_mb: float = DEFAULT_RESERVE_MB  # a session, after a whole game
    worker_mb: float = DEFAULT_WORKER_MB  # a worker process, besides its sessions
    starts_per_address: tuple[int, float] = DEFAULT_STARTS_PER_ADDRESS
    starts_total: tuple[int, float] = DEFAULT_STARTS_TOTAL


class Admission:
    """Counts the sessions of every transport; `refusal()` says why one may not start."""

    def __init__(self, limits: Limits, workers_mb: Callable[[], float] = lambda: 0.0) -> None:
        """`workers_mb()`: what the workers are charged now, besides their sessions."""
        self.limits = limits
        self.budget_mb = float(limits.memory_mb or default_budget_mb())
        self.per_address: dict[str, Counter[object]] = {}  # address: who -> sessions
        self.admitted: dict[object, tuple[str, object]] = {}  # session: (address, who)
        self.overhead_mb = 0.0  # the zygote's own share
        self.workers_mb = workers_mb
        self._address_starts: dict[str, Rate] = {}
        self._starts = Rate(*limits.starts_total)

    def used_mb(self) -> float:
        return self.overhead_mb + len(self.admitted) * self.limits.reserve_mb + self.workers_mb()

    def refusal(
        self,
        address: str,
        now: float | None = None,
        new_worker: bool = True,
        who: object | None = None,
    ) -> str | None:
        """Why a new session from `address` may not start now, or None. `new_worker`: no
        worker has room for it (a new one is reserved for too). `who`: the session's key,
        if it has one; one already counted at `address` is not counted again."""
        now = time.monotonic() if now is None else now
        limits = self.limits
        need = limits.reserve_mb + (limits.worker_mb if new_worker else 0.0)
        if self.used_mb() + need > self.budget_mb:
            return FULL
        here = self.per_address.get(address, {})
        counted = who is not None and who in here
        if limits.per_address and not counted and len(here) >= limits.per_address:
            return f"Too many sessions from your address (at most {limits.per_address})."
        rate = self._address_starts.get(address)
        if rate is not None and not rate.allows(now):
            return "Too many new sessions from your address; wait a minute."
        if not self._starts.allows(now):
            return "Too many new sessions right now; try again in a moment."
        return None

    def admit(
        self, session: object, address: str, now: float | None = None, who: object | None = None
    ) -> None:
        """Count a session that `refusal()` let in (`who`: its key, as given there)."""
        now = time.monotonic() if now is None else now
        who = session if who is None else who
        self.per_address.setdefault(address, Counter())[who] += 1
        self.admitted[session] = (address, who)
        rate = self._address_starts.get(address)
        if rate is None:
            rate = self._address_starts[address] = Rate(*self.limits.starts_per_address)
        rate.add(now)
        self._starts.add(now)
        if len(self._address_starts) > 4096:  # forget addresses that started nothing lately
            for key in [
                k for k, r in self._address_starts.items() if r.allows(now) and not r.times
            ]:
                del self._address_starts[key]

    def worker_charge(self, measured_mb: float, sessions: int) -> float:
        """What a worker is charged besides its sessions' reservations: its PSS beyond
        them, at least `worker_mb` (all of it until it is first measured)."""
        return max(self.limits.worker_mb, measured_mb - sessions * self.limits.reserve_mb)

    def release(self, session: object) -> None:
        if session not in self.admitted:
            return
        address, who = self.admitted.pop(session)
        here = self.per_address[address]
        here[who] -= 1
        if here[who] <= 0:
            del here[who]
        if not here:
            del self.per_address[address]
