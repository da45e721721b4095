"""One session's process, forked by the zygote: the client app on the session's PTY.

Three descriptors come from the server:
- the PTY's slave: the standard streams and the controlling terminal (a window
  change, TIOCSWINSZ on the master side, sends SIGWINCH; a hang-up SIGHUP);
- the lifeline's read end: when the server closes it, or dies, the process ends
  at once, so no client outlives its session;
- the heartbeat's write end: the app's event loop writes a byte a second; the
  server ends a session whose loop stops answering (a hang, a runaway
  computation) and starts it again (server/terminal/session.py).

`config` is {url, name, token, watch}: the identity token travels only through
the zygote's socket, never in argv, the environment or a log.

What the client draws goes through `RelayOutput` before the PTY: the screen
relay (server/terminal/screen.py) keeps the screen and writes only the cells
that changed. It runs here, in Textual's own writer thread, so that this work
(the largest a session costs) is the session's and never the server's event
loop's (issue 21: a 20000×5000 terminal froze every game).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import io
import os
import sys
import termios
import threading
from typing import Any

from .output import SgrFilter
from .screen import ScreenRelay

HEARTBEAT = 1.0  # seconds between two beats of a healthy event loop


class RelayOutput(io.TextIOBase):
    """Textual's output file: text in, the changed cells out to the PTY (fd 1)."""

    def __init__(self, fd: int = 1) -> None:
        super().__init__()
        self.fd = fd
        self.size = os.get_terminal_size(fd)
        self.relay = ScreenRelay(self.size.columns, self.size.lines)
        self.sgr = SgrFilter()
        self.lock = threading.Lock()

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"

    def write(self, text: str) -> int:
        with self.lock:
            size = os.get_terminal_size(self.fd)
            if size != self.size:
                self.size = size
                self.relay.resize(size.columns, size.lines)
            self.relay.feed(text.encode("utf-8", "replace"))
        return len(text)

    def flush(self) -> None:
        with self.lock:
            data = self.sgr.feed(self.relay.take())
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self.fd, view) :]
            except InterruptedError:
                continue
            except OSError:
                return  # the terminal is gone: the lifeline ends the process

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.flush()
            with self.lock:
                tail = self.sgr.finish()
            os.write(self.fd, tail)


class SessionTokens:
    """One identity's token, with the interface of `tui.tokens.TokenStore` (get/put).

    The key arguments (server URL, name …) do not matter: this process serves
    one identity on one server. A token the server issues instead (it had
    forgotten ours) is used on reconnection.
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


def beat(fd: int) -> None:
    with contextlib.suppress(OSError):
        os.write(fd, b".")


async def heartbeat(fd: int) -> None:
    """A byte a second from the event loop itself: it stops when the loop stops."""
    os.set_blocking(fd, False)
    while True:
        beat(fd)
        await asyncio.sleep(HEARTBEAT)


def take_terminal(slave: int) -> None:
    os.setsid()
    for fd in (0, 1, 2):
        os.dup2(slave, fd)
    if slave > 2:
        os.close(slave)
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def run_session(
    app_class: type, config: dict[str, Any], env: dict[str, str], slave: int, lifeline: int, hb: int
) -> int:
    take_terminal(slave)
    os.environ.clear()
    os.environ.update(env)
    threading.Thread(target=watch_lifeline, args=(lifeline,), daemon=True).start()
    sys.__stderr__ = sys.stderr = RelayOutput()  # Textual draws on sys.__stderr__
    tokens = SessionTokens(config.get("token"))
    app = app_class(config["url"], name=config["name"], tokens=tokens, watch=config.get("watch"))

    async def main() -> None:
        beating = asyncio.create_task(heartbeat(hb))
        try:
            await app.run_async()
        finally:
            beating.cancel()

    try:
        asyncio.run(main())
    finally:
        sys.__stderr__.close()
    return int(app.return_code or 0)
