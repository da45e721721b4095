"""The zygote: `python -m modernart.server.doors.terminal.zygote FD` imports the client once,
freezes its objects out of the garbage collector's reach, and forks a worker process
(server/doors/terminal/worker.py, up to K sessions each) when asked on the control socket `FD`.

A forked worker shares every page of the imported modules (Textual, Rich, the
client, the engines) with the zygote and its siblings until it writes to them;
`gc.freeze()` keeps the collector from touching (and so copying) those objects.
What a worker does write to (CPython's reference counts and adaptive bytecode in
the pages of the code it runs) it copies once for all its sessions
(docs/decisions/terminal-sessions.md).

The control socket (a SOCK_SEQPACKET pair, one message a packet) carries JSON:
    server → zygote: {"spawn": n, "app": "module:Class"} with two descriptors: the
                     worker's control socket and the lifeline's read end
    zygote → server: {"spawned": n, "pid": pid} or {"failed": n, "error": text}
                     {"exited": pid, "code": code}  (code < 0: killed by signal -code)
The zygote ends when the server's end of the socket closes; its workers end on
their lifelines (they do not depend on the zygote once forked).
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import json
import os
import select
import signal
import socket
import sys
from collections.abc import Iterator
from typing import Any

MAX_PACKET = 65536
DEFAULT_APP = "modernart.tui.app:ClientApp"


def load_app(spec: str) -> type:
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)  # type: ignore[no-any-return]


def preload(spec: str) -> None:
    """Import the client and what it imports lazily, so that sessions share it all."""
    from modernart.server.doors.terminal import worker  # noqa: F401  (and the driver and screen relay each session runs)

    load_app(spec)
    import textual.widgets

    for name in ("DataTable", "Header", "Input", "Label", "RichLog", "Static"):
        with contextlib.suppress(AttributeError, ImportError):
            getattr(textual.widgets, name)


def warm_up(app_class: type) -> None:
    """Run the client once, headless, to the lobby: what every session would build the
    same way (parsed CSS selectors, Rich's and Textual's caches, lazily imported
    modules) is then made here once, and shared. Its server is a socket that never
    answers; a warm-up that fails costs only the sharing."""
    import asyncio
    import threading
    import traceback

    from modernart.server.doors.terminal.worker import SessionTokens

    async def run(port: int) -> None:
        url = f"ws://127.0.0.1:{port}/"
        app = app_class(url, name="warm-up", tokens=SessionTokens(None))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()

    from modernart.tui.games import help_texts
    from modernart.tui.helptext import warm

    for where in ("ssh", "browser"):  # F1's texts laid out: a session's first F1 only draws them
        warm(help_texts(where))
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        try:
            asyncio.run(run(silent.getsockname()[1]))
        except Exception:
            traceback.print_exc()
    if threading.active_count() != 1:  # forking with threads would copy them half-way
        raise RuntimeError("the warm-up left threads running")


def child_wakeup() -> tuple[int, int]:
    """A pipe whose read end turns readable when a child process ends (SIGCHLD), for a
    `select` loop to reap it: (read end, write end), neither blocking."""
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(wake_w)
    return wake_r, wake_w


def reaped() -> Iterator[tuple[int, int]]:
    """Each child process that has ended, reaped: its pid and exit code (< 0: the signal)."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        yield pid, os.waitstatus_to_exitcode(status)


class Zygote:
    def __init__(self, sock: socket.socket, wake: int) -> None:
        self.sock = sock
        self.wake = wake
        self.apps: dict[str, type] = {}

    def send(self, msg: dict[str, Any]) -> None:
        with contextlib.suppress(OSError):
            self.sock.send(json.dumps(msg).encode())

    def serve(self) -> None:
        while True:
            ready, _, _ = select.select([self.sock, self.wake], [], [])
            if self.wake in ready:
                with contextlib.suppress(BlockingIOError):
                    os.read(self.wake, 4096)
                self.reap()
            if self.sock in ready and not self.request():
                return

    def reap(self) -> None:
        for pid, code in reaped():
            self.send({"exited": pid, "code": code})

    def request(self) -> bool:
        """Serve one packet; False once the server has gone."""
        try:
            data, fds, _, _ = socket.recv_fds(self.sock, MAX_PACKET, 8)
        except ConnectionResetError:
            return False
        if not data:
            return False
        try:
            msg = json.loads(data)
            n = msg["spawn"]
            app = self.app(msg.get("app") or DEFAULT_APP)
            if len(fds) != 2:
                raise ValueError("a spawn needs two descriptors")
        except Exception as exc:  # a bad request is answered, never fatal
            for fd in fds:
                os.close(fd)
            self.send(
                {"failed": msg.get("spawn") if isinstance(msg, dict) else None, "error": str(exc)}
            )
            return True
        pid = os.fork()
        if pid == 0:
            self.become_worker(app, fds)  # never returns
        for fd in fds:
            os.close(fd)
        self.send({"spawned": n, "pid": pid})
        return True

    def app(self, spec: str) -> type:
        if spec not in self.apps:
            self.apps[spec] = load_app(spec)
        return self.apps[spec]

    def become_worker(self, app: type, fds: list[int]) -> None:
        code = 70
        try:
            self.sock.close()
            os.close(self.wake)
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            from modernart.server.doors.terminal.worker import run_worker

            code = run_worker(app, *fds)
        except BaseException:  # whatever happens, this process ends here
            with contextlib.suppress(Exception):
                import traceback

                traceback.print_exc()
        finally:
            with contextlib.suppress(Exception):
                sys.stdout.flush()
            os._exit(code)


def main(argv: list[str]) -> int:
    sock = socket.socket(fileno=int(argv[1]))
    spec = argv[2] if len(argv) > 2 else DEFAULT_APP
    os.setpgid(0, 0)  # its own group: a terminal's ctrl+c to the server does not reach it
    preload(spec)
    warm_up(load_app(spec))
    serve(sock)
    return 0


def serve(sock: socket.socket) -> None:
    """Be the zygote on the control socket `sock`, once the client is imported and warm,
    until the server's end closes (also the way in for a process forked from a warm one:
    tests/nursery.py)."""
    wake_r, _ = child_wakeup()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    gc.collect()
    gc.freeze()  # what the imports made is shared by every fork: never scan (copy) it
    sock.send(b'{"ready": true}')
    Zygote(sock, wake_r).serve()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
