"""What the browser page does, without a browser: its WebSocket, its screen kept by pyte.

The same handshake as page.js (the page's Origin, the `modernart.v1`
subprotocol, the cookie) and the same frames (`["stdin", keys]`,
`["resize", …]`); for tests that need no Chromium and for scripts/bench_web.py.
"""

from __future__ import annotations

import asyncio
import json
import time

import pyte
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from .sshterm import ScreenWaits


class PageClient(ScreenWaits):
    def __init__(self, ws: ClientConnection, cols: int = 80, rows: int = 24) -> None:
        self.ws = ws
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.received = 0
        self.raw = bytearray()
        self.notices: list[str] = []
        self.claims: list[str] = []  # each notice's outcome: claimed, refused or kept
        self.frame_times: list[float] = []
        self.changed = asyncio.Event()
        self.closed = asyncio.Event()
        self.reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(
        cls, port: int, cookie: str | None = None, protocols: list[str] | None = None
    ) -> PageClient:
        headers = {"Cookie": cookie} if cookie else None
        ws = await connect(
            f"ws://127.0.0.1:{port}/ws?cols=80&rows=24",
            origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
            subprotocols=protocols or ["modernart.v1"],  # type: ignore[arg-type]
            additional_headers=headers,
            max_size=None,
        )
        return cls(ws)

    @property
    def cookie(self) -> str | None:
        """The `name=value` the handshake's answer set, if it set one."""
        assert self.ws.response is not None
        value = self.ws.response.headers.get("Set-Cookie")
        return value.split(";")[0] if value else None

    async def _read(self) -> None:
        try:
            async for frame in self.ws:
                if isinstance(frame, bytes):
                    self.frame_times.append(time.perf_counter())
                    self.received += len(frame)
                    self.raw += frame
                    self.stream.feed(frame)
                else:
                    notice = json.loads(frame)
                    self.notices.append(notice[1])
                    self.claims.append(notice[2])
                self.changed.set()
        except ConnectionClosed:
            pass
        finally:
            self.closed.set()
            self.changed.set()

    def send(self, keys: str) -> None:
        asyncio.get_running_loop().create_task(self.ws.send(json.dumps(["stdin", keys])))
