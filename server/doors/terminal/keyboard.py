"""What a session's terminal types, on its way to its app's PTY (issue 33).

Everything is bounded here, in the server, before a byte reaches the worker that
several sessions share:
- a bracketed paste (ESC[200~ … ESC[201~) longer than `InputLimits.max_paste` is
  cut: the door sends the end marker itself and drops the rest of the paste, up
  to and with the terminal's own end marker. Textual's parser keeps a paste in
  memory until its end, so an unterminated one grew a worker without bound; the
  game never needs more than a name or a chat line.
- what goes on to the app is rated (`rate` bytes a second, `burst` at once), and so
  is what the door reads (`read_rate`, `read_burst`, dropped paste included): past
  either, what was read waits and the transport is paused (SSH stops reading its
  channel, the page's socket is not read) until it has been handled. Nothing is
  buffered beyond one read (SSH: what asyncssh had buffered, at most its window).
- nothing else is dropped: what the PTY cannot take now waits, and the transport
  is paused until it has gone (a paste of 12 KiB or more lost its end marker to a
  full PTY, and the app stayed in paste mode).

A transport feeds (`feed`) and, while `full`, waits for `room` before reading on.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass

PASTE_START = b"\x1b[200~"
PASTE_END = b"\x1b[201~"
STEP = 64 * 1024  # bytes read from the transport handled at a time


@dataclass(frozen=True)
class InputLimits:
    """One session's input bounds; see docs/operations.md."""

    max_paste: int = 64 * 1024  # bytes of one bracketed paste the app gets
    rate: float = 8 * 1024  # bytes a second on to the app, sustained
    burst: float = 96 * 1024  # bytes at once: a whole paste at its limit, and typing
    # What the door reads, a cut paste's dropped rest included (it costs the server's
    # loop the transport's work: SSH decryption, a page's frames).
    read_rate: float = 1024 * 1024  # bytes a second
    read_burst: float = 16 * 1024 * 1024


class PasteCutter:
    """Follows bracketed pastes through the bytes as they come (a marker may be split
    between reads) and cuts those longer than `limit` bytes."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.pasting = False  # inside a paste
        self.dropping = False  # past the limit: the rest of the paste is dropped
        self.cuts = 0  # pastes cut so far
        self._size = 0  # bytes of the current paste passed on
        self._matched = 0  # bytes of the awaited marker that ended the last read

    def feed(self, data: bytes) -> bytes:
        """What passes on to the app of `data` (the next bytes from the terminal)."""
        out: list[bytes] = []
        pos, size = 0, len(data)
        while pos < size:
            if not self.pasting:
                end = self._scan(PASTE_START, data, pos)
                if end < 0:
                    out.append(data[pos:])
                    break
                out.append(data[pos:end])
                pos, self.pasting, self._size = end, True, 0
                continue
            end = self._scan(PASTE_END, data, pos)
            stop = size if end < 0 else end
            room = self.limit if end < 0 else self.limit + len(PASTE_END)  # the end is free
            if self.dropping:
                pass
            elif self._size + stop - pos <= room:
                out.append(data[pos:stop])
                self._size += stop - pos
            else:  # the app gets the paste up to the limit, then its end
                out += [data[pos : pos + self.limit - self._size], PASTE_END]
                self.dropping = True
                self.cuts += 1
            pos = stop
            if end >= 0:
                self.pasting = self.dropping = False
        return b"".join(out)

    def _scan(self, marker: bytes, data: bytes, pos: int) -> int:
        """The index just after `marker`'s first end in `data[pos:]`, counting the part
        of it that ended the previous read; -1 if none (then what `data` ends with of
        it is kept for the next read)."""
        if self._matched:
            rest = marker[self._matched :]
            if data.startswith(rest, pos):
                self._matched = 0
                return pos + len(rest)
            if rest.startswith(data[pos:]):
                self._matched += len(data) - pos
                return -1
            self._matched = 0  # the marker has one ESC: no other start spans the reads
        found = data.find(marker, pos)
        if found >= 0:
            return found + len(marker)
        tail = data.rfind(b"\x1b", max(pos, len(data) - len(marker) + 1))
        if tail >= 0 and marker.startswith(data[tail:]):
            self._matched = len(data) - tail
        return -1


class Bucket:
    """A token bucket of bytes: `take` may overdraw it; `wait` says how long until it
    is no longer overdrawn."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float]) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.level = burst
        self._at = clock()

    def _refill(self) -> None:
        now = self.clock()
        self.level = min(self.burst, self.level + (now - self._at) * self.rate)
        self._at = now

    def take(self, count: int) -> None:
        self._refill()
        self.level -= count

    def wait(self) -> float:
        self._refill()
        return 0.0 if self.level >= 0 else -self.level / self.rate


def step(inbox: bytearray) -> bytes:
    """The next piece of `inbox` to handle: at most STEP bytes, and not ending at what
    may start an escape sequence (a rate's wait would part it from its end, and Textual
    would take its ESC for the Escape key)."""
    if len(inbox) <= STEP:
        return bytes(inbox)
    cut = inbox.rfind(b"\x1b", STEP - 32, STEP)
    return bytes(inbox[: cut if cut > 0 else STEP])


class Keyboard:
    """One session's input: what the transport gave (`inbox`, one read at most while the
    transport waits) is cut (`PasteCutter`), rated (`Bucket`s) and written to its PTY
    (`attach`) as fast as the PTY takes it."""

    def __init__(
        self, limits: InputLimits | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        limits = limits or InputLimits()
        self.cutter = PasteCutter(limits.max_paste)
        self.bucket = Bucket(limits.rate, limits.burst, clock)
        self.reading = Bucket(limits.read_rate, limits.read_burst, clock)
        self.inbox = bytearray()  # read from the transport, not handled yet
        self.pending = bytearray()  # passed, not taken by the PTY yet
        self.read = 0  # bytes handled of what the transport gave
        self.written = 0  # bytes the PTY took
        self.room = asyncio.Event()  # set while the transport may read on
        self.room.set()
        self._fd = -1
        self._writing = False
        self._timer: asyncio.TimerHandle | None = None
        self._closed = False

    @property
    def full(self) -> bool:
        return not self.room.is_set()

    def feed(self, data: bytes) -> None:
        if not self._closed:
            self.inbox += data
            self._pump()

    def attach(self, fd: int) -> None:
        """Write to this PTY (a non-blocking master) from now on."""
        self._fd = fd
        self._write()
        self._pump()

    def detach(self) -> None:
        """The PTY is closing (the app ended): what waited for it is lost with it, as
        what the PTY itself held, and a new app's parser starts outside any paste."""
        self._stop_writing()
        self._fd = -1
        self.inbox.clear()
        self.pending.clear()
        self.cutter = PasteCutter(self.cutter.limit)
        self._check()

    def close(self) -> None:
        """The session is over: nothing waits on it any more."""
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.detach()

    def _pump(self) -> None:
        """Handle the inbox as fast as the rates and the PTY allow."""
        while self.inbox and not self.pending and self._timer is None:
            wait = max(self.bucket.wait(), self.reading.wait())
            if wait > 0:
                self._timer = asyncio.get_running_loop().call_later(wait, self._rated)
                break
            piece = step(self.inbox)
            del self.inbox[: len(piece)]
            self.read += len(piece)
            self.reading.take(len(piece))
            passed = self.cutter.feed(piece)
            if passed:
                self.bucket.take(len(passed))
                self.pending += passed
                self._write()
        self._check()

    def _rated(self) -> None:
        self._timer = None
        self._pump()

    def _write(self) -> None:
        if self._fd < 0:
            return
        while self.pending:
            try:
                count = os.write(self._fd, self.pending)
            except (BlockingIOError, InterruptedError):
                break
            except OSError:  # the app's side is gone: its session ends or restarts
                self.pending.clear()
                break
            del self.pending[:count]
            self.written += count
        if self.pending and not self._writing:
            asyncio.get_running_loop().add_writer(self._fd, self._drain)
            self._writing = True
        elif not self.pending:
            self._stop_writing()

    def _drain(self) -> None:
        self._write()
        self._pump()

    def _stop_writing(self) -> None:
        if self._writing:
            self._writing = False
            with contextlib.suppress(ValueError, OSError):
                asyncio.get_running_loop().remove_writer(self._fd)

    def _check(self) -> None:
        """The transport reads on only once everything it gave has been handled."""
        if self._closed or not (self.inbox or self.pending or self._timer):
            self.room.set()
        else:
            self.room.clear()
