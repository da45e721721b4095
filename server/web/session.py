"""One browser session: the page's WebSocket on one side, a client on a terminal on the other.

The page speaks textual-serve's envelope: text frames `["stdin", text]`,
and `["resize", {"width": W, "height": H}]`; the server sends the terminal's
output as binary frames. Other envelopes are ignored.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from ..ssh_output import SgrFilter
from ..ssh_pty import ClientProcess
from ..ssh_screen import ScreenRelay

log = logging.getLogger("modernart.server.web")

FRAME = 0.02  # seconds: output goes out as at most 50 frames a second
MIN_SIZE, MAX_SIZE = (20, 10), (500, 200)
HIGH_WATER = 256 * 1024  # queued output bytes at which the client is paused


def clamp_size(cols: Any, rows: Any) -> tuple[int, int] | None:
    """A terminal size from the page, or None if it is not one."""
    if type(cols) is not int or type(rows) is not int:
        return None
    return (
        min(max(cols, MIN_SIZE[0]), MAX_SIZE[0]),
        min(max(rows, MIN_SIZE[1]), MAX_SIZE[1]),
    )


class BadEnvelope(ValueError):
    """A frame from the page that is not one of the envelope's messages."""


def parse(frame: str | bytes) -> tuple[str, Any]:
    if not isinstance(frame, str):
        raise BadEnvelope("the page sends text frames")
    try:
        message = json.loads(frame)
    except ValueError as exc:
        raise BadEnvelope("not JSON") from exc
    if not (isinstance(message, list) and len(message) == 2 and isinstance(message[0], str)):
        raise BadEnvelope("not [type, data]")
    return message[0], message[1]


class BrowserSession:
    """The client process of one page, its screen relay, and the bytes between them."""

    def __init__(
        self,
        ws: ServerConnection,
        config: dict[str, str | None],
        size: tuple[int, int],
        idle_timeout: float,
        on_end: Callable[[], Awaitable[None]],
    ) -> None:
        self.ws = ws
        self.config = config
        self.cols, self.rows = size
        self.idle_timeout = idle_timeout
        self.on_end = on_end
        self.relay = ScreenRelay(self.cols, self.rows)
        self.sgr = SgrFilter()
        self.process = ClientProcess(self._output, self._ended)
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self.queued = 0
        self.bytes_sent = 0
        self.last_input = time.monotonic()
        self._frame: asyncio.TimerHandle | None = None
        self.done = asyncio.Event()  # the client ended, or the server ends the session
        self.closing: tuple[str, str] | None = None
        self.finished = asyncio.Event()  # everything is cleaned up

    async def run(self) -> None:
        """Until the page goes or the client ends: pump both ways, then clean up."""
        sender = asyncio.create_task(self._send_loop())
        farewell: tuple[str, str] | None = None  # (the terminal's last line, the close reason)
        try:
            await self.process.start(self.config, "xterm-256color", self.cols, self.rows)
            reader = asyncio.create_task(self._read_loop())
            ended = asyncio.create_task(self.done.wait())
            idle = asyncio.create_task(self._idle_watch())
            finished, _ = await asyncio.wait(
                {reader, ended, idle}, return_when=asyncio.FIRST_COMPLETED
            )
            for task in (reader, ended, idle):
                task.cancel()
            if idle in finished:
                minutes = round(self.idle_timeout / 60)
                farewell = (f"Closed after {minutes} min without a key press.", "idle")
            elif ended in finished:
                farewell = self.closing or ("The game client has ended. Goodbye!", "client ended")
        finally:
            await self.process.stop()
            self._flush()
            if farewell is not None:
                self._put(self.sgr.finish() + f"\r\n{farewell[0]}\r\n".encode())
            self.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await sender
            if farewell is not None:
                with contextlib.suppress(Exception):
                    await self.ws.close(1000, farewell[1])
            await self.on_end()
            self.finished.set()

    async def end(self, text: str, reason: str) -> None:
        """Close the session from the server's side, telling the page why; wait for it."""
        self.closing = (text, reason)
        self.done.set()
        await self.finished.wait()

    async def _read_loop(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for frame in self.ws:
                try:
                    kind, data = parse(frame)
                except BadEnvelope as exc:
                    await self.ws.close(1008, str(exc))
                    return
                self.handle(kind, data)

    def handle(self, kind: str, data: Any) -> None:
        if kind == "stdin" and isinstance(data, str):
            self.last_input = time.monotonic()
            self.process.write(data.encode("utf-8", "surrogateescape"))
        elif kind == "resize" and isinstance(data, dict):
            size = clamp_size(data.get("width"), data.get("height"))
            if size is not None and size != (self.cols, self.rows):
                self.cols, self.rows = size
                self.relay.resize(*size)
                self.process.resize(*size)

    async def _idle_watch(self) -> None:
        if not self.idle_timeout:
            await asyncio.Event().wait()
        while (quiet := time.monotonic() - self.last_input) < self.idle_timeout:
            await asyncio.sleep(self.idle_timeout - quiet)

    # ----------------------------------------------------------- output

    def _output(self, data: bytes) -> None:
        self.relay.feed(data)
        if self._frame is None:
            self._frame = asyncio.get_running_loop().call_later(FRAME, self._flush)

    def _flush(self) -> None:
        if self._frame is not None:
            self._frame.cancel()
        self._frame = None
        self._put(self.sgr.feed(self.relay.take()))

    def _put(self, data: bytes) -> None:
        if not data:
            return
        self.queued += len(data)
        self.queue.put_nowait(data)
        if self.queued > HIGH_WATER:
            self.process.pause()

    async def _send_loop(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            while (data := await self.queue.get()) is not None:
                await self.ws.send(data)
                self.bytes_sent += len(data)
                self.queued -= len(data)
                if self.queued <= HIGH_WATER // 2:
                    self.process.resume()

    def _ended(self, code: int) -> None:
        self._flush()
        self.done.set()
