"""The input attacks of issue 33 (items 2, 3, 5), against the SSH door (guests) of
scripts/attack.py's server: what a session types, pastes or never finishes pasting.
Each returns what it achieved; attack.py times the healthy game beside it.

- "33.2 unterminated paste": ESC[200~ then junk at full speed, never the end; the
  largest worker's RSS before, at the peak and after, then whether Ctrl+Q works once
  the paste's end comes (the old code: 52 to 1,710 MB in 200 s).
- "33.3 split UTF-8": a character's bytes in separate writes into the name box, then
  Ctrl+Q (the old code: the keys dead, a traceback a read).
- "33.5 large paste": a 60 KiB bracketed paste into the name box, then Ctrl+Q (the old
  code: the paste's end dropped, the session stuck in paste mode).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import Callable
from typing import Any

import asyncssh
import attack_ssh
import psutil
import pyte

PASTE_START, PASTE_END = b"\x1b[200~", b"\x1b[201~"
CTRL_Q = b"\x11"
NAMES = (f"typist{n}" for n in itertools.count())  # a name taken before asks first
SSH_PORT = WEB_PORT = 0  # set by attack.py in the attack's process


class Term(asyncssh.SSHClientSession):  # type: ignore[type-arg]
    """A session's screen as pyte draws it; `changed` is set on every arrival."""

    def __init__(self) -> None:
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.changed = asyncio.Event()
        self.closed = asyncio.Event()

    def data_received(self, data: bytes, datatype: int | None) -> None:
        self.stream.feed(data)
        self.changed.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()
        self.changed.set()

    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def until(self, ok: Callable[[], bool], timeout: float = 10.0) -> bool:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                while not ok():
                    self.changed.clear()
                    await self.changed.wait()
                return True
        return False

    async def shows(self, text: str, timeout: float = 10.0) -> bool:
        return await self.until(lambda: text in self.text(), timeout)


async def name_box(address: str) -> tuple[asyncssh.SSHClientConnection, Any, Term]:
    """A guest in the lobby with the name box open (n)."""
    conn = await attack_ssh.guest(address, next(NAMES))
    chan, term = await conn.create_session(
        Term, term_type="xterm-256color", term_size=(80, 24), encoding=None
    )
    if not await term.shows("Rooms", 30):
        raise RuntimeError(f"no lobby: {term.text()!r}")
    chan.write(b"n")
    if not await term.shows("Your name"):
        raise RuntimeError("no name box")
    return conn, chan, term


def workers_rss_mb() -> dict[int, float]:
    """The RSS of each worker process of the server listening on the SSH port (the
    zygote's children; the zygote is the server's child)."""
    server = next(
        (
            c.pid
            for c in psutil.net_connections("tcp")
            if c.laddr and c.laddr.port == SSH_PORT and c.status == "LISTEN"
        ),
        None,
    )
    if server is None:
        return {}
    found: dict[int, float] = {}
    for zygote in psutil.Process(server).children():
        for worker in zygote.children():
            with contextlib.suppress(psutil.Error):
                found[worker.pid] = worker.memory_info().rss / 2**20
    return found


async def unterminated_paste(url: str, end: float) -> dict[str, Any]:
    """33.2: ESC[200~ then junk at full speed, never the end; the workers' RSS."""
    conn, chan, term = await name_box("127.0.0.33")
    before = max(workers_rss_mb().values(), default=0.0)
    peak = before
    chan.write(PASTE_START + b"Zed\n")
    sent, junk, sample = 0, b"x" * 65536, 0.0
    while time.monotonic() < end - 3 and not term.closed.is_set():
        if time.monotonic() >= sample:  # twice a second
            sample = time.monotonic() + 0.5
            peak = max(peak, *workers_rss_mb().values())
        if chan.get_write_buffer_size() < 1 << 20:
            chan.write(junk)
            sent += len(junk)
        else:
            await asyncio.sleep(0.01)
    after = max(workers_rss_mb().values(), default=0.0)
    chan.write(PASTE_END + CTRL_Q)  # the paste's end, late: do the keys work again?
    t0 = time.monotonic()
    quits = await term.until(term.closed.is_set, 30)  # after the junk still in flight
    conn.close()
    return {
        "MB sent": round(sent / 2**20),
        "largest worker's RSS MB before / peak / after": f"{before:.0f} / "
        f"{max(peak, after):.0f} / {after:.0f}",
        "Ctrl+Q after the end": f"quit in {time.monotonic() - t0:.1f} s" if quits else "dead",
    }


async def split_utf8(url: str, end: float) -> dict[str, Any]:
    """33.3: one write of a character's first byte, the rest later; then Ctrl+Q."""
    arrived = quit_ok = tries = 0
    while tries == 0 or time.monotonic() < end - 5:
        tries += 1
        conn, chan, term = await name_box(f"127.0.34.{tries % 250}")  # new sessions are rated
        for byte in "日".encode():
            chan.write(bytes([byte]))  # alone: the app reads it alone
            await asyncio.sleep(0.2)
        arrived += await term.shows("日", 5)
        chan.write(CTRL_Q)
        quit_ok += await term.until(term.closed.is_set, 5)
        conn.close()
        await asyncio.sleep(1)  # a person trying again
    return {"tries": tries, "character arrived": arrived, "Ctrl+Q worked": quit_ok}


async def large_paste(url: str, end: float) -> dict[str, Any]:
    """33.5: a 60 KiB bracketed paste into the name box, then Ctrl+Q."""
    arrived = quit_ok = tries = 0
    paste = PASTE_START + b"Zed\n" + b"x" * (60 * 1024) + PASTE_END
    while tries == 0 or time.monotonic() < end - 10:
        tries += 1
        conn, chan, term = await name_box(f"127.0.35.{tries % 250}")
        chan.write(paste)
        arrived += await term.shows("Zed", 10)
        chan.write(CTRL_Q)
        quit_ok += await term.until(term.closed.is_set, 10)
        conn.close()
        await asyncio.sleep(1)
    return {"tries": tries, "paste arrived": arrived, "Ctrl+Q worked": quit_ok}


ATTACKS = {
    "33.2 unterminated paste": unterminated_paste,
    "33.3 split UTF-8": split_utf8,
    "33.5 large paste": large_paste,
}
