"""The browser door's listener: the page over HTTP, and one terminal session per page socket.

`WebGate` runs its own websockets server on `--web-port`; `process_request`
answers the page and its files as plain HTTP and lets only `/ws` upgrade, and
only from this server's own origin. The handshake also settles who the page
is (a hand-off code, the cookie, or a new identity), so that the 101 answer
can set the cookie. The sessions are the shared `Terminals`' (server/doors/terminal/),
the same machinery, memory budget and per-address limits as the SSH door's.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import Server as WsServer
from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import InvalidHandshake
from websockets.http11 import Request, Response

from modernart.server.doors.registry import GameServer
from modernart.server.doors.terminal import HelloRefused, Refused, Terminals, TerminalSettings
from modernart.server.doors.web import page, records
from modernart.server.doors.web.identity import (
    SUBPROTOCOL,
    BrowserKeys,
    claimed_code,
    cookie_token,
    set_cookie,
)
from modernart.server.doors.web.session import PageTerminal, size_of
from modernart.server.people import names
from modernart.server.readiness import WEB
from modernart.server.store.sqlite import StoreError
from modernart.server.wire.httpcheck import (
    PAGE_METHODS,
    BadRequest,
    cookies,
    forwarded_for,
    single,
    small_int,
)
from modernart.server.wire.logthrottle import LogThrottle
from modernart.server.wire.refusal import Refused as RequestRefused
from modernart.server.wire.wsinternals import check_handshake

log = logging.getLogger("modernart.server.doors.web")

DEFAULT_SIZE = (80, 24)
# How a claim code went (the third item of a ["notice", text, outcome] frame): it now
# plays, it will never work (wrong, expired, tries spent), or it was kept for a retry.
CLAIMED, REFUSED, KEPT = "claimed", "refused", "kept"
SHUTDOWN = "The server is shutting down."


@dataclass
class WebSettings:
    """What `modernart-server --web-*` sets; see docs/operations.md."""

    port: int
    host: str = "127.0.0.1"
    origins: tuple[str, ...] = ()  # more origins the page may be served from (a proxy's)


@dataclass
class Visit:
    """What the handshake settled for one page WebSocket."""

    address: str
    size: tuple[int, int]
    key: str = ""  # the identity's key in the terminals' table: `web:<identity id>`
    name: str = ""
    token: str = ""
    new_cookie: bool = False  # the 101 answer sets the cookie to `token`
    secure: bool = False
    refusal: str | None = None
    notice: str | None = None  # how a hand-off code went, for the page (not the terminal)
    claim: str = ""  # and in a word, for page.js: CLAIMED, REFUSED or KEPT (for a retry)


def same_origin(origin: str, host: str | None) -> bool:
    """Whether the page at `origin` was served by the host the request names."""
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and bool(host) and parts.netloc.lower() == host.lower()


class WebGate:
    """The browser listener of one `Server`; its sessions are `terminals`' (shared or its own)."""

    def __init__(
        self,
        server: GameServer,
        settings: WebSettings,
        terminals: Terminals | None = None,
        terminal_settings: TerminalSettings | None = None,
    ) -> None:
        """`terminals`: the SSH door's, to share; else its own, with `terminal_settings`."""
        self.server = server
        self.settings = settings
        self.port = settings.port
        self.own_terminals = terminals is None
        self.keys = BrowserKeys(terminals.keys if terminals is not None else None)
        if terminals is None:
            terminals = Terminals(server, terminal_settings or TerminalSettings(), self.keys)
        else:
            terminals.keys = self.keys  # the browsers' keys in front of the other doors'
        self.terminals = terminals
        self.pages: set[PageTerminal] = set()
        self._visits: dict[ServerConnection, Visit] = {}
        self._ws: WsServer | None = None
        self.stopping = False
        self.quiet = LogThrottle(log)  # what outsiders can make it log (server/wire/logthrottle.py)

    async def start(self) -> None:
        if self.own_terminals:
            await self.terminals.start()
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
        self.server.readiness.listening(WEB, True)
        log.info("browser play on http://%s:%d/", s.host, self.port)

    async def stop(self) -> None:
        """Stop listening and end every page's session (before the game server stops)."""
        if self._ws is None:
            return
        self.server.readiness.listening(WEB, False)
        self.stopping = True  # a session still starting is closed once it has started
        self._ws.close(close_connections=False)
        reason = SHUTDOWN
        await asyncio.gather(*(p.session.close(reason) for p in self.pages if p.session))
        if self.own_terminals:
            await self.terminals.stop()
        await asyncio.gather(*(p.closed.wait() for p in list(self.pages)))
        self._ws.close(close_connections=True)
        await self._ws.wait_closed()
        self._ws = None
        self.quiet.flush()  # the counts of lines not logged yet

    def address(self, headers: Headers, peer: object) -> str:
        if self.server.trust_proxy and (forwarded := forwarded_for(headers)):
            return forwarded
        return peer[0] if isinstance(peer, tuple) else str(peer)

    # ------------------------------------------------------------ requests

    async def _process_request(
        self, connection: ServerConnection, request: Request
    ) -> Response | None:
        try:
            return await self._answer(connection, request)
        except BadRequest as exc:
            peer = connection.remote_address
            address = peer[0] if isinstance(peer, tuple) else str(peer)
            self.quiet.info("bad request", "page request from %s refused: %s", address, exc)
            return page.text(400, f"bad request: {exc}")

    async def _answer(self, connection: ServerConnection, request: Request) -> Response | None:
        """The page's HTTP answer, or None to let `/ws` upgrade (BadRequest: 400)."""
        try:
            path = urlsplit(request.path)
        except ValueError:  # e.g. `//[`: not a URL's path
            raise BadRequest("not a path") from None
        if path.path != "/ws":
            if request.method not in PAGE_METHODS:
                return page.not_allowed(PAGE_METHODS)
            if records.is_records(path.path):  # the cookie's finished games (issue 28)
                assert self.server.store is not None
                found = records.answer(self.server.store, request.headers, path.path)
                return page.for_method(request.method, found)
            return page.for_method(request.method, self._file(path.path))
        if request.method != "GET":
            return page.not_allowed(("GET",))
        headers = request.headers
        origin = single(headers, "Origin")
        if origin is None or not (
            same_origin(origin, single(headers, "Host")) or origin in self.settings.origins
        ):
            self.quiet.info("origin", "page WebSocket refused: origin %r", origin)
            return page.text(403, "this WebSocket opens only from the game's own page")
        try:  # the same checks as websockets' own answer, before an identity is made
            check_handshake(connection, request)
        except InvalidHandshake:
            return None  # websockets answers it (400, 426) as ever
        query = parse_qs(path.query)
        wanted = [small_int(query.get(k, [""])[0]) for k in ("cols", "rows")]
        size = size_of(*wanted)
        visit = Visit(
            self.address(headers, connection.remote_address),
            size or DEFAULT_SIZE,
            secure=origin.startswith("https:"),
        )
        self._visits[connection] = visit
        offered = headers.get_all("Sec-WebSocket-Protocol")
        code = claimed_code([p.strip() for value in offered for p in value.split(",")])
        # The cookie's device, whose session this one replaces (a reload); a claim makes
        # a new device, counted as such (server/doors/terminal/admission.py).
        key = self._device_key(headers) if code is None else None
        visit.refusal = self.terminals.refusal(visit.address, key)
        if visit.refusal is not None and code is not None:  # the code is not spent
            visit.notice = (
                f"Not claimed: {visit.refusal} Your code is kept: press a key to try again."
            )
            visit.claim = KEPT
        if visit.refusal is None:
            try:
                await self._identify(visit, headers, code)
            except HelloRefused as exc:
                visit.refusal = f"Sorry: {exc}"
        return None

    def _device_key(self, headers: Headers) -> str | None:
        """The terminals' key of the cookie's device, if the cookie names one."""
        store = self.server.store
        assert store is not None
        token = cookie_token(cookies(headers))
        device = store.device_of(token) if token else None
        return BrowserKeys.PREFIX + device.id if device is not None else None

    @staticmethod
    def _file(path: str) -> Response:
        if path == "/":
            return page.page()
        if path.startswith("/static/"):
            return page.static(path.removeprefix("/static/"))
        if path == "/healthz":
            return page.text(200, "ok")
        return page.text(404, "not found")

    async def _identify(self, visit: Visit, headers: Headers, code: str | None) -> None:
        """Who the page is: a claimed identity (`code`), the cookie's, or a new one. Only
        a visit admitted so far gets here: a refused one never spends its code."""
        store = self.server.store
        assert store is not None
        token = cookie_token(cookies(headers))
        if code is not None:
            visit.claim = REFUSED
            try:  # a device of its own: a new token (server/people/devices.py)
                claimed = await self.server.claim_code(code, visit.address, "browser")
            except RequestRefused as exc:
                claimed, visit.notice = None, f"That code cannot be used: {exc}."
                if exc.code == "rate_limited":
                    visit.notice = "Too many wrong codes: wait a minute and try again."
                    visit.claim = KEPT  # not tried: the code may still be right
            except StoreError as exc:
                claimed, visit.notice = None, f"That code cannot be used: {exc}."
            else:
                if claimed is None:
                    visit.notice = "That code is wrong or has expired: ask for a new one (k)."
            if claimed is not None:
                token, visit.new_cookie = claimed[0], True
                visit.notice = "This browser now plays that identity."
                visit.claim = CLAIMED
        device = store.device_of(token) if token else None
        moved = self.keys.moved.pop(BrowserKeys.PREFIX + device.id, None) if device else None
        if moved is not None and store.device_of(moved) is not None:
            token, visit.new_cookie = moved, True  # taken over in the terminal
        found = store.find_identity(token) if token else None
        if found is None:  # a new browser, or a token this server forgot: a new identity
            first = BrowserKeys.PREFIX + "new-" + secrets.token_hex(8)
            token = await self.terminals.token_for(first, names.guest(), visit.address)
            self.keys.tokens.pop(first, None)
            found = store.find_identity(token)
            visit.new_cookie = True
            if found is None:
                raise HelloRefused("the new identity was not kept")
        assert token is not None
        device = store.device_of(token)
        assert device is not None  # found just now
        # Keyed by device, not identity: two browsers of one identity never share a key,
        # so one's token never moves to the other (BrowserKeys.moved).
        visit.key, visit.name, visit.token = BrowserKeys.PREFIX + device.id, found[1], token

    def _process_response(
        self, connection: ServerConnection, request: Request, response: Response
    ) -> Response | None:
        visit = self._visits.get(connection)
        if response.status_code == 101 and visit is not None and visit.new_cookie:
            response.headers["Set-Cookie"] = set_cookie(visit.token, visit.secure)
        if response.status_code != 101:
            self._visits.pop(connection, None)
        return None

    # ------------------------------------------------------------ sessions

    async def _handler(self, ws: ServerConnection) -> None:
        visit = self._visits.pop(ws, None)
        if visit is None:
            return
        terminal = PageTerminal(ws)
        if visit.notice:
            await ws.send(json.dumps(["notice", visit.notice, visit.claim]))
        if visit.refusal is not None:
            self.quiet.info(
                "refused", "browser session from %s refused: %s", visit.address, visit.refusal
            )
            terminal.close(visit.refusal, 1)
            await terminal.run_refused()
            return
        self.keys.put(visit.key, visit.token)
        self.pages.add(terminal)
        try:
            session = await self.terminals.open(
                peer=visit.address,
                name=visit.name,
                term="xterm-256color",
                cols=visit.size[0],
                rows=visit.size[1],
                key=visit.key,
                output=terminal.output,
                closed=terminal.close,
                records=records.HINT,
                browser=True,
            )
        except Refused as exc:
            self.quiet.info("refused", "browser session from %s refused: %s", visit.address, exc)
            terminal.close(str(exc), 1)
            await terminal.run_refused()
            self.pages.discard(terminal)
            return
        if self.stopping:
            await session.close(SHUTDOWN)
        try:
            await terminal.run(session)
        finally:
            self.pages.discard(terminal)
            if visit.key not in self.terminals.by_key:
                self.keys.tokens.pop(visit.key, None)
