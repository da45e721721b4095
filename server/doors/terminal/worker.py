"""A worker process, forked by the zygote: the client apps of up to K sessions in one
event loop, each a Textual app on its own PTY with its own driver (server/doors/terminal/driver.py).

Two descriptors come from the server:
- the control socket (SOCK_SEQPACKET, JSON a packet):
    server → worker: {"open": sid, "config": {...}, "env": {...}, "cols": c, "rows": r}
                     with the session's PTY slave; {"resize": sid, "cols": c, "rows": r};
                     {"close": sid} (the app exits; "ended" follows)
    worker → server: {"beat": 1, "gc": {...}} a second, from the event loop itself (a
                     hang or a runaway computation stops it: the server kills the
                     worker and starts its sessions again elsewhere); "gc": its
                     collector's pauses since the last beat (collector.py);
                     {"ended": sid, "code": c}
  `config` is {url, name, token, watch, export}: the identity token travels only
  here, never in argv, the environment or a log.
- the lifeline's read end: when the server closes it, or dies, the worker ends at
  once, so no client outlives its server.

An exception in one app ends that app alone (Textual catches it and exits the app
with code 1); the server starts it again, usually in this same worker.

What Textual does process-wide is kept per session: each app runs in a task of
its own (so Textual's `active_app` context variable is its own), its environment
(TERM …) is set only while it is made (Textual's Console copies it then), and its
print capture is the worker's stderr, the same for every app, so that Textual's
nested `redirect_stdout`s, undone in any order, always leave the same stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import sys
import threading
from collections.abc import Iterator
from functools import partial
from typing import Any

from modernart.server.doors.terminal.collector import IdleCollections, Pauses
from modernart.server.doors.terminal.driver import SessionTerminal, terminal_app
from modernart.server.doors.terminal.fairness import FairDriver, InputShares, Ledger
from modernart.server.doors.terminal.memory import hand_back
from modernart.server.doors.terminal.priority import NewsOrder
from modernart.tui.textual_internals import capture_output

log = logging.getLogger("modernart.server.doors.terminal.worker")

HEARTBEAT = 1.0  # seconds between two beats of a healthy event loop
MAX_PACKET = 65536
END_WAIT = 5.0  # seconds the apps may take to end when the server lets the worker go
TRIM_DELAY = 2.0  # seconds after an app's end before the worker hands memory back


class SessionTokens:
    """One identity's token, with the interface of `tui.tokens.TokenStore` (get/put).

    The key arguments (server URL, name …) do not matter: a session serves one
    identity on one server. A token the server issues instead (it had forgotten
    ours) is used on reconnection.
    """

    def __init__(self, token: str | None) -> None:
        self.token = token

    def get(self, *key: str) -> str | None:
        return self.token

    def put(self, *key_and_token: str) -> None:
        self.token = key_and_token[-1]

    def rename(self, *urls_and_names: str) -> None:
        """One identity whatever its name: nothing to move."""


def watch_lifeline(fd: int) -> None:
    """End the process as soon as the server's end of the pipe closes."""
    with contextlib.suppress(OSError):
        while os.read(fd, 1024):
            pass
    os._exit(0)


@contextlib.contextmanager
def environment(env: dict[str, str]) -> Iterator[None]:
    """The session's environment (TERM, LANG …) while its app is made."""
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


class Worker:
    def __init__(self, app_class: type, sock: socket.socket) -> None:
        self.app_class = app_class
        self.sock = sock
        self.apps: dict[int, Any] = {}
        self.terminals: dict[int, SessionTerminal] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.gone: asyncio.Event | None = None
        self.ledger = Ledger()
        self.ledger.install()  # the loop's time by app (fairness.py)
        self.shares = InputShares(self.ledger)  # each session's share of the loop
        self.news = NewsOrder()  # the player to act draws the game's news first
        self._trim: asyncio.TimerHandle | None = None
        self.pauses = Pauses()  # each garbage collection timed (collector.py)
        self.pauses.install()
        self.collections = IdleCollections(  # full collections when the apps are quiet
            lambda: sum(self.ledger.used.values()),
            lambda: bool(self.shares.queue or self.news.waiting),
        )

    def send(self, msg: dict[str, Any]) -> None:
        with contextlib.suppress(OSError):  # full (the server is busy) or gone: it hears later
            self.sock.send(json.dumps(msg).encode())

    async def serve(self) -> int:
        loop = asyncio.get_running_loop()
        self.gone = asyncio.Event()
        self.sock.setblocking(False)
        loop.add_reader(self.sock.fileno(), self._request)
        self.collections.install()
        beating = loop.create_task(self._heartbeat())
        await self.gone.wait()
        beating.cancel()
        for app in list(self.apps.values()):
            app.exit()
        if self.tasks:
            await asyncio.wait(self.tasks, timeout=END_WAIT)
        return 0

    async def _heartbeat(self) -> None:
        while True:
            self.send({"beat": 1, "gc": self.pauses.report()})
            await asyncio.sleep(HEARTBEAT)

    def _request(self) -> None:
        assert self.gone is not None
        try:
            data, fds, _, _ = socket.recv_fds(self.sock, MAX_PACKET, 4)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data, fds = b"", []
        if not data:
            asyncio.get_running_loop().remove_reader(self.sock.fileno())
            self.gone.set()
            return
        try:
            msg = json.loads(data)
            if "open" in msg:
                (slave,) = fds
                fds = []
                self.open(int(msg["open"]), msg, slave)
            elif "resize" in msg:
                terminal = self.terminals.get(int(msg["resize"]))
                if terminal is not None:
                    terminal.resize(int(msg["cols"]), int(msg["rows"]))
            elif "close" in msg:
                app = self.apps.get(int(msg["close"]))
                if app is not None:
                    app.exit()
        except Exception:  # a bad request changes nothing
            log.exception("bad request from the server")
        finally:
            for fd in fds:
                os.close(fd)

    def _hand_back_later(self) -> None:
        """What ended apps held goes back to the system (memory.py), once, a moment after
        the last of several that end together (a full collection takes a while)."""
        if self._trim is not None:
            self._trim.cancel()
        self._trim = asyncio.get_running_loop().call_later(
            TRIM_DELAY, self.collections.soon, hand_back
        )

    def open(self, sid: int, msg: dict[str, Any], slave: int) -> None:
        config: dict[str, Any] = msg.get("config") or {}
        terminal = SessionTerminal(slave, int(msg["cols"]), int(msg["rows"]))
        try:
            with environment(msg.get("env") or {}):
                # The client runs on the server, not on the player's machine (issue 18): a
                # record it is asked to save is not written here; the client says how the
                # door gives it (issue 28: scp over SSH, a download link in the browser).
                app = terminal_app(self.app_class)(
                    config["url"],
                    name=config["name"],
                    tokens=SessionTokens(config.get("token")),
                    watch=config.get("watch"),
                    own_machine=False,
                    records_hint=config.get("records"),
                    in_browser=bool(config.get("browser")),
                )
        except Exception:
            log.exception("session %s: the client could not be made", sid)
            terminal.output.finish()
            self.send({"ended": sid, "code": 1})
            return
        news = self.news.session(app)
        app.news = news.deliver
        share = self.shares.join(app, terminal.output.cpu, lambda: news.rank)
        app.driver_class = partial(FairDriver, terminal=terminal, share=share)
        capture_output(app, sys.stderr)  # see the module's docstring
        self.apps[sid] = app
        self.terminals[sid] = terminal
        task = asyncio.get_running_loop().create_task(self._run(sid, app, terminal))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        task.add_done_callback(lambda _: (share.leave(), news.close()))

    async def _run(self, sid: int, app: Any, terminal: SessionTerminal) -> None:
        code = 1
        try:
            await app.run_async()
            code = int(app.return_code or 0)
        except Exception:
            log.exception("session %s: the client failed", sid)
        finally:
            terminal.output.finish()
            self.apps.pop(sid, None)
            self.terminals.pop(sid, None)
            self.send({"ended": sid, "code": code})
            self._hand_back_later()


def run_worker(app_class: type, control: int, lifeline: int) -> int:
    os.setsid()  # its own process group: the server can end it and whatever it starts
    threading.Thread(target=watch_lifeline, args=(lifeline,), daemon=True).start()
    sock = socket.socket(fileno=control)
    return asyncio.run(Worker(app_class, sock).serve())
