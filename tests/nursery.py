"""Zygotes for the tests, forked from one warm process instead of started each time.

A terminal door's zygote imports the client and runs it once before it serves
(server/doors/terminal/zygote.py): 1.7 s of CPU, paid by every test that starts an SSH
or browser door, about a hundred of them (docs/decisions/29-vtime.md). The nursery does
that once per test process: `python tests/nursery.py PATH` imports and warms up
exactly as a zygote does, then listens on the Unix socket PATH. Each connection brings
a zygote's control socket (SCM_RIGHTS); the nursery forks, and the child becomes that
zygote (`zygote.serve`, the code a started zygote runs after its warm-up), in a process
group of its own. The nursery answers {"pid": n} and, once it has reaped the child,
{"exited": code}. It ends when its standard input (a pipe from the test process) closes.

`launch` is what the tests put in place of `workers.launch` (tests/conftest.py): the
server's side sees a zygote process as it would see its own child. Zygotes of other
apps (the fault and fairness tests' clients) still start as processes of their own.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pathlib
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading

from modernart.server.doors.terminal import workers, zygote

ROOT = pathlib.Path(__file__).resolve().parents[1]


# ------------------------------------------------------------- the nursery process


def fork_zygote(fd: int, nursery: list[socket.socket], pipe: tuple[int, int]) -> int:
    """Fork; the child serves `fd` as a zygote and never returns."""
    pid = os.fork()
    if pid:
        os.close(fd)
        return pid
    code = 0
    try:
        for sock in nursery:  # the nursery's own sockets and pipe are not the zygote's
            sock.close()
        for end in pipe:
            os.close(end)
        os.setpgid(0, 0)
        zygote.serve(socket.socket(fileno=fd))
    except BaseException:
        code = 70
    finally:
        os._exit(code)


def nurse(path: str) -> None:
    zygote.preload(zygote.DEFAULT_APP)
    zygote.warm_up(zygote.load_app(zygote.DEFAULT_APP))
    wake_r, wake_w = zygote.child_wakeup()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    listener.bind(path)
    listener.listen(64)
    children: dict[int, socket.socket] = {}
    print("ready", flush=True)
    while True:
        ready, _, _ = select.select([listener, sys.stdin, wake_r], [], [])
        if sys.stdin in ready and not os.read(sys.stdin.fileno(), 1):
            return  # the test process has gone
        if wake_r in ready:
            with contextlib.suppress(BlockingIOError):
                os.read(wake_r, 4096)
            reap(children)
        if listener in ready:
            conn, _ = listener.accept()
            _, fds, _, _ = socket.recv_fds(conn, 64, 1)
            if len(fds) != 1:
                conn.close()
                continue
            pid = fork_zygote(fds[0], [conn, listener, *children.values()], (wake_r, wake_w))
            conn.send(json.dumps({"pid": pid}).encode())
            children[pid] = conn


def reap(children: dict[int, socket.socket]) -> None:
    for pid, code in zygote.reaped():
        conn = children.pop(pid, None)
        if conn is not None:
            with contextlib.suppress(OSError):
                conn.send(json.dumps({"exited": code}).encode())
            conn.close()


# ------------------------------------------------------------- the tests' side


class Nursed:
    """A zygote forked by the nursery, as the server sees its own zygote's process."""

    def __init__(self, pid: int, conn: socket.socket) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._conn = conn
        self._exited: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        asyncio.get_running_loop().add_reader(conn.fileno(), self._read)

    def _read(self) -> None:
        try:
            data = self._conn.recv(64)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        asyncio.get_running_loop().remove_reader(self._conn.fileno())
        self._conn.close()
        self.returncode = json.loads(data)["exited"] if data else -signal.SIGKILL
        if not self._exited.done():
            self._exited.set_result(self.returncode)

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, sig)

    async def wait(self) -> int:
        return await asyncio.shield(self._exited)


class Nursery:
    """The test process's nursery, started on first use."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.proc: subprocess.Popen[bytes] | None = None
        self.folder = ""

    @property
    def path(self) -> str:
        return os.path.join(self.folder, "nursery")

    def start(self) -> None:
        with self.lock:
            if self.proc is not None and self.proc.poll() is None:
                return
            self.stop()
            self.folder = tempfile.mkdtemp(prefix="modernart-nursery-")
            env = dict(os.environ, PYTHONIOENCODING="utf-8", LANG="C.UTF-8")
            self.proc = subprocess.Popen(
                [sys.executable, __file__, self.path],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                cwd=ROOT,
                env=env,
            )
            assert self.proc.stdout is not None
            if self.proc.stdout.readline() != b"ready\n":
                raise RuntimeError("the zygotes' nursery did not start")

    def stop(self) -> None:
        if self.proc is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()  # type: ignore[union-attr]
            self.proc.wait()
            self.proc = None
        if self.folder:
            shutil.rmtree(self.folder, ignore_errors=True)

    async def launch(self, fd: int, app: str) -> workers.ZygoteProcess:
        if app != zygote.DEFAULT_APP:
            return await workers.run_zygote(fd, app)
        await asyncio.to_thread(self.start)
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        conn.connect(self.path)
        socket.send_fds(conn, [b"spawn"], [fd])
        conn.setblocking(False)
        reply = await asyncio.get_running_loop().sock_recv(conn, 64)
        if not reply:
            conn.close()
            raise workers.ZygoteGone("the zygotes' nursery did not answer")
        return Nursed(json.loads(reply)["pid"], conn)


if __name__ == "__main__":
    nurse(sys.argv[1])
