"""`Terminals`: every terminal session of one `Server`, whatever door it came through.

It admits sessions (server/doors/terminal/admission.py), gives each its identity (a
key's token, made by a `hello` on the key's first use), replaces an older
session of the same key (the new one lands where the old one was), measures
what the sessions use against the memory budget, and logs each session's end.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import msgpack
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus, WebSocketException

from modernart.server.doors.registry import GameServer
from modernart.server.doors.terminal.admission import Admission, Limits, proc_mb
from modernart.server.doors.terminal.pool import WorkerPool, WorkerProcess
from modernart.server.doors.terminal.refusals import RefusalLog
from modernart.server.doors.terminal.session import TerminalSession
from modernart.server.doors.terminal.workers import Zygote, ZygoteGone
from modernart.server.doors.terminal.zygote import DEFAULT_APP
from modernart.server.store.devices import SSH_GUEST, key_label
from modernart.server.store.errors import token_hash
from modernart.server.wire.session import Conn

log = logging.getLogger("modernart.server.doors.terminal")

DEFAULT_SESSIONS_PER_WORKER = 8  # docs/benchmarks.md ("Sessions per worker (K)")
DEFAULT_ADDRESS_PER_WORKER = 2  # issue 33: hostile sessions of one address share no crowd
DEFAULT_WORKER_MAX_MB = 250.0  # a worker's PSS beyond which its heaviest session is ended
OVER_SHARE = (
    "This session used more than its share of the server's memory and was closed "
    "(a very long paste or a flood of keys?). You can connect again."
)


class NameTaken(Exception):
    """A new key's user name is another player's: `suggestion` is free."""

    def __init__(self, suggestion: str) -> None:
        super().__init__(suggestion)
        self.suggestion = suggestion


class HelloRefused(Exception):
    """The server would not create an identity for a new key (its message says why)."""


class KeyTokens(Protocol):
    """A table from a key (an SSH key's fingerprint, …) to its identity's token."""

    def get(self, key: str) -> str | None: ...

    def put(self, key: str, token: str) -> None: ...


class Refused(Exception):
    """A session may not start; the message says why, for the person at the terminal."""


HANG_TIMEOUT = 5.0


@dataclass
class TerminalSettings:
    """What the operator sets for terminal sessions (docs/operations.md)."""

    limits: Limits = field(default_factory=Limits)
    idle_timeout: float = 1800.0  # seconds without a key press; 0: never
    # seconds without a heartbeat from a worker's loop (it beats every second); 0: never.
    # A stuck worker stalls its K sessions this long before they restart elsewhere.
    hang_timeout: float = HANG_TIMEOUT
    sessions_per_worker: int = DEFAULT_SESSIONS_PER_WORKER  # 1: a process per session
    # sessions of one address in one worker (0: no limit): one address fills no worker
    address_per_worker: int = DEFAULT_ADDRESS_PER_WORKER
    app: str = DEFAULT_APP  # the client class the zygote serves ("module:Class")
    measure_every: float = 5.0  # seconds between two readings of the workers' memory; 0: never
    # a worker measured above this (PSS, MB) ends its heaviest session, not all; 0: never
    worker_max_mb: float = DEFAULT_WORKER_MAX_MB


def weigh(sessions: set[TerminalSession]) -> None:
    """Each session's weight: the bytes it was given lately (halved at each reading),
    what its worker's memory is charged by: a paste, a flood of keys, grow its app's
    queues and parser; an idle session weighs nothing."""
    for session in sessions:
        session.weight = session.weight / 2 + session.fed - session.weighed
        session.weighed = session.fed


def pss_mb(pid: int) -> float:
    """A process's proportional set size (its share of the pages it maps), in MB."""
    return proc_mb(f"/proc/{pid}/smaps_rollup", "Pss:", 0.0)


class Terminals:
    """The session machinery of one server; transports call `open()`."""

    def __init__(self, server: GameServer, settings: TerminalSettings, keys: KeyTokens) -> None:
        self.server = server
        self.settings = settings
        self.keys = keys
        self.admission = Admission(settings.limits, self._workers_mb)
        self.zygote = Zygote(settings.app)
        self.pool = WorkerPool(
            self.zygote,
            settings.sessions_per_worker,
            settings.hang_timeout,
            settings.address_per_worker,
        )
        self.sessions: set[TerminalSession] = set()
        self.by_key: dict[str, TerminalSession] = {}
        self._first_use: dict[str, asyncio.Lock] = {}
        self._ending: set[asyncio.Task[None]] = set()  # sessions of revoked devices closing
        self._measuring: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.refusals = RefusalLog(log, "terminal sessions")

    async def start(self) -> None:
        await self.zygote.start()
        if self.server.hub is not None:
            self.server.hub.doors.add(self)
        if self.settings.measure_every:
            self._measuring = asyncio.get_running_loop().create_task(self._measure())

    async def stop(self, reason: str = "The server is shutting down.") -> None:
        """End every session (each told `reason`) and the zygote."""
        if self._measuring is not None:
            self._measuring.cancel()
        if self.server.hub is not None:
            self.server.hub.doors.remove(self)
        await asyncio.gather(*(s.close(reason) for s in list(self.sessions)))
        await self.pool.stop()
        await self.zygote.stop()
        self.refusals.flush()

    # ------------------------------------------------------------- sessions

    def refusal(self, peer: str, key: str | None = None) -> str | None:
        """Why a session from `peer` with `key` may not start now (checked again by
        `open`). A key that has a session at `peer` already is not counted again: the new
        session replaces that one."""
        reason = self.admission.refusal(peer, new_worker=not self.pool.has_room(peer), who=key)
        if reason is not None:
            return reason
        srv = self.server
        if srv.max_per_address and srv.connections_from(peer) >= srv.max_per_address:
            return "Too many connections from your address."
        return None

    async def open(
        self,
        *,
        peer: str,
        name: str,
        term: str | None,
        cols: int,
        rows: int,
        key: str | None,
        output: Callable[[bytes], None],
        closed: Callable[[str, int], None],
        records: str | None = None,
        browser: bool = False,
    ) -> TerminalSession:
        """Start a session for `name` at `peer`; raises `Refused` with a message.
        `records`: how the door gives a player a record, for the client to say (ROOM:
        the room's id); `browser`: the session is a browser's page (tui/browser.py)."""
        reason = self.refusal(peer, key)
        if reason is not None:
            self.refusals.count(reason, peer)
            raise Refused(reason)
        session = TerminalSession(
            self,
            peer=peer,
            name=name,
            term=term,
            cols=cols,
            rows=rows,
            key=key,
            output=output,
            closed=closed,
            records=records,
            browser=browser,
        )
        self.admission.admit(session, peer, who=key)
        self.sessions.add(session)
        try:
            if key is not None:
                session.token = await self.token_for(key, name, peer)
                older = self.by_key.get(key)
                self.by_key[key] = session
                if older is not None:
                    session.watch = self.watched(session.token)
                    await older.close("You signed in again from another session.")
            elif self.server.hub is None:
                # A door machine hears of no guest's welcome (its hub is elsewhere): the
                # guest's identity is made first, as a key's is, so that a restarted
                # client comes back as the same guest.
                session.token = await self._hello(name, peer, None)
            session.watch = session.watch or self.watched(session.token)
            if session.ended:
                raise Refused("")
            await session.start()
        except (HelloRefused, ZygoteGone) as exc:
            self.refusals.count(str(exc), peer)
            self.forget(session, f"refused: {exc}")
            raise Refused(f"Sorry: {exc}") from None
        except BaseException:
            self.forget(session, "failed to start")
            raise
        log.info("session %s from %s (%s) started, pid %s", name, peer, key or "guest", session.pid)
        return session

    def watched(self, token: str | None) -> str | None:
        """The room the token's identity watched last, if any (to return there)."""
        hub = self.server.hub
        if token is None or hub is None:
            return None
        identity = hub.people.identity_for_token(token)
        return identity.watching if identity is not None else None

    def forget(self, session: TerminalSession, why: str) -> None:
        """The session is over: release what it was counted for, log its end."""
        if session not in self.sessions:
            return
        self.sessions.discard(session)
        self.admission.release(session)
        if session.key is not None and self.by_key.get(session.key) is session:
            del self.by_key[session.key]
        minutes = (time.monotonic() - session.started) / 60
        log.info(
            "session %s from %s (%s) ended after %.1f min: %s",
            session.name,
            session.peer,
            session.key or "guest",
            minutes,
            why,
        )

    async def _measure(self) -> None:
        """Read what each worker uses (its PSS), off the event loop."""
        while True:
            await asyncio.sleep(self.settings.measure_every)
            await self.measure()

    async def measure(self) -> None:
        workers = list(self.pool.alive)
        zygote = self.zygote.pid

        def read() -> tuple[float, list[float]]:
            return (pss_mb(zygote) if zygote else 0.0), [pss_mb(w.pid) for w in workers]

        overhead, used = await asyncio.to_thread(read)
        self.admission.overhead_mb = overhead
        for worker, mb in zip(workers, used, strict=True):
            worker.measured_mb = mb
        weigh(self.sessions)
        limit = self.settings.worker_max_mb
        for worker in workers:
            if limit and worker.measured_mb > limit:
                self._over_share(worker)

    def _over_share(self, worker: WorkerProcess) -> None:
        """A worker over its memory limit: its heaviest session is ended, with a message,
        not the worker and its neighbours (the worker hands the memory back: memory.py)."""
        sessions = [s for s in self.sessions if s.worker is worker]
        if not sessions or any(s.closing for s in sessions):
            return  # one is being ended already: the next reading tells whether it was enough
        heaviest = max(sessions, key=lambda s: (s.weight, s.cols * s.rows, s.started))
        log.warning(
            "worker %s uses %.0f MB (limit %.0f): session %s from %s ended",
            worker.pid,
            worker.measured_mb,
            self.settings.worker_max_mb,
            heaviest.name,
            heaviest.peer,
        )
        self._tasks.add(task := asyncio.get_running_loop().create_task(heaviest.close(OVER_SHARE)))
        task.add_done_callback(self._tasks.discard)

    def _workers_mb(self) -> float:
        """What the workers are charged besides their sessions' reservations."""
        charge = self.admission.worker_charge
        return sum(charge(w.measured_mb, len(w)) for w in self.pool.alive)

    # ------------------------------------------------------------- identity

    def local_url(self, secret: str | None = None) -> str:
        """The game server's URL for a client of these sessions (`secret`: loopback's)."""
        return self.server.client_url(f"ssh:{secret}" if secret else None)

    def forward(self, address: str, key: str | None = None) -> tuple[str, str]:
        """A client URL on behalf of `address` (and `key`): (url, its Authorization header).

        The server counts the connection for `address` until `unforward(header)`.
        """
        return self.server.forward(address, key)

    def unforward(self, header: str) -> None:
        self.server.unforward(header)

    async def token_for(self, key: str, name: str, address: str) -> str:
        """The token of the key's identity; on the key's first use a `hello` creates one."""
        lock = self._first_use.setdefault(key, asyncio.Lock())
        try:
            async with lock:
                token = self.keys.get(key)
                if token is None:
                    token = await self._hello(name, address, key)
                    self.keys.put(key, token)
                    log.info("new identity for key %s", key)
        finally:
            if not lock.locked():
                self._first_use.pop(key, None)
        return token

    def claimed(self, conn: Conn, token: str) -> None:
        """A session's client took another identity over with a code (`claim`): the
        session's key now leads to that identity (the next login with the key lands
        there; the identity the key had is left as it is: docs/decisions/handoff.md)."""
        session = self._session_of(conn)
        if session is None:
            return
        session.token = token  # a restarted client comes back as the claimed identity
        if session.key is not None:
            self.keys.put(session.key, token)
            log.info("key %s now plays another identity (a hand-off code)", session.key)

    def welcomed(self, conn: Conn, token: str) -> None:
        """A session's client was welcomed: a guest's session keeps the token (a key's
        session has its key's), so that its client, started again after a fault, says
        hello as the same identity instead of finding its own name taken."""
        session = self._session_of(conn)
        if session is not None and session.key is None:
            session.token = token

    def device_label(self, conn: Conn) -> str | None:
        """How an identity's list of devices names the session `conn` is the client of
        (None: no session of these doors)."""
        session = self._session_of(conn)
        if session is None:
            return None
        return key_label(session.key) if session.key is not None else SSH_GUEST

    def revoked(self, digest: str, by: str) -> None:
        """A device was revoked (server/people/devices.py): a session still open with its
        token ends, told why (its client was replaced when the revoking device came)."""
        for session in list(self.sessions):
            if session.token is not None and token_hash(session.token) == digest:
                reason = f"This device was signed out: another device ({by}) revoked it."
                task = asyncio.get_running_loop().create_task(session.close(reason))
                self._ending.add(task)
                task.add_done_callback(self._ending.discard)

    def _session_of(self, conn: Conn) -> TerminalSession | None:
        """The terminal session whose client `conn` is (known by its loopback secret)."""
        header = conn.ticket
        if not header:
            return None
        return next((s for s in self.sessions if s.secret_header == header), None)

    async def _hello(self, name: str, address: str, key: str | None) -> str:
        """Say hello for a new key (counted, like the client after it, for its address).
        A user name another player holds (issue 18): the key's identity takes the
        server's free suggestion, and the lobby then asks for a name (tui/playerlink.py)."""
        try:
            return await self._hello_as(name, address, key)
        except NameTaken as taken:
            return await self._hello_as(taken.suggestion, address, key)

    async def _hello_as(self, name: str, address: str, key: str | None) -> str:
        url, header = self.forward(address, key)
        hello = {"t": "hello", "v": 1, "name": name}
        try:
            async with connect(url, open_timeout=10) as ws:
                await ws.send(msgpack.packb(hello))
                async for frame in ws:
                    msg = msgpack.unpackb(frame) if isinstance(frame, bytes) else None
                    if isinstance(msg, dict) and msg.get("t") == "welcome":
                        return str(msg["token"])
                    if isinstance(msg, dict) and msg.get("code") == "name_taken":
                        raise NameTaken(str(msg.get("suggestion") or ""))
                    if isinstance(msg, dict) and msg.get("t") == "error":
                        raise HelloRefused(str(msg.get("message") or msg.get("code")))
        except InvalidStatus as exc:  # the server's refusal (429, 503), as it words it
            said = exc.response.body.decode(errors="replace").strip() if exc.response.body else ""
            raise HelloRefused(said or f"the game server refused ({exc})") from None
        except (OSError, TimeoutError, WebSocketException) as exc:  # a door machine's server
            log.warning("hello at %s failed: %s", self.local_url(), exc)
            raise HelloRefused("the game server cannot be reached; try again soon") from None
        finally:
            self.unforward(header)
        raise HelloRefused("the server closed the connection")
