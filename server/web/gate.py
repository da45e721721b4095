"""The browser door's listener: the page over HTTP, and one session per page WebSocket.

`WebGate` runs its own websockets server on `--web-port`; `process_request`
answers the page and its files as plain HTTP and lets only `/ws` upgrade,
from this server's own origin. The handshake also settles who the page is
(the cookie, a hand-off code, or a new identity), so that the 101 answer can
set the cookie.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import secrets
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlsplit

import msgpack
from websockets.asyncio.client import connect
from websockets.asyncio.server import Server as WsServer
from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from ..app import Server
from . import page
from .identity import SUBPROTOCOL, claimed_code, cookie_token, guest_name, set_cookie
from .session import BrowserSession, clamp_size

log = logging.getLogger("modernart.server.web")

DEFAULT_MAX_SESSIONS = 16
DEFAULT_MAX_PER_ADDRESS = 4
DEFAULT_IDLE_TIMEOUT = 1800.0
DEFAULT_SIZE = (80, 24)


@dataclass
class WebSettings:
    """What `modernart-server --web-*` sets; see docs/operations.md."""

    port: int
    host: str = "127.0.0.1"
    origins: tuple[str, ...] = ()  # more origins the page may be served from (a proxy's)
    max_sessions: int = DEFAULT_MAX_SESSIONS
    max_per_address: int = DEFAULT_MAX_PER_ADDRESS
    idle_timeout: float = DEFAULT_IDLE_TIMEOUT


class HelloRefused(Exception):
    """The game server would not create an identity (its message says why)."""


@dataclass
class Admission:
    """What the handshake settled for one page WebSocket."""

    address: str
    size: tuple[int, int]
    token: str | None = None
    name: str = ""
    new_cookie: bool = False  # the 101 answer sets the cookie to `token`
    secure: bool = False
    refusal: str | None = None
    notice: str | None = None  # a line for the terminal before the client starts
    sessions: list[BrowserSession] = field(default_factory=list)


def same_origin(origin: str, host: str | None) -> bool:
    """Whether the page at `origin` was served by the host the request names."""
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and bool(host) and parts.netloc.lower() == host.lower()


class WebGate:
    """The browser listener of one `Server`, its sessions and their limits."""

    def __init__(self, server: Server, settings: WebSettings) -> None:
        self.server = server
        self.settings = settings
        self.port = settings.port
        self.sessions: set[BrowserSession] = set()
        self.per_address: Counter[str] = Counter()
        self._admitted: dict[ServerConnection, Admission] = {}
        self._ws: WsServer | None = None

    async def start(self) -> None:
        s = self.settings
        self._ws = await serve(
            self._handler,
            s.host,
            s.port,
            process_request=self._process_request,
            process_response=self._process_response,
            subprotocols=[SUBPROTOCOL],  # type: ignore[list-item]
            max_size=64 * 1024,
            compression=None,
            ping_interval=20,
            ping_timeout=20,
            server_header="modernart",
        )
        self.port = self._ws.sockets[0].getsockname()[1]
        log.info("browser play on http://%s:%d/", s.host, self.port)

    async def stop(self) -> None:
        """Stop listening and end every session (before the game server stops)."""
        if self._ws is None:
            return
        self._ws.close(close_connections=False)
        await asyncio.gather(
            *(s.end("The server is shutting down.", "going away") for s in list(self.sessions))
        )
        self._ws.close(close_connections=True)
        await self._ws.wait_closed()
        self._ws = None

    # --------------------------------------------------------------- limits

    def refusal(self, address: str) -> str | None:
        s = self.settings
        if s.max_sessions and len(self.sessions) >= s.max_sessions:
            return "The server is full; please try again in a few minutes."
        if s.max_per_address and self.per_address[address] >= s.max_per_address:
            return f"Too many sessions from your address (at most {s.max_per_address})."
        srv = self.server
        if srv.max_per_address and srv.connections_from(address) >= srv.max_per_address:
            return "Too many connections from your address."
        return None

    def address(self, headers: Headers, peer: object) -> str:
        if self.server.trust_proxy and (forwarded := headers.get("X-Forwarded-For")):
            return forwarded.split(",")[-1].strip()
        return peer[0] if isinstance(peer, tuple) else str(peer)

    # ------------------------------------------------------------ requests

    async def _process_request(
        self, connection: ServerConnection, request: Request
    ) -> Response | None:
        path = urlsplit(request.path)
        if path.path != "/ws":
            if path.path == "/":
                return page.page()
            if path.path.startswith("/static/"):
                return page.static(path.path.removeprefix("/static/"))
            if path.path == "/healthz":
                return page.text(200, "ok")
            return page.text(404, "not found")
        headers = request.headers
        origin = headers.get("Origin")
        if origin is None or not (
            same_origin(origin, headers.get("Host")) or origin in self.settings.origins
        ):
            log.info("page WebSocket refused: origin %r", origin)
            return page.text(403, "this page's WebSocket only opens from its own page")
        query = parse_qs(path.query)
        size = clamp_size(
            *(
                int(query[k][0]) if query.get(k, [""])[0].isdigit() else None
                for k in ("cols", "rows")
            )
        )
        admission = Admission(
            self.address(headers, connection.remote_address),
            size or DEFAULT_SIZE,
            secure=origin.startswith("https:"),
        )
        self._admitted[connection] = admission
        admission.refusal = self.refusal(admission.address)
        if admission.refusal is None:
            try:
                await self._identify(admission, headers)
            except HelloRefused as exc:
                admission.refusal = f"Sorry: {exc}"
        return None

    async def _identify(self, admission: Admission, headers: Headers) -> None:
        """Who the page is: a claimed identity, the cookie's, or a new one."""
        token = cookie_token(headers.get("Cookie"))
        offered = headers.get_all("Sec-WebSocket-Protocol")
        protocols = [p.strip() for value in offered for p in value.split(",")]
        code = claimed_code(protocols)
        hub = self.server.hub
        assert hub is not None and self.server.store is not None
        if code is not None:
            if not hub.handoffs.may_try(admission.address):
                admission.notice = "Too many wrong codes: wait a minute and try again."
            elif (handoff := hub.handoffs.redeem(code, admission.address)) is None:
                admission.notice = "That code is wrong or has expired: ask for a new one (k)."
            else:
                token, admission.new_cookie = handoff.token, True
                admission.notice = "This browser now plays that identity."
        found = self.server.store.find_identity(token) if token else None
        if found is not None:
            admission.token, admission.name = token, found[1]
            return
        admission.name = guest_name()
        admission.token = await self._hello(admission.name, admission.address)
        admission.new_cookie = True

    def _process_response(
        self, connection: ServerConnection, request: Request, response: Response
    ) -> Response | None:
        admission = self._admitted.get(connection)
        if response.status_code == 101 and admission is not None and admission.new_cookie:
            assert admission.token is not None
            response.headers["Set-Cookie"] = set_cookie(admission.token, admission.secure)
        if response.status_code != 101:
            self._admitted.pop(connection, None)
        return None

    # ------------------------------------------------------------ sessions

    async def _handler(self, ws: ServerConnection) -> None:
        admission = self._admitted.pop(ws, None)
        if admission is None:
            return
        if admission.refusal is not None:
            log.info("browser session from %s refused: %s", admission.address, admission.refusal)
            await ws.send(f"\r\n{admission.refusal}\r\n".encode())
            await ws.close(1013, "refused")
            return
        if admission.notice:
            await ws.send(f"{admission.notice}\r\n".encode())
        url, header = self.forward(admission.address)
        address = admission.address
        self.per_address[address] += 1

        async def ended() -> None:
            self.sessions.discard(session)
            self.server.forwarded.pop(header, None)
            self.per_address[address] -= 1
            if self.per_address[address] <= 0:
                del self.per_address[address]

        config = {"url": url, "name": admission.name, "token": admission.token}
        session = BrowserSession(ws, config, admission.size, self.settings.idle_timeout, ended)
        self.sessions.add(session)
        log.info("browser session %s from %s", admission.name, address)
        await session.run()

    # ----------------------------------------------- the game server on loopback

    def local_url(self, secret: str) -> str:
        host = self.server.host
        if host in ("", "0.0.0.0"):
            host = "127.0.0.1"
        elif host == "::":
            host = "[::1]"
        elif ":" in host:
            host = f"[{host}]"
        return f"ws://web:{secret}@{host}:{self.server.port}/"

    def forward(self, address: str) -> tuple[str, str]:
        """A loopback URL whose connections the game server counts for `address`."""
        secret = secrets.token_urlsafe(24)
        header = "Basic " + base64.b64encode(f"web:{secret}".encode()).decode()
        self.server.forwarded[header] = address
        return self.local_url(secret), header

    async def _hello(self, name: str, address: str) -> str:
        """A new identity for a new browser (counted, like its client, for its address)."""
        url, header = self.forward(address)
        try:
            async with connect(url, open_timeout=10) as ws:
                await ws.send(msgpack.packb({"t": "hello", "v": 1, "name": name}))
                async for frame in ws:
                    msg = msgpack.unpackb(frame) if isinstance(frame, bytes) else None
                    if isinstance(msg, dict) and msg.get("t") == "welcome":
                        return str(msg["token"])
                    if isinstance(msg, dict) and msg.get("t") == "error":
                        raise HelloRefused(str(msg.get("message") or msg.get("code")))
        finally:
            self.server.forwarded.pop(header, None)
        raise HelloRefused("the server closed the connection")
