"""One client session on a terminal: the client app on a PTY, in a worker process
shared with other sessions (server/doors/terminal/pool.py, worker.py; the app's driver sends
only the cells that changed: driver.py), watched and restarted.

The transport (SSH, a browser) gives it keys (`feed`), window sizes (`resize`)
and flow control (`pause`/`resume`), and gets back bytes for the terminal
(`output`) and, once, why the session ended (`closed`). An app that fails (an
exception) or whose worker dies (killed when its event loop stops beating: a
hang, a runaway computation) is started again on the same terminal, in a worker
with room: its token brings it back to its seat (or the room it watched), and
no other session notices, but those of a killed worker, which come back the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import logging
import os
import struct
import termios
import time
from collections.abc import Callable
from typing import Any, Protocol

from modernart.server.doors.terminal.keyboard import Keyboard
from modernart.server.doors.terminal.pool import WorkerPool, WorkerProcess
from modernart.server.doors.terminal.workers import ZygoteGone

log = logging.getLogger("modernart.server.doors.terminal")

# Larger terminals are drawn at this size (issue 21: 500×200; issue 33: 300×100, so that
# one session's screen costs its worker at most ~6 times a 120×40 one's to draw).
MAX_COLS, MAX_ROWS = 300, 100
DEFAULT_SIZE = (80, 24)
GRACE = 2.0  # seconds a closing app may take to end before its PTY is closed under it
RESTARTS = (3, 60.0)  # at most 3 restarts in 60 s, then the session closes
EXIT_WAIT = 1.0  # seconds to wait for the app's exit code once the PTY has closed
# A window change makes the app lay out and draw its whole screen again: a session's
# changes reach its app at most this often, the latest size winning (issue 33).
RESIZE_GAP = 0.5


def clamp(cols: int, rows: int) -> tuple[int, int]:
    """A usable terminal size: 0 means unknown (the default), the rest at most 300×100."""
    cols = cols if cols > 0 else DEFAULT_SIZE[0]
    rows = rows if rows > 0 else DEFAULT_SIZE[1]
    return min(cols, MAX_COLS), min(rows, MAX_ROWS)


def set_size(fd: int, cols: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


def clean_term(term: str | None) -> str:
    """A TERM value to pass on: printable ASCII, short; anything else becomes the default."""
    if term and len(term) <= 64 and term.isascii() and term.isprintable() and " " not in term:
        return term
    return "xterm-256color"


class Timeouts(Protocol):
    idle_timeout: float


class SessionHost(Protocol):
    """What a session needs of the machinery that made it (`Terminals`)."""

    settings: Timeouts
    pool: WorkerPool

    def forward(self, address: str, key: str | None = None) -> tuple[str, str]: ...

    def unforward(self, header: str) -> None: ...

    def watched(self, token: str | None) -> str | None: ...

    def forget(self, session: TerminalSession, why: str) -> None: ...


class TerminalSession:
    """A session: made by `Terminals.open()`; see server/doors/terminal/__init__.py."""

    def __init__(
        self,
        terminals: SessionHost,
        *,
        peer: str,
        name: str,
        term: str | None,
        cols: int,
        rows: int,
        key: str | None,
        output: Callable[[bytes], None],
        closed: Callable[[str, int], None],
        records: str | None = None,
        browser: bool = False,
    ) -> None:
        self.terminals = terminals
        self.records = records  # how this door's player gets a record (the client says it)
        self.browser = browser  # a browser's page: the client says what differs there
        self.peer = peer
        self.name = name
        self.key = key
        self.term = clean_term(term)
        self.cols, self.rows = clamp(cols, rows)
        self._output = output
        self._closed = closed
        self.token: str | None = None
        self.watch: str | None = None
        self.worker: WorkerProcess | None = None
        self.slot: int | None = None  # its id in the worker (a new one at each start)
        self.started = time.monotonic()
        self.last_input = self.started
        self._pending = bytearray()  # output not sent yet (within a frame)
        self.keys = Keyboard()  # input on its way to the PTY: bounded, never dropped
        self.sent_bytes = 0
        self.fed = 0  # bytes typed or pasted in all
        self.weighed = 0  # `fed` at the last reading of its worker's memory
        self.weight = 0.0  # what it was given lately (Terminals.measure)
        self.restarts: list[float] = []
        self.secret_header: str | None = None
        self._master = -1
        self._reading = False
        self._paused = False
        self._frame: asyncio.Handle | None = None
        self._idle: asyncio.TimerHandle | None = None
        self._resizing: asyncio.TimerHandle | None = None  # a window change on its way
        self._resized = float("-inf")  # when the last one was sent
        self._exit_code: asyncio.Future[int] | None = None
        self._ending: str | None = None  # why the server ends it (no restart)
        self._task: asyncio.Task[None] | None = None
        self.ended = False
        self.done = asyncio.Event()

    @property
    def closing(self) -> bool:
        """The server is ending it (or its terminal went)."""
        return self._ending is not None or self.ended

    @property
    def pid(self) -> int | None:
        """The worker process the app runs in."""
        return self.worker.pid if self.worker is not None else None

    # ------------------------------------------------------- transport side

    def feed(self, data: bytes) -> None:
        """Keys from the terminal; while `input_full`, the transport waits for
        `input_room()` before it reads more (server/doors/terminal/keyboard.py)."""
        self.last_input = time.monotonic()
        self.fed += len(data)
        self.keys.feed(data)

    @property
    def input_full(self) -> bool:
        return self.keys.full

    async def input_room(self) -> None:
        """Until the session takes more input (or has ended)."""
        await self.keys.room.wait()

    def resize(self, cols: int, rows: int) -> None:
        """The terminal's window changed (clamped to 300×100): redraw it all."""
        cols, rows = clamp(cols, rows)
        if (cols, rows) == (self.cols, self.rows):
            return
        self.cols, self.rows = cols, rows
        if self._resizing is None:
            wait = max(0.0, self._resized + RESIZE_GAP - time.monotonic())
            self._resizing = asyncio.get_running_loop().call_later(wait, self._send_size)

    def _send_size(self) -> None:
        """Tell the app the latest size (`resize` coalesces the changes in between)."""
        self._resizing = None
        self._resized = time.monotonic()
        if self._master >= 0:
            set_size(self._master, self.cols, self.rows)
        if self.worker is not None:
            self.worker.send({"resize": self.slot, "cols": self.cols, "rows": self.rows})

    def pause(self) -> None:
        """The terminal cannot take more now: stop reading (the client blocks on writes)."""
        self._paused = True
        self._stop_reading()

    def resume(self) -> None:
        self._paused = False
        self._start_reading()

    async def close(self, reason: str = "") -> None:
        """End the session from the server's side; `closed(reason, 0)` follows."""
        if self._ending is None:
            self._ending = reason
        await self._end_process()
        self._finish(reason, 0)

    def lost(self) -> None:
        """The terminal went away: end the process, say nothing."""
        self._ending = self._ending or ""
        self.ended = True
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._after_loss())

    async def _after_loss(self) -> None:
        await self._end_process()
        self._finish("", 0)

    # --------------------------------------------------------- the process

    async def start(self) -> None:
        """Start the client on a fresh PTY in a worker; raises ZygoteGone if impossible."""
        master, slave = os.openpty()
        set_size(master, self.cols, self.rows)
        os.set_blocking(master, False)
        env = {"TERM": self.term, "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}
        env["PATH"] = os.environ.get("PATH", "/usr/bin:/bin")
        url, self.secret_header = self.terminals.forward(self.peer, self.key)
        config = {"url": url, "name": self.name, "token": self.token, "watch": self.watch}
        config["records"], config["browser"] = self.records, self.browser
        self._exit_code = asyncio.get_running_loop().create_future()
        try:
            worker, slot = await self.terminals.pool.place(self)
            self.worker, self.slot = worker, slot
            msg = {"open": slot, "config": config, "env": env, "cols": self.cols}
            worker.open(slot, {**msg, "rows": self.rows}, slave)
        except BaseException:
            os.close(master)
            self._release_process()
            raise
        finally:
            os.close(slave)
        self._master = master
        self.keys.attach(master)
        if self.ended:  # the terminal went while the app started
            return
        self._start_reading()
        if self._idle is None and self.terminals.settings.idle_timeout:
            self._arm_idle(self.terminals.settings.idle_timeout)

    def _arm_idle(self, delay: float) -> None:
        self._idle = asyncio.get_running_loop().call_later(delay, self._check_idle)

    def _check_idle(self) -> None:
        timeout = self.terminals.settings.idle_timeout
        quiet = time.monotonic() - self.last_input
        if quiet < timeout:
            self._arm_idle(timeout - quiet)
            return
        minutes = round(timeout / 60)
        self._task = asyncio.get_running_loop().create_task(
            self.close(f"Closed after {minutes} min without a key press.")
        )

    def app_ended(self, code: int) -> None:
        """The worker says the app ended (or the worker died: KILLED)."""
        if self._exit_code is not None and not self._exit_code.done():
            self._exit_code.set_result(code)

    def _start_reading(self) -> None:
        if not self._reading and not self._paused and self._master >= 0:
            asyncio.get_running_loop().add_reader(self._master, self._read)
            self._reading = True

    def _stop_reading(self) -> None:
        if self._reading:
            asyncio.get_running_loop().remove_reader(self._master)
            self._reading = False

    def _read(self) -> None:
        try:
            data = os.read(self._master, 65536)
        except BlockingIOError:
            return
        except OSError as exc:  # EIO: the slave is closed, the app (or its worker) is gone
            if exc.errno != errno.EIO:
                raise
            data = b""
        if data:
            self._draw(data)
            return
        self._stop_reading()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._process_gone())

    def _draw(self, data: bytes) -> None:
        """The client's output (already only what changed): what the PTY gave in one turn
        of the loop goes out as one write."""
        self._pending += data
        if self._frame is None:
            self._frame = asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._frame = None
        data = bytes(self._pending)
        self._pending.clear()
        if data and not self.ended:
            self.sent_bytes += len(data)
            self._output(data)

    async def _process_gone(self) -> None:
        """The PTY closed: the app ended. Restart it after a fault, else close."""
        code = await self._wait_exit(EXIT_WAIT)
        code = 0 if code is None else code  # no word from the worker: cannot tell
        self._release_process()
        if self._frame is not None:
            self._frame.cancel()
            self._frame = None
        self._flush()
        if self.ended or self._ending is not None:
            return
        if code == 0:
            self._finish("The game client has ended. Goodbye!", 0)
            return
        now = time.monotonic()
        count, window = RESTARTS
        self.restarts = [t for t in self.restarts if now - t < window] + [now]
        log.warning("session %s (exit %s) failed; restart %d", self.name, code, len(self.restarts))
        if len(self.restarts) > count:
            self._finish("The game client keeps failing; please try again later.", 1)
            return
        self.watch = self.terminals.watched(self.token)
        try:
            await self.start()
        except (ZygoteGone, OSError):
            log.exception("session %s could not restart", self.name)
            self._finish("Sorry, the game could not start again; please reconnect.", 1)

    async def _wait_exit(self, timeout: float) -> int | None:
        """The app's exit code; None if none came within `timeout`."""
        if self._exit_code is None:
            return None
        with contextlib.suppress(TimeoutError):
            return await asyncio.wait_for(asyncio.shield(self._exit_code), timeout)
        return None

    async def _end_process(self) -> None:
        """End the app and wait for it (at most GRACE: then its PTY is closed under it,
        which ends it too, or its worker's watchdog does)."""
        if self.worker is None:
            return
        self.worker.send({"close": self.slot})
        await self._wait_exit(GRACE)
        if self._reading:  # what it wrote last
            with contextlib.suppress(OSError):
                while data := os.read(self._master, 65536):
                    self._draw(data)
        self._release_process()

    def _release_process(self) -> None:
        self._stop_reading()
        self.keys.detach()
        if self._master >= 0:
            os.close(self._master)
            self._master = -1
        if self.worker is not None:
            assert self.slot is not None
            self.worker.remove(self.slot)
            self.worker = None
        if self.secret_header is not None:
            self.terminals.unforward(self.secret_header)
            self.secret_header = None

    def _finish(self, reason: str, status: int) -> None:
        """Once: tell the transport, and let the machinery forget the session."""
        if self.done.is_set():
            return
        if self._frame is not None:
            self._frame.cancel()
            self._frame = None
        if self._idle is not None:
            self._idle.cancel()
        self.keys.close()
        if self._resizing is not None:
            self._resizing.cancel()
        was_ended, self.ended = self.ended, True
        self.terminals.forget(self, reason or self._ending or "closed by the client")
        self.done.set()
        if not was_ended:
            self._closed(reason, status)

    def info(self) -> dict[str, Any]:
        return {"name": self.name, "peer": self.peer, "pid": self.pid, "key": self.key}
