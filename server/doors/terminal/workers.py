"""The server's side of the zygote (server/doors/terminal/zygote.py): start it, ask it for
worker processes (server/doors/terminal/pool.py), and start it again if it dies.

A worker does not depend on the zygote once forked: a zygote that dies takes no
session with it (a worker's end is seen on its control socket).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import socket
import sys
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from modernart.server.doors.terminal.zygote import DEFAULT_APP, MAX_PACKET

log = logging.getLogger("modernart.server.doors.terminal")

START_TIMEOUT = 60.0  # seconds for the zygote's imports (a loaded machine)


class ZygoteProcess(Protocol):
    """What the server holds of its zygote's process (an `asyncio.subprocess.Process`)."""

    @property
    def pid(self) -> int: ...

    @property
    def returncode(self) -> int | None: ...

    def send_signal(self, sig: int) -> None: ...

    async def wait(self) -> int: ...


async def run_zygote(fd: int, app: str) -> ZygoteProcess:
    """Start a zygote process serving the control socket `fd`, for the client `app`."""
    env = dict(os.environ, PYTHONIOENCODING="utf-8", LANG="C.UTF-8")
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "modernart.server.doors.terminal.zygote",
        str(fd),
        app,
        stdin=asyncio.subprocess.DEVNULL,
        pass_fds=(fd,),
        env=env,
    )


# How a zygote starts. The tests fork theirs from one warm process instead
# (tests/nursery.py): a zygote's imports and warm-up cost 1.7 s of CPU.
launch: Callable[[int, str], Awaitable[ZygoteProcess]] = run_zygote


class ZygoteGone(Exception):
    """The zygote could not be reached or died before it answered."""


class Zygote:
    """One zygote process; `spawn()` forks a worker process from it."""

    def __init__(self, app: str = DEFAULT_APP) -> None:
        self.app = app
        self.proc: ZygoteProcess | None = None
        self.sock: socket.socket | None = None
        self._ready: asyncio.Future[None] | None = None
        self._spawns: dict[int, asyncio.Future[int]] = {}
        self._count = 0
        self._starting: asyncio.Lock = asyncio.Lock()
        self.restarts = 0
        self._closing = False

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None and self.proc.returncode is None else None

    async def start(self) -> None:
        """Start the zygote (if it is not running) and wait until its imports are done."""
        async with self._starting:
            if self.sock is not None:
                return
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            try:
                self.proc = await launch(theirs.fileno(), self.app)
            finally:
                theirs.close()
            ours.setblocking(False)
            self.sock = ours
            loop = asyncio.get_running_loop()
            self._ready = loop.create_future()
            loop.add_reader(ours.fileno(), self._read)
            try:
                await asyncio.wait_for(asyncio.shield(self._ready), START_TIMEOUT)
            except (TimeoutError, ZygoteGone):
                self._lost()
                raise ZygoteGone("the session zygote did not start") from None
            log.info("session zygote started, pid %s", self.proc.pid)

    async def spawn(self, fds: tuple[int, int]) -> int:
        """Fork a worker on these descriptors (its control socket, its lifeline): its pid."""
        if self.sock is None:
            await self.start()
        assert self.sock is not None
        self._count += 1
        n = self._count
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._spawns[n] = future
        packet = json.dumps({"spawn": n, "app": self.app})
        try:
            socket.send_fds(self.sock, [packet.encode()], list(fds))
        except OSError as exc:
            self._spawns.pop(n, None)
            self._lost()
            raise ZygoteGone(str(exc)) from None
        try:
            return await future
        finally:
            self._spawns.pop(n, None)

    def _read(self) -> None:
        assert self.sock is not None
        while True:
            try:
                data = self.sock.recv(MAX_PACKET)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self._lost()
                return
            self._message(json.loads(data))

    def _message(self, msg: dict[str, Any]) -> None:
        if msg.get("ready") and self._ready is not None and not self._ready.done():
            self._ready.set_result(None)
        elif "spawned" in msg:
            future = self._spawns.get(msg["spawned"])
            if future is not None and not future.done():
                future.set_result(int(msg["pid"]))
        elif "failed" in msg:
            future = self._spawns.get(msg["failed"])
            if future is not None and not future.done():
                future.set_exception(ZygoteGone(str(msg.get("error"))))
        elif "exited" in msg:  # a worker's end is seen on its control socket: only logged
            log.debug("worker %s exited with %s", msg["exited"], msg["code"])

    def _lost(self) -> None:
        """The zygote is gone (or unreachable): fail what waits; the next spawn restarts it."""
        if self.sock is not None:
            with contextlib.suppress(ValueError, OSError):
                asyncio.get_running_loop().remove_reader(self.sock.fileno())
            self.sock.close()
            self.sock = None
            if not self._closing:
                self.restarts += 1
                log.warning("session zygote lost; it starts again for the next session")
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(signal.SIGKILL)
        gone = ZygoteGone("the session zygote ended")
        for future in [self._ready, *self._spawns.values()]:
            if future is not None and not future.done():
                future.set_exception(gone)
        if self._ready is not None and self._ready.done() and not self._ready.cancelled():
            self._ready.exception()  # retrieved: no "never retrieved" warning

    async def stop(self) -> None:
        self._closing = True
        self._lost()
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                await self.proc.wait()
        self._closing = False
