"""An SSH client for the tests: asyncssh on 127.0.0.1, the screen interpreted by pyte."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import asyncssh
import pyte

UP, DOWN = "\x1b[A", "\x1b[B"
F1 = "\x1bOP"
WAIT = 60.0  # an upper bound only, never a pause: tests wait on what arrives


class ScreenWaits:
    """Waiting on a terminal's screen: what an SSH session's `Terminal` and the browser
    door's page client share. The class sets `screen` (pyte), `raw` (every byte), and
    the events `changed` (set on each arrival) and `closed`."""

    screen: pyte.Screen
    raw: bytearray
    changed: asyncio.Event
    closed: asyncio.Event

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def output(self) -> str:
        return self.raw.decode("utf-8", "replace")

    async def wait(
        self,
        ok: Callable[[], bool],
        what: str,
        timeout: float = WAIT,
        progress: Callable[[], object] | None = None,
    ) -> None:
        """Wait until `ok()` holds, re-checking whenever bytes arrive. The bound starts
        again whenever `progress()` changes (a game's actions: bots' turns take longer on
        a loaded machine, a stalled game never ends)."""
        loop, seen = asyncio.get_running_loop(), progress() if progress else None
        try:
            async with asyncio.timeout(timeout) as bound:
                while not ok():
                    if self.closed.is_set():
                        raise AssertionError(f"closed while waiting for {what}:\n{self.text()}")
                    if progress and (now := progress()) != seen:
                        seen = now
                        bound.reschedule(loop.time() + timeout)
                    self.changed.clear()
                    await self.changed.wait()
        except TimeoutError:
            raise AssertionError(f"no {what} after {timeout} s:\n{self.text()}") from None

    async def wait_text(self, text: str, timeout: float = WAIT) -> None:
        await self.wait(lambda: text in self.text(), repr(text), timeout)

    async def wait_closed(self, timeout: float = WAIT) -> None:
        async with asyncio.timeout(timeout):
            await self.closed.wait()


class Terminal(ScreenWaits, asyncssh.SSHClientSession):  # type: ignore[type-arg]
    """One SSH session's terminal: every byte received, fed to a pyte screen."""

    def __init__(self, cols: int = 80, rows: int = 24) -> None:
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.received = 0
        self.raw = bytearray()
        self.exit_status: int | None = None
        self.chan: asyncssh.SSHClientChannel[bytes] | None = None
        self.closed = asyncio.Event()
        self.changed = asyncio.Event()

    def connection_made(self, chan: asyncssh.SSHClientChannel[bytes]) -> None:  # type: ignore[override]
        self.chan = chan

    def data_received(self, data: bytes, datatype: int | None) -> None:
        self.received += len(data)
        self.raw += data
        self.stream.feed(data)
        self.changed.set()

    def exit_status_received(self, status: int) -> None:
        self.exit_status = status

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()
        self.changed.set()

    def send(self, keys: str | bytes) -> None:
        assert self.chan is not None
        self.chan.write(keys.encode() if isinstance(keys, str) else keys)

    def resize(self, cols: int, rows: int) -> None:
        assert self.chan is not None
        self.screen.resize(rows, cols)
        self.chan.change_terminal_size(cols, rows)


class Guest(asyncssh.SSHClient):
    """Keyboard-interactive sign-in answering no questions (the server asks none)."""

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(
        self, name: str, instructions: str, lang: str, prompts: list[tuple[str, bool]]
    ) -> list[str]:
        return ["" for _ in prompts]


async def ssh_connect(
    port: int,
    user: str = "alice",
    key: asyncssh.SSHKey | None = None,
    local_addr: str = "127.0.0.1",
) -> asyncssh.SSHClientConnection:
    """A connection signed in with `key`, or as a guest without one."""
    return await asyncssh.connect(
        "127.0.0.1",
        port,
        username=user,
        client_keys=[key] if key is not None else None,
        known_hosts=None,
        agent_path=None,
        config=None,
        password=None,
        kbdint_auth=key is None,
        client_factory=Guest if key is None else None,
        local_addr=(local_addr, 0),
    )


async def open_terminal(
    conn: asyncssh.SSHClientConnection, cols: int = 80, rows: int = 24, pty: bool = True
) -> Terminal:
    """A shell session (with a PTY of that size unless `pty` is False)."""
    _, term = await conn.create_session(
        lambda: Terminal(cols, rows),
        term_type="xterm-256color" if pty else None,
        term_size=(cols, rows) if pty else None,
        encoding=None,
    )
    return term  # type: ignore[return-value]


def keys_for(game: Any, seat: int) -> str:
    """A quick player's keys for the decision the game waits on from `seat`: play the
    chosen card, add no second one, bid the least, set the lowest price, pass."""
    legal = game.legal(seat)
    if "play" in legal:
        return "\r"
    if "add" in legal:
        return "d"
    if "sealed" in legal or "price" in legal:
        return UP + "\r"  # ↑ on an empty amount: the lowest allowed; Enter sends it
    return "p" if "pass" in legal else ""


class KeyboardPlayer:
    """Types `seat`'s decisions into a terminal, reading the game from the in-process server.

    The server may know of a decision before the client has drawn it; keys that
    arrived too early are typed again once the screen has changed (every key
    sequence above may be repeated safely).
    """

    def __init__(self, term: Terminal, seat: int) -> None:
        self.term = term
        self.seat = seat
        self._sent: tuple[int, str] = (-1, "")

    def step(self, game: Any) -> None:
        if game is None or game.finished or self.seat not in game.to_act():
            return
        text = self.term.text()
        # A round's summary over the table takes the keys: Escape closes it first.
        keys = "\x1b" if "Enter: continue" in text else keys_for(game, self.seat)
        mark = (len(game.actions), text)
        if keys and mark != self._sent:
            self._sent = mark
            self.term.send(keys)
