"""Textual on one session's terminal, beside other sessions in the same process.

A worker process (server/doors/terminal/worker.py) runs several client apps in one
event loop, each on a PTY of its own that is not the process's controlling
terminal. So nothing here is process-wide, unlike Textual's LinuxDriver:
- keys: read from the session's PTY by the event loop (no thread), parsed by
  Textual's own XTermParser;
- window size: told by the server (`TerminalDriver.resize`, a control
  message), not SIGWINCH (which only the controlling terminal sends, once for
  the whole process), nor the size of the process's own terminal;
- the screen: the app hands its screen updates (Textual's strips, not the
  escape sequences it would write for them: `TerminalApp`) and its other
  output to `TerminalOutput`, a thread per session that draws them into the
  screen relay (only the changed cells go out, server/doors/terminal/screen.py) and
  writes to the PTY without blocking: a terminal that cannot take more (SSH flow
  control, a slow link) holds back only its own frames, which the relay
  merges into one difference when it can take more. Nothing it does blocks
  the event loop the other sessions share.
- no signal handlers (suspend and resume are for a process's own terminal).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import termios
import threading
import time
import tty
from codecs import getincrementaldecoder
from collections.abc import Callable
from functools import cache
from typing import Any

from rich.color import ColorSystem
from textual import constants, events
from textual.driver import Driver
from textual.geometry import Offset, Size

from modernart.server.doors.terminal.screen import ScreenRelay, pieces
from modernart.tui.textual_internals import (
    CompositorUpdate,
    StripDisplay,
    XTermParser,
    colour_system,
    driver_of,
    parser_waiting,
    raw_mode,
)

CLOSE_WAIT = 2.0  # seconds a closing session's last frame may wait for its terminal
ESCAPE_TICK = 0.1  # seconds: how long a lone ESC waits for the rest of a sequence (as Textual)


class TerminalOutput:
    """One session's screen: Textual's text in, the changed cells out to the PTY (`fd`).

    It owns `fd` and closes it when finished (`finish()`), which the server sees as
    the session's end (EIO on its side of the PTY)."""

    def __init__(self, fd: int, cols: int, rows: int) -> None:
        self.fd = fd
        self.relay = ScreenRelay(cols, rows)
        self._queue: list[Callable[[ScreenRelay], None]] = []  # for the relay, in order
        self._lock = threading.Lock()
        self._finishing = False
        self._wake_r, self._wake_w = os.pipe()
        for end in (fd, self._wake_r, self._wake_w):
            os.set_blocking(end, False)
        self._thread = threading.Thread(target=self._run, daemon=True, name="session-output")
        self._thread.start()

    def write(self, text: str) -> None:
        data = text.encode("utf-8", "replace")
        self._put(lambda relay: relay.feed(data))

    def draw(self, update: CompositorUpdate, cursor: Offset, colours: ColorSystem) -> None:
        drawn = pieces(update)  # now: the chops' mappings are the compositor's
        self._put(lambda relay: relay.draw(drawn, (cursor.x, cursor.y), colours))

    def resize(self, cols: int, rows: int) -> None:
        self._put(lambda relay: relay.resize(cols, rows))

    def cpu(self) -> float:
        """The CPU seconds its thread has used so far (drawing the screen's differences);
        0.0 once it has ended."""
        with contextlib.suppress(OSError, TypeError, ValueError, AttributeError):
            return time.clock_gettime(time.pthread_getcpuclockid(self._thread.ident))
        return 0.0

    def finish(self) -> None:
        """Send what is left (waiting at most CLOSE_WAIT for the terminal), then close."""
        with self._lock:
            self._finishing = True
        self._wake()

    def _put(self, item: Callable[[ScreenRelay], None]) -> None:
        with self._lock:
            if self._finishing:
                return
            self._queue.append(item)
        self._wake()

    def _wake(self) -> None:
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self._wake_w, b".")

    def _run(self) -> None:
        unsent = b""
        deadline: float | None = None
        alive = True  # False once the terminal is gone: drop what comes
        try:
            while True:
                with self._lock:
                    queue, self._queue = self._queue, []
                    finishing = self._finishing
                for item in queue:
                    item(self.relay)
                if finishing and deadline is None:
                    deadline = time.monotonic() + CLOSE_WAIT
                if alive and not unsent:
                    unsent = self.relay.take()
                if alive and unsent:
                    unsent, alive = self._write(unsent)
                if finishing and (not alive or not unsent or time.monotonic() >= deadline):
                    return
                wait = None if deadline is None else max(0.0, deadline - time.monotonic())
                writers = [self.fd] if alive and unsent else []
                readable, _, _ = select.select([self._wake_r], writers, [], wait)
                if readable:
                    with contextlib.suppress(BlockingIOError, OSError):
                        os.read(self._wake_r, 4096)
        finally:
            for end in (self.fd, self._wake_r, self._wake_w):
                with contextlib.suppress(OSError):
                    os.close(end)

    def _write(self, data: bytes) -> tuple[bytes, bool]:
        """Write what the terminal takes now: (what is left, whether it is still there)."""
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self.fd, view) :]
            except (BlockingIOError, InterruptedError):
                break
            except OSError:
                return b"", False
        return bytes(view), True


class SessionTerminal:
    """What a session's driver needs: its PTY's output and the size the server says."""

    def __init__(self, fd: int, cols: int, rows: int) -> None:
        self.fd = fd
        self.size = (cols, rows)
        self.output = TerminalOutput(fd, cols, rows)
        self.driver: TerminalDriver | None = None

    def resize(self, cols: int, rows: int) -> None:
        if (cols, rows) == self.size:
            return
        self.size = (cols, rows)
        self.output.resize(cols, rows)
        if self.driver is not None:
            self.driver.resized()


class TerminalDriver(Driver):
    """The driver of one session's app (its `terminal` given by the worker)."""

    def __init__(
        self,
        app: Any,
        *,
        terminal: SessionTerminal,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size)
        self.terminal = terminal
        self._parser = XTermParser(debug)
        self._decode = getincrementaldecoder("utf-8")(errors="replace").decode
        self._tick: asyncio.TimerHandle | None = None
        self._reading = False
        terminal.driver = self

    def write(self, data: str) -> None:
        self.terminal.output.write(data)

    def draw(self, update: CompositorUpdate, cursor: Offset) -> None:
        colours = colour_system(self._app.console) or ColorSystem.TRUECOLOR  # as Strip.render
        self.terminal.output.draw(update, cursor, colours)

    def start_application_mode(self) -> None:
        fd = self.terminal.fd
        with contextlib.suppress(termios.error):  # raw keys, as LinuxDriver sets them
            attrs = termios.tcgetattr(fd)
            attrs[tty.LFLAG], attrs[tty.IFLAG] = raw_mode(attrs[tty.LFLAG], attrs[tty.IFLAG])
            attrs[tty.CC][termios.VMIN] = 1
            termios.tcsetattr(fd, termios.TCSANOW, attrs)
        self.resized()
        write = self.write
        write("\x1b[?1049h")  # the alternate screen
        self._mouse_modes("h")
        write("\x1b[?25l")  # hide the cursor
        write("\x1b[?1004h")  # focus in/out
        if not constants.DISABLE_KITTY_KEY:
            write("\x1b[>25u")  # the kitty keyboard protocol, LinuxDriver's flags (1|8|16)
        write("\x1b[?2026$p")  # does the terminal synchronise output?
        write("\x1b[?2004h")  # bracketed paste
        write("\x1b[?7l")  # no line wrap
        self._loop.add_reader(fd, self._read)
        self._reading = True

    def _mouse_modes(self, on_off: str) -> None:
        if self._mouse:
            for mode in (1000, 1003, 1015, 1006):
                self.write(f"\x1b[?{mode}{on_off}")

    def resized(self) -> None:
        """The terminal's size changed (or is first known): tell the app."""
        size = Size(*self.terminal.size)
        self.send_message(events.Resize(size, size))

    def send_message(self, message: Any) -> None:
        # In the loop's own thread (not from an input thread as Textual's drivers).
        self._app.post_message(message)

    def _read(self) -> None:
        try:
            data = os.read(self.terminal.fd, 4096)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:  # the server closed its side: the session is over
            self.disable_input()
            self._app.exit()
            return
        # A read that ends inside a character decodes to "" (its bytes wait in the
        # decoder for the rest), which the parser would take for the end of input.
        if text := self._decode(data):
            for event in self._parser.feed(text):
                self.process_message(event)
        self._arm_tick()

    def _arm_tick(self) -> None:
        if self._tick is not None:
            self._tick.cancel()
        self._tick = self._loop.call_later(ESCAPE_TICK, self._on_tick)

    def _on_tick(self) -> None:
        """A lone ESC (the Escape key) is told from a sequence's start by a timeout."""
        self._tick = None
        for event in self._parser.tick():
            self.process_message(event)
        if parser_waiting(self._parser):
            self._arm_tick()

    def disable_input(self) -> None:
        if self._reading:
            self._reading = False
            with contextlib.suppress(ValueError, OSError):
                self._loop.remove_reader(self.terminal.fd)
            self._mouse_modes("l")
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None

    def stop_application_mode(self) -> None:
        self.write("\x1b[?2004l")
        self.write("\x1b[?7h")
        self.disable_input()
        self.write("\x1b[<u")  # the kitty keyboard protocol off, before leaving the screen
        self.write("\x1b[?1049l")
        self.write("\x1b[?25h")
        self.write("\x1b[?1004l")


class TerminalApp(StripDisplay):
    """Mixed into a session's app: its screen updates go to the relay as Textual's strips.

    Textual's `App._display` writes an update as escape sequences, which the relay
    would have to parse back into cells; this hands it the cells' strips instead
    (docs/decisions/screen-relay.md; tui/textual_internals.py). Anything else is
    displayed as Textual does."""

    def draws_updates(self) -> bool:
        return isinstance(driver_of(self), TerminalDriver)

    def draw_update(self, update: CompositorUpdate) -> None:
        app: Any = self
        cursor = app.screen.outer_size.clamp_offset(app.cursor_position)
        driver_of(self).draw(update, cursor)


@cache
def terminal_app(app_class: type) -> type:
    """`app_class` drawing through `TerminalApp` (one subclass per class, made once)."""
    return type(app_class.__name__, (TerminalApp, app_class), {"__module__": app_class.__module__})
