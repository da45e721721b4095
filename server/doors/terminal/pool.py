"""The worker processes, seen from the server: up to K sessions each, forked from the
zygote (server/doors/terminal/worker.py runs in them), watched by their heartbeat.

A session takes a free place in a running worker, or a new worker is forked
for it; a worker whose last session ends is let go (it exits). A worker whose
event loop stops beating for `hang_timeout` seconds because one app blocked it,
or computes without yielding, is killed (`stuck`): every session it held sees
its PTY close and starts again in another worker (server/doors/terminal/session.py).
A worker that is only starved of CPU (a machine under load: its loop is ready
to run but waits for a core) is not: killing it would end its sessions' screens
for nothing and cost the machine a restart on top. An exception in one app
ends only that app: the worker says so ("ended") and carries on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import pathlib
import signal
import socket
import time
from typing import Any, Protocol

from modernart.server.doors.terminal.workers import Zygote, ZygoteGone
from modernart.server.doors.terminal.zygote import MAX_PACKET

log = logging.getLogger("modernart.server.doors.terminal")

KILLED = -signal.SIGKILL  # the exit code a session is given when its worker died
# A loop that has computed for this share of `hang_timeout` without beating runs away:
# no app's legitimate step (a frame, a screen's compose) takes a second of CPU.
RUNAWAY_SHARE = 0.25
# A loop asleep (not runnable) is blocked if it used less CPU than this since its beat,
# or if its whole process used less since the watchdog's previous look (a second before,
# with the default timeout): a key's work before a blocking call does not hide the block.
BLOCKED_CPU_S = 0.05
# A loop starved of CPU is killed after this many `hang_timeout`s all the same.
STARVED_FACTOR = 6
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
GC_LOG_EVERY = 600.0  # seconds: a worker's slow collections are logged at most this often


def _stat(path: str) -> tuple[str, float] | None:
    """The state letter and CPU seconds in a /proc stat file, or None if unreadable."""
    try:
        stat = pathlib.Path(path).read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (comm) "
    return fields[0], (int(fields[11]) + int(fields[12])) / _TICK


def main_thread(pid: int) -> tuple[str, float] | None:
    """The state letter (R runnable, S asleep, D in I/O, T stopped, ...) and the CPU
    seconds of a process's main thread (the one its event loop runs in; an app's
    other threads are not counted), or None where /proc cannot tell."""
    return _stat(f"/proc/{pid}/task/{pid}/stat")


def process_cpu(pid: int) -> float | None:
    """The CPU seconds of a whole process (every thread), or None."""
    stat = _stat(f"/proc/{pid}/stat")
    return stat[1] if stat is not None else None


def stuck(
    quiet: float,
    timeout: float,
    now: tuple[str, float] | None,
    at_beat: float | None,
    lately: float | None = None,
) -> str | None:
    """Why a worker whose loop has not beaten for `quiet` ≥ `timeout` seconds is killed,
    or None while it is only starved of CPU. `now`: its main thread's state and CPU
    seconds (`main_thread`); `at_beat`: that CPU at its last beat; `lately`: the CPU its
    whole process used since the watchdog's previous look (None: unknown). Without
    `now` and `at_beat` (no /proc), the wall clock alone decides, as it did before."""
    if now is None or at_beat is None:
        return "no heartbeat"
    state, cpu = now
    used = cpu - at_beat
    if used >= timeout * RUNAWAY_SHARE:
        return f"computing without yielding ({used:.1f} s of CPU)"
    idle = used < BLOCKED_CPU_S or (lately is not None and lately < BLOCKED_CPU_S)
    if state != "R" and idle:
        return "blocked"
    if quiet >= timeout * STARVED_FACTOR:
        return "no heartbeat"
    return None  # ready to run, waiting for a core: the machine is busy, not the worker


class Placed(Protocol):
    """A session as a worker sees it: told when its app has ended, with its exit code."""

    name: str
    peer: str  # its address: one address fills no worker (`WorkerPool.per_address`)

    def app_ended(self, code: int) -> None: ...


class WorkerProcess:
    """One worker process: its sessions by id, its control socket, its heartbeat."""

    def __init__(self, pool: WorkerPool, pid: int, sock: socket.socket, lifeline: int) -> None:
        self.pool = pool
        self.pid = pid
        self.sock = sock
        self.lifeline = lifeline
        self.sessions: dict[int, Placed] = {}
        self.last_beat = time.monotonic()
        self.beat_cpu = self._cpu()  # its main thread's CPU seconds at the last beat
        self.looked_cpu = process_cpu(pid)  # its process's CPU at the watchdog's last look
        self.starved = False  # a quiet spell already logged as starvation
        self.measured_mb = 0.0  # its PSS when last read (Terminals.measure); 0: not yet
        # Its garbage collector as its beats tell (collector.py): collections, full ones,
        # those that paused its sessions over the aim, the longest pause (ms), in all.
        self.gc = {"n": 0, "full": 0, "slow": 0, "max_ms": 0.0}
        self._gc_logged = -GC_LOG_EVERY
        self.retiring = False
        self.gone = asyncio.Event()
        self._watchdog: asyncio.TimerHandle | None = None
        sock.setblocking(False)
        asyncio.get_running_loop().add_reader(sock.fileno(), self._read)
        self._arm_watchdog()

    @property
    def free(self) -> int:
        return 0 if self.retiring or self.gone.is_set() else self.pool.per_worker - len(self)

    def __len__(self) -> int:
        return len(self.sessions)

    def takes(self, peer: str) -> bool:
        """Whether a session from `peer` may join: a free place, and fewer than the
        pool's `per_address` sessions of that address here already."""
        limit = self.pool.per_address
        if self.free <= 0:
            return False
        return not limit or sum(s.peer == peer for s in self.sessions.values()) < limit

    def open(self, sid: int, msg: dict[str, Any], slave: int) -> None:
        """Start a session's app on its PTY's slave; raises ZygoteGone if it cannot."""
        try:
            socket.send_fds(self.sock, [json.dumps(msg).encode()], [slave])
        except OSError as exc:
            raise ZygoteGone(f"the worker cannot be reached: {exc}") from None

    def send(self, msg: dict[str, Any]) -> None:
        """A message that may be lost if the worker is gone or stuck (it is then killed)."""
        with contextlib.suppress(OSError):
            self.sock.send(json.dumps(msg).encode())

    def remove(self, sid: int) -> None:
        """The session left: a worker with no session left is let go."""
        self.sessions.pop(sid, None)
        if not self.sessions:
            self.retire()

    def retire(self) -> None:
        """End the worker (at once: its lifeline closes); `gone` is set when it has."""
        if self.retiring:
            return
        self.retiring = True
        self.pool.discard(self)
        if self.lifeline >= 0:
            os.close(self.lifeline)
            self.lifeline = -1

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)

    def _read(self) -> None:
        while True:
            try:
                data = self.sock.recv(MAX_PACKET)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                data = b""
            if not data:
                self._ended()
                return
            msg = json.loads(data)
            if "beat" in msg:
                self.last_beat = time.monotonic()
                self.beat_cpu = self._cpu()
                self.starved = False
                if isinstance(msg.get("gc"), dict):
                    self._collected(msg["gc"])
            elif "ended" in msg:
                session = self.sessions.get(int(msg["ended"]))
                if session is not None:
                    session.app_ended(int(msg["code"]))

    def _collected(self, figures: dict[str, Any]) -> None:
        """A beat's collector figures (since the previous beat): added up, and a pause
        over the aim logged (once in `GC_LOG_EVERY` at most)."""
        try:
            for key in ("n", "full", "slow"):
                self.gc[key] += int(figures.get(key, 0))
            longest = float(figures.get("max_ms", 0.0))
            self.gc["max_ms"] = max(self.gc["max_ms"], longest)
        except (TypeError, ValueError):
            return
        now = time.monotonic()
        if figures.get("slow") and now - self._gc_logged >= GC_LOG_EVERY:
            self._gc_logged = now
            log.warning(
                "worker %s: a garbage collection paused its %d sessions %.0f ms "
                "(%d of %d collections over the aim so far)",
                self.pid,
                len(self.sessions),
                longest,
                self.gc["slow"],
                self.gc["n"],
            )

    def _ended(self) -> None:
        """The process has gone (its end of the socket closed)."""
        loop = asyncio.get_running_loop()
        with contextlib.suppress(ValueError, OSError):
            loop.remove_reader(self.sock.fileno())
        self.sock.close()
        if self._watchdog is not None:
            self._watchdog.cancel()
        if not self.retiring:
            log.warning("worker %s ended with %d sessions", self.pid, len(self.sessions))
        self.retire()
        self.pool.ended(self)
        self.gone.set()
        for session in list(self.sessions.values()):
            session.app_ended(KILLED)

    def _arm_watchdog(self) -> None:
        timeout = self.pool.hang_timeout
        if timeout:
            self._watchdog = asyncio.get_running_loop().call_later(timeout / 4, self._watch)

    def _cpu(self) -> float | None:
        state = main_thread(self.pid)
        return state[1] if state is not None else None

    def _watch(self) -> None:
        """A worker whose loop has not beaten for `hang_timeout` seconds is killed if it
        is stuck (`stuck`), not if it only waits for a core."""
        # Beats already in the socket count: a loop that was itself busy may run this
        # timer before it reads them (uvloop runs due timers before it polls).
        self._read()
        if self.gone.is_set() or self.sock.fileno() < 0:
            return
        quiet = time.monotonic() - self.last_beat
        timeout = self.pool.hang_timeout
        looked, self.looked_cpu = self.looked_cpu, process_cpu(self.pid)
        lately = None if looked is None or self.looked_cpu is None else self.looked_cpu - looked
        if quiet >= timeout:
            why = stuck(quiet, timeout, main_thread(self.pid), self.beat_cpu, lately)
            if why is not None:
                names = ", ".join(s.name for s in self.sessions.values())
                log.warning(
                    "worker %s: %s, no heartbeat for %.0f s, killed (sessions %s)",
                    self.pid,
                    why,
                    quiet,
                    names,
                )
                self.kill()
                return
            if not self.starved:
                self.starved = True
                log.warning(
                    "worker %s: no heartbeat for %.0f s, waiting for CPU (the machine is "
                    "busy): not killed before %.0f s",
                    self.pid,
                    quiet,
                    timeout * STARVED_FACTOR,
                )
        self._arm_watchdog()


class WorkerPool:
    """Places sessions in workers of at most `per_worker` sessions each, and at most
    `per_address` (0: no limit) of one address in a worker: sessions from one address
    never fill a worker, so its hostile sessions share their worker's CPU and memory
    with sessions of theirs, not with a crowd of neighbours (issue 33)."""

    def __init__(
        self, zygote: Zygote, per_worker: int, hang_timeout: float, per_address: int = 2
    ) -> None:
        self.zygote = zygote
        self.per_worker = max(1, per_worker)
        self.per_address = per_address
        self.hang_timeout = hang_timeout
        self.workers: list[WorkerProcess] = []  # those that take sessions
        self.alive: set[WorkerProcess] = set()  # every worker not ended yet
        self._ids = 0
        self._placing = asyncio.Lock()

    def has_room(self, peer: str) -> bool:
        """Whether a session from `peer` fits in a running worker (else: a new one)."""
        return any(w.takes(peer) for w in self.workers)

    async def place(self, session: Placed) -> tuple[WorkerProcess, int]:
        """A place for `session` (its id in the worker): the first worker that takes its
        address, or a new one. Raises ZygoteGone when no worker can be forked."""
        async with self._placing:
            worker = next((w for w in self.workers if w.takes(session.peer)), None)
            if worker is None:
                worker = await self._spawn()
            self._ids += 1
            worker.sessions[self._ids] = session
            return worker, self._ids

    async def _spawn(self) -> WorkerProcess:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        life_r, life_w = os.pipe()
        try:
            pid = await self.zygote.spawn((theirs.fileno(), life_r))
        except BaseException:
            ours.close()
            os.close(life_w)
            raise
        finally:
            theirs.close()
            os.close(life_r)
        worker = WorkerProcess(self, pid, ours, life_w)
        self.workers.append(worker)
        self.alive.add(worker)
        return worker

    def discard(self, worker: WorkerProcess) -> None:
        """The worker takes no more sessions."""
        with contextlib.suppress(ValueError):
            self.workers.remove(worker)

    def ended(self, worker: WorkerProcess) -> None:
        self.alive.discard(worker)

    async def stop(self, timeout: float = 5.0) -> None:
        """Let every worker go and wait until they have ended."""
        workers = list(self.alive)
        for worker in workers:
            worker.retire()
        if workers:
            waits = [asyncio.ensure_future(w.gone.wait()) for w in workers]
            await asyncio.wait(waits, timeout=timeout)
            for wait in waits:
                wait.cancel()
        for worker in workers:
            if not worker.gone.is_set():
                worker.kill()
