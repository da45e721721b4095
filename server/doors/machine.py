"""`modernart-server door`: the SSH and browser doors on a machine of their own.

The terminal sessions (SSH, browser) are the heaviest part of a busy server: a Textual
client per player. On a door machine they run as on a game server, but their clients
connect to the game server at `--server` (through a load balancer, to any process of a
cluster) instead of over loopback, each with a ticket signed with the door secret
(server/wire/tickets.py) that tells the game server the player's address and key. What
the doors read and write themselves (an SSH key's identity, a browser's device, finished
games' records) is the shared store's: the door opens the game servers' `--store`.

`DoorMachine` stands in for `Server` (server/doors/registry.py's `GameServer`): it has no
hub and holds no rooms; it serves `GET /healthz` and `/readyz` on `--port`.
"""

from __future__ import annotations

import logging
import pathlib
from typing import Any
from urllib.parse import urlsplit

import msgpack
from websockets.asyncio.client import connect
from websockets.asyncio.server import Server as WsServer
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import WebSocketException
from websockets.http11 import Request, Response

from modernart.server.people import names
from modernart.server.readiness import HEALTH, Readiness
from modernart.server.readiness import PATHS as HEALTH_PATHS
from modernart.server.store.port import StorePort, open_store
from modernart.server.wire.refusal import Refused
from modernart.server.wire.tickets import Tickets

log = logging.getLogger("modernart.server.doors.machine")

LINK_TIMEOUT = 10.0  # seconds for the game server to answer a door's own request


def game_server_url(url: str) -> str:
    """`--server`: a ws:// or wss:// URL with a host (ValueError otherwise), with no user
    information of its own (the door puts its tickets there)."""
    parts = urlsplit(url)
    if parts.scheme not in ("ws", "wss") or not parts.hostname:
        raise ValueError(f"--server takes the game server's ws:// or wss:// URL, not {url!r}")
    if parts.username or parts.password:
        raise ValueError("--server: leave the user information out (the door signs its own)")
    return url


class DoorMachine:
    """The game server as a door machine's doors see it."""

    hub = None  # the rooms and people are the game server's

    def __init__(
        self,
        server_url: str,
        door_secret: bytes,
        data_dir: pathlib.Path,
        *,
        store_url: str | None = None,
        host: str = "127.0.0.1",
        port: int = 8765,
        trust_proxy: bool = False,
        max_per_address: int = 0,
    ) -> None:
        parts = urlsplit(game_server_url(server_url))
        self.server_url = server_url
        self._scheme, self._netloc = parts.scheme, parts.netloc
        self._path = parts.path or "/"
        self._tickets = Tickets(door_secret)
        self.data_dir = pathlib.Path(data_dir)
        self.store_url = store_url
        self.host, self.port = host, port
        self.trust_proxy = trust_proxy
        # The game server counts and limits each client's connections by the address in
        # its ticket; here the terminal sessions' own limits apply (admission.py).
        self.max_per_address = max_per_address
        self.store: StorePort | None = None
        self.readiness = Readiness(HEALTH)
        self._http: WsServer | None = None

    async def start(self) -> None:
        """Open the shared store and listen for health checks (`port=0`: a free port)."""
        self.store = open_store(self.data_dir, self.store_url)
        self._http = await serve(
            self._never, self.host, self.port, process_request=self._answer, server_header=None
        )
        self.port = self._http.sockets[0].getsockname()[1]
        self.readiness.listening(HEALTH, True)
        log.info(
            "door machine for %s; health on http://%s:%d/", self.server_url, self.host, self.port
        )

    async def stop(self) -> None:
        self.readiness.listening(HEALTH, False)
        if self._http is not None:
            self._http.close()
            await self._http.wait_closed()
            self._http = None
        if self.store is not None:
            self.store.close()
            self.store = None

    def banner(self) -> str:
        return f"modernart-server door for {self.server_url}, health on http://{self.host}:{self.port}/readyz"

    @staticmethod
    async def _never(ws: ServerConnection) -> None:
        """No WebSocket is served here (`_answer` answers every request first)."""

    def _answer(self, connection: ServerConnection, request: Request) -> Response:
        path = urlsplit(request.path).path
        if path not in HEALTH_PATHS:
            return connection.respond(
                404, "not found: a door machine answers /healthz and /readyz\n"
            )
        return self.readiness.answer(connection, path, request.method, ())

    # ------------------------------------------------------------ the sessions' link

    def connections_from(self, address: str) -> int:
        return 0  # the game server's count; not known here

    def client_url(self, userinfo: str | None = None) -> str:
        return f"{self._scheme}://{userinfo + '@' if userinfo else ''}{self._netloc}{self._path}"

    def forward(self, address: str, key: str | None = None) -> tuple[str, str]:
        return self.client_url(self._tickets.userinfo(address, key)), self._tickets.header(
            address, key
        )

    def unforward(self, header: str) -> None:
        """Nothing to forget: a ticket is checked by its signature, not kept."""

    async def claim_code(self, code: str, address: str, label: str) -> tuple[str, str] | None:
        """Redeem a code at the game server (its hand-off codes are in its memory): a
        connection for `address` says hello as a new guest and sends `claim`. The guest
        identity is left unused (it expires as unused guests do)."""
        url, _ = self.forward(address, None)
        try:
            async with connect(url, open_timeout=LINK_TIMEOUT, close_timeout=1) as ws:
                await ws.send(msgpack.packb({"t": "hello", "v": 1, "name": names.guest()}))
                await ws.send(msgpack.packb({"t": "claim", "code": code, "id": 1}))
                async for frame in ws:
                    msg = msgpack.unpackb(frame) if isinstance(frame, bytes) else None
                    if answer := _claim_answer(msg):
                        return answer[0]
        except (OSError, TimeoutError, WebSocketException) as exc:
            log.warning("claiming a code at %s failed: %s", self.server_url, exc)
            raise Refused("unavailable", "the game server cannot be reached; try again") from None
        raise Refused("unavailable", "the game server closed the connection; try again")


def _claim_answer(msg: Any) -> tuple[tuple[str, str] | None] | None:
    """The outcome in a message of the claim's connection, wrapped (None: not yet)."""
    if not isinstance(msg, dict):
        return None
    if msg.get("t") == "claimed":
        return ((str(msg["token"]), str(msg["name"])),)
    if msg.get("t") != "error":
        return None
    if msg.get("code") == "wrong_code":
        return (None,)
    raise Refused(str(msg.get("code")), str(msg.get("message") or "refused"))
