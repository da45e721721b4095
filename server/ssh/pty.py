"""One SSH session's client process on a PTY: start it, pump bytes, resize it, end it.

The process (`server/ssh/client.py`) runs in a session of its own with the PTY
slave as its controlling terminal; the SSH server holds the master side. Ending
it is certain: closing the lifeline pipe makes it exit, SIGHUP and then SIGKILL
to its whole process group follow if it lingers.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import json
import os
import signal
import struct
import sys
import termios
from collections.abc import Callable

GRACE = 2.0  # seconds between asking the process to end and killing it


def set_size(fd: int, cols: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


class ClientProcess:
    """The client of one session; `output` gets what it writes, `ended` its exit code."""

    def __init__(
        self,
        output: Callable[[bytes], None],
        ended: Callable[[int], None],
    ) -> None:
        self._output = output
        self._ended = ended
        self._master = -1
        self._lifeline = -1
        self._reading = False
        self.proc: asyncio.subprocess.Process | None = None
        self._watcher: asyncio.Task[None] | None = None

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    async def start(self, config: dict[str, str | None], term: str, cols: int, rows: int) -> None:
        """Start `python -m modernart.server.ssh.client` on a fresh PTY of that size.

        `config` ({url, name, token}) goes through a pipe, before the process
        reads anything else, and never into argv or the environment.
        """
        master, slave = os.openpty()
        set_size(master, cols, rows)
        os.set_blocking(master, False)
        read_end, write_end = os.pipe()
        env = {
            "TERM": term or "xterm-256color",
            "LANG": "C.UTF-8",
            "PYTHONIOENCODING": "utf-8",
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        }
        try:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "modernart.server.ssh.client",
                str(read_end),
                stdin=slave,
                stdout=slave,
                stderr=slave,
                pass_fds=(read_end,),
                start_new_session=True,
                env=env,
                close_fds=True,
            )
        except BaseException:
            for fd in (master, write_end):
                os.close(fd)
            raise
        finally:
            os.close(slave)
            os.close(read_end)
        self._master, self._lifeline = master, write_end
        os.write(write_end, json.dumps(config).encode() + b"\n")
        self.resume()
        self._watcher = asyncio.create_task(self._watch())

    # ----------------------------------------------------------- the bytes

    def write(self, data: bytes) -> None:
        """Keys from the SSH client to the process (the PTY buffers them)."""
        if self._master < 0:
            return
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self._master, data)

    def pause(self) -> None:
        """Stop reading (the SSH channel is full): the process blocks on its writes."""
        if self._reading:
            asyncio.get_running_loop().remove_reader(self._master)
            self._reading = False

    def resume(self) -> None:
        if not self._reading and self._master >= 0:
            asyncio.get_running_loop().add_reader(self._master, self._read)
            self._reading = True

    def _read(self) -> None:
        try:
            data = os.read(self._master, 65536)
        except BlockingIOError:
            return
        except OSError as exc:  # EIO: every slave side is closed, the process is gone
            if exc.errno != errno.EIO:
                raise
            data = b""
        if data:
            self._output(data)
        else:
            self.pause()

    def resize(self, cols: int, rows: int) -> None:
        if self._master >= 0:
            set_size(self._master, cols, rows)

    # ----------------------------------------------------------- the end

    async def _watch(self) -> None:
        assert self.proc is not None
        code = await self.proc.wait()
        if self._reading:  # what it wrote last, before the notice
            with contextlib.suppress(OSError):
                while data := os.read(self._master, 65536):
                    self._output(data)
        self._close_fds()
        self._ended(code)

    async def stop(self) -> None:
        """End the process (and anything it started) and wait for it: no orphans."""
        proc = self.proc
        if proc is None:
            return
        if self._lifeline >= 0:
            os.close(self._lifeline)  # the process exits on EOF
            self._lifeline = -1
        if proc.returncode is None:
            self._signal(signal.SIGHUP)
            try:
                await asyncio.wait_for(asyncio.shield(proc.wait()), GRACE)
            except TimeoutError:
                self._signal(signal.SIGKILL)
                await proc.wait()
        if self._watcher is not None:
            await asyncio.shield(self._watcher)

    def _signal(self, sig: int) -> None:
        assert self.proc is not None
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, sig)

    def _close_fds(self) -> None:
        self.pause()
        for fd in (self._master, self._lifeline):
            if fd >= 0:
                os.close(fd)
        self._master = self._lifeline = -1
