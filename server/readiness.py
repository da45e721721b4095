"""`GET /readyz`: whether every door of this process listens, and the rooms it holds.

`/healthz` says the process answers (liveness); `/readyz` says it should be sent
players: 200 once the WebSocket listener and every configured door (SSH, browser)
listen, 503 while one of them does not yet or no longer does (starting, stopping).
A door is expected before anything starts (`expect`, server/cli.py) and says when
it listens and when it stops (`listening`). The answer is built per request from
the hub's rooms: one pass over the rooms in memory, no store, no await.
"""

from __future__ import annotations

import http
import json
from collections.abc import Iterable
from typing import Protocol

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Response

from modernart.server.rooms.base import FINISHED, PLAYING, WAITING
from modernart.server.wire.httpcheck import PAGE_METHODS

PATHS = ("/healthz", "/readyz")

WEBSOCKET, SSH, WEB = "websocket", "ssh", "web"  # the doors' names in the answer
HEALTH = "health"  # a door machine's own listener for these checks (server/doors/machine.py)


class HeldRoom(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def status(self) -> str: ...


class Readiness:
    """Which doors are expected, and which of them listen now."""

    def __init__(self, listener: str = WEBSOCKET) -> None:
        """`listener`: the process's own listener, expected like a door."""
        self.doors: dict[str, bool] = {listener: False}

    def expect(self, door: str) -> None:
        """`door` is configured: the process is not ready until it listens."""
        self.doors.setdefault(door, False)

    def listening(self, door: str, up: bool) -> None:
        """`door` listens now (True), or has begun to stop (False)."""
        self.doors[door] = up

    @property
    def ready(self) -> bool:
        return all(self.doors.values())

    def report(self, rooms: Iterable[HeldRoom]) -> dict[str, object]:
        counts = {WAITING: 0, PLAYING: 0, FINISHED: 0}
        ids: list[str] = []
        for room in rooms:
            counts[room.status] = counts.get(room.status, 0) + 1
            ids.append(room.id)
        return {"ready": self.ready, "doors": dict(self.doors), "rooms": counts, "room_ids": ids}

    def answer(
        self, connection: ServerConnection, path: str, method: str, rooms: Iterable[HeldRoom]
    ) -> Response:
        """The answer to a request for one of `PATHS`: `/healthz` is 200 while the process
        answers at all; `/readyz` is `response`; any other method than GET and HEAD 405."""
        if method not in PAGE_METHODS:
            refused = connection.respond(405, "method not allowed\n")
            refused.headers["Allow"] = ", ".join(PAGE_METHODS)
            return refused
        if path == "/healthz":
            return connection.respond(200, "ok\n")
        return self.response(rooms, method)

    def response(self, rooms: Iterable[HeldRoom], method: str) -> Response:
        """200 or 503 with the report as JSON; HEAD gets the headers alone."""
        status = http.HTTPStatus.OK if self.ready else http.HTTPStatus.SERVICE_UNAVAILABLE
        body = json.dumps(self.report(rooms), separators=(",", ":")).encode() + b"\n"
        headers = Headers(
            [
                ("Connection", "close"),
                ("Content-Length", str(len(body))),
                ("Content-Type", "application/json"),
                ("Cache-Control", "no-store"),
            ]
        )
        return Response(status.value, status.phrase, headers, b"" if method == "HEAD" else body)
