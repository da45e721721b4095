"""The worker processes, seen from the server: up to K sessions each, forked from the
zygote (server/terminal/worker.py runs in them), watched by their heartbeat.

A session takes a free place in a running worker, or a new worker is forked
for it; a worker whose last session ends is let go (it exits). A worker whose
event loop stops beating for `hang_timeout` seconds (one app blocked it, or
computes without yielding) is killed: every session it held sees its PTY close
and starts again in another worker (server/terminal/session.py). An exception
in one app ends only that app: the worker says so ("ended") and carries on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import socket
import time
from typing import Any, Protocol

from .workers import Zygote, ZygoteGone
from .zygote import MAX_PACKET

log = logging.getLogger("modernart.server.terminal")

KILLED = -signal.SIGKILL  # the exit code a session is given when its worker died


class Placed(Protocol):
    """A session as a worker sees it: told when its app has ended, with its exit code."""

    name: str

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
        self.measured_mb = 0.0  # its PSS when last read (Terminals.measure); 0: not yet
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
            elif "ended" in msg:
                session = self.sessions.get(int(msg["ended"]))
                if session is not None:
                    session.app_ended(int(msg["code"]))

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

    def _watch(self) -> None:
        """A worker whose loop has not beaten for `hang_timeout` seconds is killed."""
        quiet = time.monotonic() - self.last_beat
        if quiet >= self.pool.hang_timeout:
            names = ", ".join(s.name for s in self.sessions.values())
            log.warning(
                "worker %s: no heartbeat for %.0f s, killed (sessions %s)", self.pid, quiet, names
            )
            self.kill()
            return
        self._arm_watchdog()


class WorkerPool:
    """Places sessions in workers of at most `per_worker` sessions each."""

    def __init__(self, zygote: Zygote, per_worker: int, hang_timeout: float) -> None:
        self.zygote = zygote
        self.per_worker = max(1, per_worker)
        self.hang_timeout = hang_timeout
        self.workers: list[WorkerProcess] = []  # those that take sessions
        self.alive: set[WorkerProcess] = set()  # every worker not ended yet
        self._ids = 0
        self._placing = asyncio.Lock()

    def has_room(self) -> bool:
        return any(w.free > 0 for w in self.workers)

    async def place(self, session: Placed) -> tuple[WorkerProcess, int]:
        """A place for `session` (its id in the worker): the first worker with room, or a
        new one. Raises ZygoteGone when no worker can be forked."""
        async with self._placing:
            worker = next((w for w in self.workers if w.free > 0), None)
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
