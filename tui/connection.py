"""The network layer: one WebSocket to the server, msgpack frames, reconnecting with the token.

`Connection.run()` is meant to run in a Textual worker. It posts every server
message to the app as a `ServerMessage` and every change of the connection's
state as a `ConnectionChanged`; it knows nothing about screens.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import socket
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import msgpack
from textual.message import Message
from textual.message_pump import MessagePump
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from .messages import ConnectionChanged, ServerMessage

PROTOCOL_VERSION = 1
REPLACED = 4000  # close code: the same identity connected again elsewhere (docs/protocol.md)
# Waits between reconnection attempts (seconds); the last one repeats.
BACKOFF: tuple[float, ...] = (0.2, 0.5, 1.0, 2.0, 3.0)
BYE_WAIT_S = 1.0  # quitting waits at most this long for `bye` to go out


def why_not(exc: BaseException, url: str) -> str:
    """A failed or lost connection in a sentence a player can act on (never the raw
    "Connect call failed ((…))")."""
    parts = urlsplit(url)
    host, port = parts.hostname or "?", parts.port or (443 if parts.scheme == "wss" else 80)
    text = str(exc)
    if isinstance(exc, ConnectionRefusedError) or "Connect call failed" in text:
        return (
            f"nothing answers at {host}:{port}. Is modernart-server running there? "
            f"Start it with `modernart-server --port {port}`, or give the right address "
            "(`modernart connect ws://HOST:PORT/`)"
        )
    if isinstance(exc, socket.gaierror):
        return f"the address {host} is not known: check its spelling"
    if isinstance(exc, TimeoutError):
        return f"{host}:{port} does not answer (timed out)"
    if isinstance(exc, InvalidHandshake):
        return f"{host}:{port} answers, but it is not a modernart server"
    if isinstance(exc, ConnectionClosed):
        return "the server closed the connection"
    return text or type(exc).__name__


class Connection:
    """A connection that survives drops: it reconnects and says hello with the token."""

    def __init__(
        self,
        target: MessagePump,
        url: str,
        name: str,
        token: str | None = None,
        deliver: Callable[[Message], object] | None = None,
    ) -> None:
        self.target = target
        # Where the server's messages and the connection's changes go, in order: `target`
        # itself, or a terminal worker's order of its sessions' news
        # (server/doors/terminal/priority.py).
        self.deliver = deliver or target.post_message
        self.url = url
        self.name = name
        self.token = token  # updated from every `welcome`
        self._ws: ClientConnection | None = None
        self._ids = itertools.count(1)
        self._outbox: asyncio.Queue[bytes] = asyncio.Queue()
        self._stopped = False
        self._may_hello = asyncio.Event()  # cleared while the player picks another name
        self._may_hello.set()
        self._switching = False  # closed to say hello as another identity (`become`)
        self._closing: asyncio.Task[None] | None = None
        self.replaced_by = ""  # the device that took this identity over (`replaced`)

    @property
    def connected(self) -> bool:
        return self._ws is not None

    async def run(self) -> None:
        """Connect, read until the socket drops, wait a little, reconnect; until `stop()`."""
        attempt = 0
        while not self._stopped:
            await self._may_hello.wait()
            state = "connecting" if attempt == 0 else "reconnecting"
            self.deliver(ConnectionChanged(state, self.url))
            ws: ClientConnection | None = None
            try:
                async with connect(self.url, max_size=2**20, open_timeout=5) as ws:
                    await ws.send(self._pack(self._hello()))
                    self._ws = ws
                    attempt = 0
                    self.deliver(ConnectionChanged("connected", self.url))
                    writer = asyncio.create_task(self._write(ws))
                    try:
                        async for frame in ws:
                            self._receive(frame)
                    finally:
                        writer.cancel()
            except InvalidURI as exc:
                self.deliver(ConnectionChanged("closed", str(exc)))
                return
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as exc:
                if (ws is None or ws.close_code != REPLACED) and not self._switching:
                    detail = why_not(exc, self.url)
                    self.deliver(ConnectionChanged("reconnecting", detail))
            finally:
                self._ws = None
                # Whatever was queued for the lost socket is stale (views are resent on resume).
                while not self._outbox.empty():
                    self._outbox.get_nowait()
                    self._outbox.task_done()
            if ws is not None and ws.close_code == REPLACED and not self._stopped:
                # The same identity connected from another window or device: reconnecting
                # would throw that one out in turn, for ever. Stop here, saying which.
                self._stopped = True
                self.deliver(ConnectionChanged("replaced", self.replaced_by))
                return
            if self._stopped:
                break
            if self._switching:  # `become`: hello as the other identity, at once
                self._switching = False
                attempt = 0
                continue
            await asyncio.sleep(BACKOFF[min(attempt, len(BACKOFF) - 1)])
            attempt += 1
        self.deliver(ConnectionChanged("closed", ""))

    def _hello(self) -> dict[str, Any]:
        hello: dict[str, Any] = {"t": "hello", "v": PROTOCOL_VERSION, "name": self.name}
        if self.token:
            hello["token"] = self.token
        return hello

    def _receive(self, frame: bytes | str) -> None:
        if isinstance(frame, str):
            return  # the protocol is binary frames only
        try:
            msg = msgpack.unpackb(frame, raw=False)
        except (ValueError, msgpack.UnpackException):
            return
        if not isinstance(msg, dict):
            return
        if msg.get("t") == "welcome" and isinstance(msg.get("token"), str):
            self.token = msg["token"]
        elif msg.get("t") == "replaced" and msg.get("same") is not True:
            self.replaced_by = str(msg.get("by") or "")  # "": another window of this device
        self.deliver(ServerMessage(msg))

    @staticmethod
    def _pack(msg: dict[str, Any]) -> bytes:
        return msgpack.packb(msg, use_bin_type=True)

    async def _write(self, ws: ClientConnection) -> None:
        """Send queued messages in order; one writer, so messages never overtake each other."""
        while True:
            data = await self._outbox.get()
            try:
                await ws.send(data)
            except ConnectionClosed:
                return  # the reader sees the close and reconnects
            finally:
                self._outbox.task_done()

    @property
    def held(self) -> bool:
        return not self._may_hello.is_set()

    def hold(self) -> None:
        """Say no hello (no reconnection) until `resume`: our name was taken."""
        self._may_hello.clear()

    def resume(self, name: str) -> None:
        self.name = name
        self._may_hello.set()

    def become(self, token: str, name: str) -> None:
        """Play another identity (a claimed code): close this socket and say hello with
        its token at once; what was shown for the old identity is the app's to drop."""
        self.token, self.name = token, name
        if self._ws is not None:
            self._switching = True
            self._closing = asyncio.get_running_loop().create_task(self._ws.close())

    def send(self, msg: dict[str, Any]) -> int | None:
        """Queue one message with a fresh `id`; the id, or None when not connected."""
        if self._ws is None:
            return None
        msg = {**msg, "id": next(self._ids)}
        self._outbox.put_nowait(self._pack(msg))
        return msg["id"]

    async def drop(self) -> None:
        """Close the socket as a network failure would; `run()` reconnects (for tests and 'r')."""
        if self._ws is not None:
            await self._ws.close()

    async def stop(self, *, bye: bool = False) -> None:
        """Close for good: no reconnection. `bye`: say first that the player quits on
        purpose (the others read "left", not "lost the connection"), and wait a
        moment for what is queued to go out."""
        self._stopped = True
        if self._ws is None:
            return
        if bye:
            self.send({"t": "bye"})
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(BYE_WAIT_S):
                    await self._outbox.join()
        await self._ws.close()
