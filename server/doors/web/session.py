"""One page's WebSocket as the terminal of a client session (server/doors/terminal/).

The page speaks textual-serve's envelope: text frames `["stdin", text]` and
`["resize", {"width": W, "height": H}]`; the server sends the terminal's
output as binary frames (and, before it, `["notice", text]`: how a hand-off
code went, shown beside the code's field). A frame that is not one of these closes the socket
(1008). Output waits in a queue for the socket; past `HIGH_WATER` bytes the
session is paused (its client blocks on its writes) until the page catches up.
Keys: the next frame is read once the session has taken a frame's keys (pastes
cut and input rated by server/doors/terminal/keyboard.py), so a flood waits in the socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from modernart.server.doors.terminal import MAX_COLS, MAX_ROWS, TerminalSession

HIGH_WATER = 256 * 1024  # queued output bytes at which the session is paused


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


def size_of(cols: Any, rows: Any) -> tuple[int, int] | None:
    """A terminal size the page asks for, or None if it is not one."""
    if type(cols) is not int or type(rows) is not int or cols < 1 or rows < 1:
        return None
    return min(cols, MAX_COLS), min(rows, MAX_ROWS)


class PageTerminal:
    """The transport side of one session: bytes to the page, keys and sizes from it."""

    def __init__(self, ws: ServerConnection) -> None:
        self.ws = ws
        self.session: TerminalSession | None = None
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self.queued = 0
        self.paused = False
        self.closed = asyncio.Event()
        self._half = ""  # a surrogate pair's first half that ended the last stdin frame

    # -------------------------------------------------- from the session

    def output(self, data: bytes) -> None:
        if not data or self.closed.is_set():
            return
        self.queued += len(data)
        self.queue.put_nowait(data)
        if self.queued > HIGH_WATER and self.session is not None and not self.paused:
            self.paused = True
            self.session.pause()

    def close(self, text: str, status: int) -> None:
        """The session ended: say why on the terminal, then close the socket."""
        if text:
            self.output(f"\r\n{text}\r\n".encode())
        self.queue.put_nowait(None)

    # ------------------------------------------------------------ pumps

    async def run(self, session: TerminalSession) -> None:
        """Until the page goes or the session ends; then the other side is told."""
        self.session = session
        sender = asyncio.create_task(self._send_loop())
        reader = asyncio.create_task(self._read_loop())
        await asyncio.wait({sender, reader}, return_when=asyncio.FIRST_COMPLETED)
        reader.cancel()
        if not session.done.is_set():
            session.lost()  # the page went: end the client, say nothing
            await session.done.wait()
        self.queue.put_nowait(None)
        with contextlib.suppress(ConnectionClosed):
            await sender
            await self.ws.close(1000, "the session ended")
        self.closed.set()

    async def run_refused(self) -> None:
        """No session: send what was said, and close."""
        with contextlib.suppress(ConnectionClosed):
            await self._send_loop()
            await self.ws.close(1000, "refused")
        self.closed.set()

    async def _send_loop(self) -> None:
        while (data := await self.queue.get()) is not None:
            await self.ws.send(data)
            self.queued -= len(data)
            if self.paused and self.session is not None and self.queued <= HIGH_WATER // 2:
                self.paused = False
                self.session.resume()

    async def _read_loop(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for frame in self.ws:
                try:
                    kind, data = parse(frame)
                except BadEnvelope as exc:
                    await self.ws.close(1008, str(exc))
                    return
                self.handle(kind, data)
                if self.session is not None and self.session.input_full:
                    await self.session.input_room()  # back-pressure: the socket waits

    def handle(self, kind: str, data: Any) -> None:
        session = self.session
        assert session is not None
        if kind == "stdin" and isinstance(data, str):
            session.feed(self.keys(data))
        elif kind == "resize" and isinstance(data, dict):
            size = size_of(data.get("width"), data.get("height"))
            if size is not None:
                session.resize(*size)

    def keys(self, text: str) -> bytes:
        """A stdin frame's text as UTF-8. JSON may carry half a surrogate pair (an emoji
        split between two frames): its first half waits for the next frame; a lone
        half becomes U+FFFD."""
        text, self._half = self._half + text, ""
        if text and "\ud800" <= text[-1] <= "\udbff":
            text, self._half = text[:-1], text[-1]
        try:
            return text.encode("utf-8")
        except UnicodeEncodeError:
            pairs = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
            return pairs.encode("utf-8")
