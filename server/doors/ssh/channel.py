"""One SSH session channel, before it is known what it is for (issue 28).

asyncssh hands a session its requests in order: the channel, a PTY perhaps, then
`shell`, `exec` or `subsystem`, then `session_started`. `Channel` passes them to the
game's terminal session (server.py's `Session`) until an `exec` of `record`/`scp` or
the `sftp` subsystem asks for the records instead: from then on everything goes to the
records' session (records.py), which the game's session never hears of.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import asyncssh

from modernart.server.doors.ssh.records import wants_records

Session = asyncssh.SSHServerSession  # type: ignore[type-arg]


class Channel(Session):
    def __init__(self, game: Any, records: Callable[[], Any]) -> None:
        self.target = game
        self.records = records
        self.chan: Any = None
        self.switched = False

    def _requests_records(self, command: str | None, subsystem: str | None) -> None:
        if wants_records(command, subsystem) and not self.switched:
            self.switched = True
            self.target = self.records()
            self.target.connection_made(self.chan)

    def connection_made(self, chan: Any) -> None:
        self.chan = chan
        self.target.connection_made(chan)

    def exec_requested(self, command: str) -> bool:
        self._requests_records(command, None)
        return bool(self.target.exec_requested(command))

    def subsystem_requested(self, subsystem: str) -> bool:
        self._requests_records(None, subsystem)
        return bool(self.target.subsystem_requested(subsystem))

    # the rest goes to whichever session the channel is for
    def pty_requested(self, *args: Any) -> bool:
        return bool(self.target.pty_requested(*args))

    def shell_requested(self) -> bool:
        return bool(self.target.shell_requested())

    def session_started(self) -> None:
        self.target.session_started()

    def data_received(self, data: Any, datatype: Any) -> None:
        self.target.data_received(data, datatype)

    def eof_received(self) -> bool:
        return bool(self.target.eof_received())

    def soft_eof_received(self) -> None:
        self.target.soft_eof_received()

    def terminal_size_changed(self, *args: Any) -> None:
        self.target.terminal_size_changed(*args)

    def break_received(self, msec: int) -> bool:
        return bool(self.target.break_received(msec))

    def signal_received(self, signal: str) -> None:
        self.target.signal_received(signal)

    def pause_writing(self) -> None:
        self.target.pause_writing()

    def resume_writing(self) -> None:
        self.target.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self.target.connection_lost(exc)
