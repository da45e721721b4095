"""`Server`: the WebSocket endpoint, `GET /healthz` and `/readyz`, and its lifecycle.

It runs inside an existing asyncio loop (the client starts one in-process for
a local game against bots): `start()` creates no loop, installs no signal
handlers and does no blocking work beyond opening the SQLite store.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import ctypes
import ctypes.util
import gc
import logging
import pathlib
import secrets
import socket
from collections import Counter
from collections.abc import Callable
from typing import Any

from websockets.asyncio.server import Server as WsServer
from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode
from websockets.http11 import Request, Response
from websockets.protocol import State

from modernart.server.hub import Hub
from modernart.server.limits import ADDRESS_BURST_FACTOR, CONNECTIONS, Buckets, Limits
from modernart.server.readiness import PATHS as HEALTH_PATHS
from modernart.server.readiness import WEBSOCKET, Readiness
from modernart.server.rooms.botpool import DEFAULT_BUDGET_S, BotPool
from modernart.server.store.port import StorePort, open_store
from modernart.server.wire.codec import MAX_FRAME, encode
from modernart.server.wire.httpcheck import BadRequest, forwarded_for, single
from modernart.server.wire.logthrottle import LogThrottle
from modernart.server.wire.pacing import Inbox
from modernart.server.wire.refusal import error
from modernart.server.wire.session import Conn
from modernart.server.wire.tickets import Tickets
from modernart.server.wire.wsinternals import FastReadConnection

log = logging.getLogger("modernart.server")

DEFAULT_MAX_PER_ADDRESS = Limits().max_per_address
# Closed connections after which the C heap's free memory is handed back to the OS.
TRIM_AFTER_CLOSED, TRIM_EVERY = 100, 5.0


def _libc_malloc_trim() -> Callable[[int], int] | None:
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc: nothing to do
        return None


_malloc_trim = _libc_malloc_trim()


class GuardedConnection(FastReadConnection):
    """A connection whose messages may not exceed the protocol's 64 KiB, counted while
    fragments arrive (websockets' `max_size`); the one that does gets `bad_message`
    just before websockets closes the connection with 1009.

    Each message is handed to `on_message` as its last frame is parsed, in the same
    step as the bytes came off the socket (server/wire/wsinternals.py): no queue, no task
    switch per message (docs/decisions/reading.md). Messages that
    arrive before the handler took over wait in `_early`; a text message is passed
    as an empty `str` (the hub refuses text frames without reading them)."""

    def __init__(self, protocol: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(protocol, *args, **kwargs)
        self.too_big = False
        self.on_message: Callable[[bytes | str], None] | None = None
        self._early: list[bytes | str] = []
        # `before_write` (FastReadConnection) writes the server's queued frames before a
        # write of websockets' own (a ping, a pong, the close frame): server/wire/outbox.py.

    def before_fail(self, code: int) -> None:
        protocol = self.protocol
        if code == CloseCode.MESSAGE_TOO_BIG and protocol.state is State.OPEN:
            text = f"a message may not exceed {MAX_FRAME} bytes"
            protocol.send_binary(encode(error("bad_message", text, None)))
            self.too_big = True

    def deliver(self, message: bytes | str) -> None:
        if self.on_message is None:
            self._early.append(message)
        else:
            self.on_message(message)

    def start_handling(self, on_message: Callable[[bytes | str], None]) -> None:
        """From now on each message goes to `on_message` (those already here first)."""
        early, self._early = self._early, []
        self.on_message = on_message
        for message in early:
            on_message(message)


class Server:
    def __init__(
        self,
        data_dir: pathlib.Path,
        *,
        host: str = "127.0.0.1",
        port: int = 8765,
        dev: bool = False,
        max_per_address: int | None = None,
        trust_proxy: bool = False,
        limits: Limits | None = None,
        bot_workers: int | None = None,
        bot_budget_s: float = DEFAULT_BUDGET_S,
        bot_worlds: int | None = None,
        review_worlds: int | None = None,
        store_url: str | None = None,
        redis_url: str | None = None,
        door_secret: bytes | None = None,
    ) -> None:
        self.data_dir = pathlib.Path(data_dir)
        self.store_url = store_url  # --store: a PostgreSQL database; None: SQLite in data_dir
        # --redis: one of several processes sharing the store and a Redis (server/cluster/)
        self.redis_url = redis_url
        self.host = host
        self.port = port
        self.dev = dev
        # --dev sets no per-address limits (PROTOCOL.md); 0 means none too.
        limits = limits or (Limits.for_dev() if dev else Limits())
        self.limits = limits.replace(max_per_address=max_per_address)
        self.max_per_address = self.limits.max_per_address
        self.trust_proxy = trust_proxy
        self.bot_workers = bot_workers  # None: one fewer than the cores (server/rooms/botpool.py)
        self.bot_budget_s = bot_budget_s
        # worlds an expert searches (None: the game's own number; 0: its seconds alone)
        self.bot_worlds = bot_worlds
        self.review_worlds = review_worlds  # worlds a review searches a decision (None: 16)
        self.store: StorePort | None = None
        self.hub: Hub | None = None
        self._ws: WsServer | None = None
        self._per_address: Counter[str] = Counter()
        # Messages per address, all its connections together (server/wire/pacing.py).
        rate = self.limits.address_messages_per_s
        self._address_budget = Buckets(rate * ADDRESS_BURST_FACTOR, rate) if rate else None
        self._closed_since_trim = 0
        self._trim: asyncio.TimerHandle | None = None
        # Authorization header values of this process's SSH client processes
        # (server/doors/ssh/server.py) mapped to the SSH client's real address, so that the
        # per-address limit counts them there and not on loopback.
        self.forwarded: dict[str, str] = {}
        # --door-secret-file: door machines' sessions sign their address (server/wire/tickets.py)
        self.tickets = Tickets(door_secret) if door_secret is not None else None
        self.quiet = LogThrottle(log)  # what outsiders can make it log (server/wire/logthrottle.py)
        # Which doors listen, for `GET /readyz` (server/readiness.py); the doors say theirs.
        self.readiness = Readiness()

    async def start(self) -> None:
        """Open the store, replay unfinished rooms and listen; `port=0` picks a free port."""
        self.store = open_store(self.data_dir, self.store_url)
        self.store.start_checkpoints()
        bots = BotPool(self.bot_workers, self.bot_budget_s, self.bot_worlds)
        self.hub = Hub(
            self.store,
            dev=self.dev,
            limits=self.limits,
            bots=bots,
            review_worlds=self.review_worlds,
        )
        if self.redis_url is None:
            self.hub.load()
        else:
            from modernart.server.cluster.relay import Cluster, ClusterError

            cluster = self.hub.cluster = Cluster(self.redis_url, self.hub)
            try:
                claimed = await cluster.start()
            except ClusterError as exc:
                self.store.close()
                raise OSError(str(exc)) from None
            self.hub.load(set(claimed))
            cluster.beat()
        if self.tickets is not None:
            from modernart.server.doors.ticketed import TicketDoor

            self.hub.doors.add(TicketDoor(self.tickets, self.store))
        self._ws = await serve(
            self._handler,
            self.host,
            self.port,
            process_request=self._process_request,
            max_size=MAX_FRAME,
            create_connection=GuardedConnection,
            # An abusive client whose frames are no longer read is cut off after this.
            close_timeout=self.limits.close_timeout_s or None,
            compression=None,  # small frames; deflate would cost CPU and memory per socket
            ping_interval=20,
            ping_timeout=20,
        )
        self.port = self._ws.sockets[0].getsockname()[1]
        self.readiness.listening(WEBSOCKET, True)
        log.info("listening on ws://%s:%d/ (data: %s)", self.host, self.port, self.data_dir)

    async def stop(self) -> None:
        """Stop accepting, close every client with 1001, then close the store.

        Every applied action is already stored, so there is nothing else to persist.
        """
        if self._ws is None:
            return
        assert self.hub is not None and self.store is not None
        self.readiness.listening(WEBSOCKET, False)
        self.hub.shutdown()
        stats = self.hub.bots.stats.to_json()
        if any(stats.values()):  # scripts/loadtest.py reads this line
            log.info("bot decisions: %s", " ".join(f"{k}={v}" for k, v in stats.items()))
        sent = self.hub.outbox.stats.to_json()  # and this one: writes and commits per turn
        log.info("turns' ends: %s", " ".join(f"{k}={v}" for k, v in sent.items()))
        if self._trim is not None:
            self._trim.cancel()
        self._ws.close(close_connections=True)  # 1001 going away
        await self._ws.wait_closed()
        self._ws = None
        if self.hub.cluster is not None:
            await self.hub.cluster.stop()  # the others take its rooms
        self.store.close()
        self.quiet.flush()  # the counts of lines not logged yet
        self.hub.quiet.flush()
        log.info("stopped")

    # ------------------------------------------------------------- requests

    def banner(self) -> str:
        """What the command prints once it serves."""
        return f"modernart-server listening on ws://{self.host}:{self.port}/"

    def connections_from(self, address: str) -> int:
        """Open WebSocket connections now counted against `address`."""
        return self._per_address[address]

    # ------------------------------------------------- this machine's doors' clients

    def client_url(self, userinfo: str | None = None) -> str:
        """The URL a client on this machine (a terminal session's) reaches the server at."""
        host = self.host
        if host in ("", "0.0.0.0"):
            host = "127.0.0.1"
        elif host == "::":
            host = "[::1]"
        elif ":" in host:
            host = f"[{host}]"
        return f"ws://{userinfo + '@' if userinfo else ''}{host}:{self.port}/"

    def forward(self, address: str, key: str | None = None) -> tuple[str, str]:
        """A fresh loopback secret for a client on behalf of `address`: (url, header).
        The connection is counted for `address` until `unforward(header)`; `key` is not
        needed here (the door in this process knows its sessions)."""
        secret = secrets.token_urlsafe(24)
        header = "Basic " + base64.b64encode(f"ssh:{secret}".encode()).decode()
        self.forwarded[header] = address
        return self.client_url(f"ssh:{secret}"), header

    def unforward(self, header: str) -> None:
        self.forwarded.pop(header, None)

    async def claim_code(self, code: str, address: str, label: str) -> tuple[str, str] | None:
        """The browser door's way to redeem a hand-off code (server/people/devices.py)."""
        assert self.hub is not None
        return self.hub.devices.claim_code(code, address, label)

    def _door_client(self, header: str | None) -> str | None:
        """The address a terminal session's client plays for (a loopback secret of this
        process's doors, or a door machine's signed ticket), else None."""
        if header is None:
            return None
        if header in self.forwarded:
            return self.forwarded[header]
        ticket = self.tickets.read(header) if self.tickets is not None else None
        return ticket.address if ticket is not None else None

    def _address(self, headers: Headers, peer: object) -> tuple[str, str | None]:
        """The address a client is counted for, and its Authorization header if that made
        it a terminal session's client (None otherwise: any other header is nobody's)."""
        header = single(headers, "Authorization")
        door_address = self._door_client(header)
        if door_address is not None:
            return door_address, header
        if self.trust_proxy and (forwarded := forwarded_for(headers)):
            return forwarded, None
        return (peer[0] if isinstance(peer, tuple) else str(peer)), None

    def _process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        try:
            return self._answer(connection, request)
        except BadRequest as exc:
            peer = connection.remote_address
            address = peer[0] if isinstance(peer, tuple) else str(peer)
            self.quiet.info("bad request", "request from %s refused: %s", address, exc)
            return connection.respond(400, f"bad request: {exc}\n")

    def _answer(self, connection: ServerConnection, request: Request) -> Response | None:
        """An HTTP answer, or None to let websockets upgrade (BadRequest: 400)."""
        if request.path in HEALTH_PATHS:
            rooms = self.hub.rooms.values() if self.hub is not None else ()
            return self.readiness.answer(connection, request.path, request.method, rooms)
        address, _ = self._address(request.headers, connection.remote_address)  # checks headers
        cap = self.limits.max_connections
        if cap and self.hub is not None and len(self.hub.conns) >= cap:
            self.hub.note("connections refused at --max-connections")
            return connection.respond(503, "the server is full; try again later\n")
        if self.max_per_address:
            here = self._per_address[address]
            if self.hub is not None:  # and the other processes' of a cluster
                here += self.hub.elsewhere(CONNECTIONS, address)
            if here >= self.max_per_address:
                return connection.respond(429, "too many connections from your address\n")
        return None

    async def _handler(self, ws: ServerConnection) -> None:
        assert self.hub is not None
        hub = self.hub
        # A terminal session's client is known by its loopback secret (server/doors/terminal/)
        # or a door machine's ticket.
        headers = ws.request.headers if ws.request else Headers()
        address, ticket = self._address(headers, ws.remote_address)
        self._forget_handshake(ws)
        self._per_address[address] += 1
        conn = Conn(ws, address, self.limits, hub.outbox)
        conn.ticket = ticket
        assert isinstance(ws, GuardedConnection)  # `serve` below makes only these

        def before_write() -> None:
            if conn.queue:
                hub.outbox.flush_for(conn)

        ws.before_write = before_write
        hub.connected(conn)
        loop = asyncio.get_running_loop()
        wait = self.limits.hello_timeout_s or float("inf")
        hello_timer = loop.call_later(wait, self._hello_timeout, conn)

        self._limit_send_buffer(ws)

        def handle(frame: bytes | str, within_rate: bool) -> None:
            hub.outbox.due()
            try:
                hub.handle(conn, frame, within_rate)  # never raises; guards the protocol
            except Exception:
                self.quiet.exception(
                    "handling failed", "handling a message from %s failed", address
                )
            if conn.closed:
                inbox.close()

        budget = self._address_budget[address] if self._address_budget is not None else None
        inbox = Inbox(
            ws.transport,
            budget,
            lambda: hub.arrive(conn),
            handle,
            lambda: hub.note("reads paused for an address over its message budget"),
        )

        def on_message(frame: bytes | str) -> None:
            if not conn.closed:  # the server is closing it: nothing more is handled
                inbox.put(frame)

        try:
            # Once the server decides to close, messages are no longer handled: the
            # transport is aborted if the closing handshake does not finish in
            # close_timeout_s.
            ws.start_handling(on_message)
            await ws.wait_closed()
            if conn.closing is not None:
                await conn.closing  # our close code, not websockets' 1000 on return
            if ws.too_big:
                hub.note("connections closed for a message over 64 KiB")
        except ConnectionClosed:
            pass
        except Exception:
            self.quiet.exception("connection failed", "connection from %s failed", address)
        finally:
            hello_timer.cancel()
            inbox.close()
            hub.disconnected(conn)
            self._closed_since_trim += 1
            if self._closed_since_trim >= TRIM_AFTER_CLOSED and self._trim is None:
                self._trim = asyncio.get_running_loop().call_later(TRIM_EVERY, self._release_memory)
            self._per_address[address] -= 1
            if self._per_address[address] <= 0:
                del self._per_address[address]
                if self._address_budget is not None:
                    self._address_budget.table.pop(address, None)

    @staticmethod
    def _forget_handshake(ws: ServerConnection) -> None:
        """The handshake's headers are read (the address above) and never again: about
        3 KiB a connection, kept for its whole life otherwise (issue 21). The request
        itself stays (websockets tells the handshake from frames by it), emptied."""
        if ws.request is not None:
            ws.request.headers = Headers()
        ws.response = None

    def _limit_send_buffer(self, ws: ServerConnection) -> None:
        """The kernel's share of a connection's unread output is bounded too (issue 21):
        left to itself it grows to megabytes per socket for a client that does not
        read, outside the server's own unread limit (`max_unread_kib`)."""
        size = self.limits.send_buffer_kib * 1024
        sock = ws.transport.get_extra_info("socket") if ws.transport is not None else None
        if size and sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)

    def _release_memory(self) -> None:
        """After many connections closed (a flood that ended), collect their cyclic
        garbage (full collections are rare in `modernart-server`, see cli.tune_gc)
        and hand the C heap's free pages back to the OS: otherwise RSS stays at the
        flood's peak for good. At most once per TRIM_EVERY seconds."""
        self._trim = None
        self._closed_since_trim = 0
        gc.collect()
        if _malloc_trim is not None:
            _malloc_trim(0)

    @staticmethod
    def _hello_timeout(conn: Conn) -> None:
        if conn.identity is None:
            conn.close(1008, "no hello")
