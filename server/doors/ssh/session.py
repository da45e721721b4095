"""One SSH session channel (`Session`): its terminal session (server/doors/terminal/),
fed the player's keys and writing the screen back, or the one line that says why
there is none (no terminal, a bad user name, a command, a refusal).

Its connection, and what may connect, are server/doors/ssh/server.py's.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, Protocol

import asyncssh

from modernart.server.doors.ssh.records import download_hint
from modernart.server.doors.terminal import Refused, Terminals, TerminalSession
from modernart.server.wire.logthrottle import LogThrottle


class Door(Protocol):
    """What a session needs of the SSH door (server/doors/ssh/server.py's `SshGate`)."""

    port: int
    terminals: Terminals
    sessions: set[Session]  # the open ones
    quiet: LogThrottle


class Keeper(Protocol):
    """What a session needs of its connection (server/doors/ssh/server.py's `Gatekeeper`)."""

    gate: Door
    address: str
    fingerprint: str | None  # the key that signed in; None for a guest


def valid_name(name: str) -> bool:
    """PROTOCOL.md's player name: 1–24 printable characters, not all blank."""
    return 1 <= len(name) <= 24 and name.isprintable() and bool(name.strip())


class Session(asyncssh.SSHServerSession):  # type: ignore[type-arg]
    """One session channel: its terminal session, or the message of why there is none."""

    def __init__(self, keeper: Keeper) -> None:
        self.keeper = keeper
        self.gate = keeper.gate
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.command: str | None = None
        self.terminal: TerminalSession | None = None
        self.ended = False
        self._task: asyncio.Task[None] | None = None
        self._held: asyncio.Task[None] | None = None  # resumes reading (`_hold`)
        self.done = asyncio.Event()  # set once the session is over and forgotten

    @property
    def process(self) -> TerminalSession | None:
        """The terminal session (its `pid` is the client process's)."""
        return self.terminal

    # asyncssh callbacks ----------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: Any, term_modes: Any) -> bool:
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command  # not `record`/scp (channel.py): answered with a message
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        return False  # every subsystem but SFTP (channel.py)

    def session_started(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    def data_received(self, data: bytes, datatype: int | None) -> None:
        if self.terminal is not None:
            self.terminal.feed(data)
            if self.terminal.input_full and self._held is None and self.chan is not None:
                self.chan.pause_reading()  # the client's window fills and it waits
                self._held = asyncio.get_running_loop().create_task(self._hold(self.chan))

    async def _hold(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        """Resume once the session has handled its input; each resume takes all that
        asyncssh buffered (it reopens the whole window at the first packet it delivers)."""
        while self.terminal is not None and self.terminal.input_full and not self.ended:
            await self.terminal.input_room()
            chan.resume_reading()  # delivers what asyncssh buffered, now
            if self.terminal.input_full:
                chan.pause_reading()
        self._held = None

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if self.terminal is not None:
            self.terminal.resize(width, height)

    def pause_writing(self) -> None:
        if self.terminal is not None:
            self.terminal.pause()

    def resume_writing(self) -> None:
        if self.terminal is not None:
            self.terminal.resume()

    def eof_received(self) -> bool:
        return False  # close the channel

    def break_received(self, msec: int) -> bool:
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.ended = True
        if self.terminal is not None:
            self.terminal.lost()
        elif self._task is None or self._task.done():
            self._forget()

    # the session ------------------------------------------------------------

    def _host(self) -> str:
        """The address the player reached this door at."""
        assert self.chan is not None
        return str((self.chan.get_extra_info("sockname") or ("HOST",))[0])

    def _usage(self, flag: str = "") -> str:
        """The command to use, e.g. `ssh -t -p 2222 alice@203.0.113.5`."""
        assert self.chan is not None
        user = self.chan.get_extra_info("username") or "USER"
        host = f"[{self._host()}]" if ":" in self._host() else self._host()
        return f"ssh {flag}-p {self.gate.port} {user}@{host}"

    async def _run(self) -> None:
        chan = self.chan
        assert chan is not None
        if self.command is not None:
            usage = self._usage()
            self._refuse(f"This server runs the game (`{usage}`) and `{usage} record ROOM`.")
            return
        try:
            term = chan.get_terminal_type()
        except UnicodeError:  # a TERM that is not text: the default terminal
            term = "xterm-256color"
        if term is None:
            self._refuse(f"The game needs a terminal: connect with `{self._usage('-t ')}`.")
            return
        name = chan.get_extra_info("username") or ""
        if not valid_name(name):
            self._refuse("Your user name is your player name: 1 to 24 printable characters.")
            return
        address = self.keeper.address
        cols, rows, _, _ = chan.get_terminal_size()
        self.gate.sessions.add(self)
        try:
            self.terminal = await self.gate.terminals.open(
                peer=address,
                name=name,
                term=term,
                cols=cols,
                rows=rows,
                key=self.keeper.fingerprint,
                output=self._send,
                closed=self._close,
                records=download_hint(name, self._host(), self.gate.port),
            )
        except Refused as exc:
            self._refuse(str(exc))
            self._forget()
            return
        except Exception:
            self.gate.quiet.exception("start", "SSH session from %s failed to start", address)
            self._refuse("Sorry, the game could not start; please try again later.")
            self._forget()
            return
        if self.ended:
            self.terminal.lost()
        await self.terminal.done.wait()
        self._forget()

    def _send(self, data: bytes) -> None:
        if data and self.chan is not None and not self.ended:
            with contextlib.suppress(BrokenPipeError):  # closed: connection_lost follows
                self.chan.write(data)

    def _refuse(self, text: str) -> None:
        self._close(text, 1)

    def _close(self, text: str, status: int) -> None:
        """Write a last line and close the channel with an exit status."""
        if self.chan is None or self.ended:
            return
        self.ended = True
        if text:
            self.chan.write(("\r\n" + text + "\r\n").encode())
        self.chan.exit(status)

    async def end(self, text: str) -> None:
        """Close this session from the server's side with a message; wait for its process."""
        if self.terminal is not None:
            await self.terminal.close(text)
        else:
            self._close(text, 0)
        await self.done.wait()

    def _forget(self) -> None:
        self.gate.sessions.discard(self)
        self.done.set()
