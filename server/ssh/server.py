"""Play over SSH: `modernart-server --ssh-port 2222` answers `ssh -p 2222 alice@host`.

Each SSH session with a PTY gets its own client process (the Textual client,
`server/ssh/client.py`) on a PTY, connected to this server on loopback. A
public key is an identity: `KeyIdentities` maps its fingerprint to the token
of the identity a `hello` created on the key's first use. Keyless sessions
(`--ssh-guests`) get a fresh identity each time. Password authentication is
never offered; exec, subsystems (SFTP), forwarding, agent and X11 are refused.

The client process's WebSocket carries a per-session secret (the URL's user
info, sent as an Authorization header) that `Server.forwarded` maps to the SSH
client's real address, so the server's per-address limits count it there.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import pathlib
import secrets
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

import asyncssh
import msgpack
from websockets.asyncio.client import connect

from ..app import Server
from .keys import KeyIdentities, load_host_key
from .output import SgrFilter
from .pty import ClientProcess
from .screen import ScreenRelay

log = logging.getLogger("modernart.server.ssh")

DEFAULT_MAX_SESSIONS = 16  # ~100 MB each after a game: docs/benchmarks.md
DEFAULT_MAX_PER_ADDRESS = 4
DEFAULT_IDLE_TIMEOUT = 1800.0  # seconds without a key press
LOGIN_TIMEOUT = 30.0  # seconds to authenticate
DEFAULT_SIZE = (80, 24)
FRAME = 0.02  # seconds: the client's output is sent as at most 50 frames a second


@dataclass
class SshSettings:
    """What `modernart-server --ssh-*` sets; see docs/operations.md."""

    port: int
    host: str = "127.0.0.1"
    guests: bool = False
    authorized_keys: pathlib.Path | None = None
    max_sessions: int = DEFAULT_MAX_SESSIONS
    max_per_address: int = DEFAULT_MAX_PER_ADDRESS
    idle_timeout: float = DEFAULT_IDLE_TIMEOUT


def valid_name(name: str) -> bool:
    """PROTOCOL.md's player name: 1–24 printable characters, not all blank."""
    return 1 <= len(name) <= 24 and name.isprintable() and bool(name.strip())


class HelloRefused(Exception):
    """The server would not create an identity for a new key (its message says why)."""


class AuthorizedKeys:
    """`--ssh-authorized-keys FILE`, read again whenever the file changes."""

    def __init__(self, path: pathlib.Path) -> None:
        self.path = path
        self._mtime: float | None = None
        self._keys: asyncssh.SSHAuthorizedKeys | None = None
        self._load()  # a missing or broken file stops the server at start

    def _load(self) -> None:
        mtime = self.path.stat().st_mtime
        if mtime != self._mtime:
            self._keys = asyncssh.read_authorized_keys(str(self.path))
            self._mtime = mtime

    def allows(self, key: asyncssh.SSHKey, host: str, address: str) -> bool:
        try:
            self._load()
        except (OSError, ValueError) as exc:  # keep the last good list
            log.warning("cannot read %s: %s", self.path, exc)
        assert self._keys is not None
        return self._keys.validate(key, host, address) is not None


class SshGate:
    """The SSH listener of one `Server`, its sessions and their limits."""

    def __init__(self, server: Server, settings: SshSettings) -> None:
        self.server = server
        self.settings = settings
        self.port = settings.port
        self.fingerprint = ""
        self.authorized = (
            AuthorizedKeys(settings.authorized_keys) if settings.authorized_keys else None
        )
        self.identities = KeyIdentities(server.data_dir)
        self.keepers: set[Gatekeeper] = set()
        self.sessions: set[Session] = set()
        self.by_key: dict[str, Session] = {}
        self.per_address: Counter[str] = Counter()
        self.connections: Counter[str] = Counter()
        self._first_use: dict[str, asyncio.Lock] = {}
        self._acceptor: asyncssh.SSHAcceptor | None = None

    async def start(self) -> None:
        key = load_host_key(self.server.data_dir)
        self.fingerprint = key.get_fingerprint()
        s = self.settings
        self._acceptor = await asyncssh.create_server(
            lambda: Gatekeeper(self),
            s.host,
            s.port,
            server_host_keys=[key],
            server_version="modernart",
            public_key_auth=True,
            kbdint_auth=s.guests,
            password_auth=False,
            host_based_auth=False,
            gss_auth=False,
            gss_kex=False,
            allow_pty=True,
            agent_forwarding=False,
            x11_forwarding=False,
            allow_scp=False,
            line_editor=False,
            encoding=None,
            login_timeout=LOGIN_TIMEOUT,
            keepalive_interval=30,
            keepalive_count_max=3,
        )
        self.port = self._acceptor.sockets[0].getsockname()[1]
        log.info(
            "SSH on %s:%d, host key %s (%s)",
            s.host,
            self.port,
            self.fingerprint,
            "guests allowed" if s.guests else "keys only",
        )

    async def stop(self) -> None:
        """Stop listening, end every session and its process (before the game server stops)."""
        if self._acceptor is not None:
            self._acceptor.close()
            await self._acceptor.wait_closed()
            self._acceptor = None
        await asyncio.gather(
            *(session.end("The server is shutting down.") for session in list(self.sessions))
        )
        for keeper in list(self.keepers):
            if keeper.conn is not None:
                keeper.conn.close()

    # --------------------------------------------------------------- limits

    def refusal(self, address: str) -> str | None:
        """Why a new session from `address` may not start now, or None."""
        s = self.settings
        if s.max_sessions and len(self.sessions) >= s.max_sessions:
            return "The server is full; please try again later."
        if s.max_per_address and self.per_address[address] >= s.max_per_address:
            return f"Too many sessions from your address (at most {s.max_per_address})."
        srv = self.server
        if srv.max_per_address and srv.connections_from(address) >= srv.max_per_address:
            return "Too many connections from your address."
        return None

    def accepts_connection(self, address: str) -> bool:
        """Connections (authenticated or not) are capped at twice the session limits."""
        s = self.settings
        if s.max_sessions and sum(self.connections.values()) >= 2 * s.max_sessions:
            return False
        return not (s.max_per_address and self.connections[address] >= 2 * s.max_per_address)

    # ------------------------------------------------------------- identity

    def local_url(self, secret: str | None = None) -> str:
        host = self.server.host
        if host in ("", "0.0.0.0"):
            host = "127.0.0.1"
        elif host == "::":
            host = "[::1]"
        elif ":" in host:
            host = f"[{host}]"
        auth = f"ssh:{secret}@" if secret else ""
        return f"ws://{auth}{host}:{self.server.port}/"

    def forward(self, address: str) -> tuple[str, str]:
        """A fresh secret for a loopback connection on behalf of `address`: (url, header).

        The server counts the connection for `address` until `unforward(header)`.
        """
        secret = secrets.token_urlsafe(24)
        header = "Basic " + base64.b64encode(f"ssh:{secret}".encode()).decode()
        self.server.forwarded[header] = address
        return self.local_url(secret), header

    def unforward(self, header: str) -> None:
        self.server.forwarded.pop(header, None)

    async def token_for(self, fingerprint: str, name: str, address: str) -> str:
        """The token of the key's identity; on the key's first use a `hello` creates one."""
        lock = self._first_use.setdefault(fingerprint, asyncio.Lock())
        async with lock:
            token = self.identities.get(fingerprint)
            if token is None:
                token = await self._hello(name, address)
                self.identities.put(fingerprint, token)
                log.info("new identity for key %s", fingerprint)
        return token

    async def _hello(self, name: str, address: str) -> str:
        """Say hello for a new key (counted, like the client after it, for its address)."""
        url, header = self.forward(address)
        hello = {"t": "hello", "v": 1, "name": name}
        try:
            async with connect(url, open_timeout=10) as ws:
                await ws.send(msgpack.packb(hello))
                async for frame in ws:
                    msg = msgpack.unpackb(frame) if isinstance(frame, bytes) else None
                    if isinstance(msg, dict) and msg.get("t") == "welcome":
                        return str(msg["token"])
                    if isinstance(msg, dict) and msg.get("t") == "error":
                        raise HelloRefused(str(msg.get("message") or msg.get("code")))
        finally:
            self.unforward(header)
        raise HelloRefused("the server closed the connection")


class Gatekeeper(asyncssh.SSHServer):
    """One SSH connection: who it is (key or guest), where from, and what it may open."""

    def __init__(self, gate: SshGate) -> None:
        self.gate = gate
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = ""
        self.host = ""
        self.fingerprint: str | None = None  # the key that signed in; None for a guest
        self._counted = False

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername") or ("?", 0)
        self.address = self.host = str(peer[0])
        if not self.gate.accepts_connection(self.address):
            log.info("SSH connection from %s refused: too many", self.address)
            conn.abort()
            return
        self.gate.connections[self.address] += 1
        self.gate.keepers.add(self)
        self._counted = True

    def connection_lost(self, exc: Exception | None) -> None:
        if self._counted:
            self._counted = False
            self.gate.keepers.discard(self)
            self.gate.connections[self.address] -= 1
            if self.gate.connections[self.address] <= 0:
                del self.gate.connections[self.address]

    def begin_auth(self, username: str) -> bool:
        return True  # always authenticate: by key, or as a guest (keyboard-interactive)

    def password_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # Called for the key a client offers and again for the one it signs with;
        # the last accepted one is the key of a successful public key sign-in.
        authorized = self.gate.authorized
        if authorized is not None and not authorized.allows(key, self.host, self.address):
            return False
        self.fingerprint = key.get_fingerprint()
        return True

    def kbdint_auth_supported(self) -> bool:
        return self.gate.settings.guests

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self.fingerprint = None  # a guest, whatever keys were offered before
        return True  # no questions: a guest signs in at once

    def session_requested(self) -> Session:
        return Session(self)


class Session(asyncssh.SSHServerSession):  # type: ignore[type-arg]
    """One session channel: its client process, or the message of why there is none."""

    def __init__(self, keeper: Gatekeeper) -> None:
        self.keeper = keeper
        self.gate = keeper.gate
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.command: str | None = None
        self.process: ClientProcess | None = None
        self.relay: ScreenRelay | None = None  # the client's screen (server/ssh/screen.py)
        self.sgr = SgrFilter()  # and no useless colour changes (server/ssh/output.py)
        self._frame: asyncio.TimerHandle | None = None
        self.raw_bytes = 0  # what the client process wrote, before the filter
        self.counted = False
        self.ended = False
        self.ending = False  # the server is ending the process: no "client ended" notice
        self.secret_header: str | None = None
        self.last_input = time.monotonic()
        self._idle: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[None] | None = None
        self._stopping: asyncio.Task[None] | None = None
        self.done = asyncio.Event()  # set once the process is gone and the session forgotten

    # asyncssh callbacks ----------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: Any, term_modes: Any) -> bool:
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command  # accepted only to be answered with a message
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        return False  # SFTP and every other subsystem

    def session_started(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    def data_received(self, data: bytes, datatype: int | None) -> None:
        self.last_input = time.monotonic()
        if self.process is not None:
            self.process.write(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if self.process is not None and self.relay is not None and width > 0 and height > 0:
            self.relay.resize(width, height)
            self.process.resize(width, height)

    def pause_writing(self) -> None:
        if self.process is not None:
            self.process.pause()

    def resume_writing(self) -> None:
        if self.process is not None:
            self.process.resume()

    def eof_received(self) -> bool:
        return False  # close the channel

    def break_received(self, msec: int) -> bool:
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.ended = True
        self._begin_stop()

    # the session ------------------------------------------------------------

    def _usage(self, flag: str = "") -> str:
        """The command to use, e.g. `ssh -t -p 2222 alice@203.0.113.5`."""
        assert self.chan is not None
        user = self.chan.get_extra_info("username") or "USER"
        host = (self.chan.get_extra_info("sockname") or ("HOST",))[0]
        host = f"[{host}]" if ":" in host else host
        return f"ssh {flag}-p {self.gate.port} {user}@{host}"

    async def _run(self) -> None:
        chan = self.chan
        assert chan is not None
        if self.command is not None:
            self._refuse(f"This server only runs the game, no commands: `{self._usage()}`.")
            return
        if chan.get_terminal_type() is None:
            self._refuse(f"The game needs a terminal: connect with `{self._usage('-t ')}`.")
            return
        name = chan.get_extra_info("username") or ""
        if not valid_name(name):
            self._refuse("Your user name is your player name: 1 to 24 printable characters.")
            return
        address = self.keeper.address
        reason = self.gate.refusal(address)
        if reason is not None:
            log.info("SSH session from %s refused: %s", address, reason)
            self._refuse(reason)
            return
        self.counted = True
        self.gate.sessions.add(self)
        self.gate.per_address[address] += 1
        try:
            await self._start(chan, name, address)
        except HelloRefused as exc:
            log.info("SSH session from %s refused: %s", address, exc)
            self._refuse(f"Sorry: {exc}")
            self._begin_stop()
        except Exception:
            log.exception("SSH session from %s failed to start", address)
            if not self.ended:
                self._refuse("Sorry, the game could not start; please try again later.")
            self._begin_stop()

    async def _start(self, chan: asyncssh.SSHServerChannel[bytes], name: str, address: str) -> None:
        fingerprint = self.keeper.fingerprint
        token = None
        if fingerprint is not None:
            token = await self.gate.token_for(fingerprint, name, address)
            older = self.gate.by_key.get(fingerprint)
            self.gate.by_key[fingerprint] = self
            if older is not None:
                await older.end("You signed in again from another session.")
        if self.ended:
            return
        url, self.secret_header = self.gate.forward(address)
        cols, rows, _, _ = chan.get_terminal_size()
        cols, rows = cols or DEFAULT_SIZE[0], rows or DEFAULT_SIZE[1]
        self.relay = ScreenRelay(cols, rows)
        self.process = ClientProcess(self._output, self._process_ended)
        config = {"url": url, "name": name, "token": token}
        await self.process.start(config, chan.get_terminal_type() or "", cols, rows)
        log.info(
            "SSH session %s from %s (%s), pid %s",
            name,
            address,
            fingerprint or "guest",
            self.process.pid,
        )
        if self.ended:  # the client left while the process started
            self._begin_stop()
            return
        if self.gate.settings.idle_timeout:
            self._arm_idle(self.gate.settings.idle_timeout)

    def _output(self, data: bytes) -> None:
        """The client's output: kept as a screen, its changes sent once a frame."""
        self.raw_bytes += len(data)
        assert self.relay is not None
        self.relay.feed(data)
        if self._frame is None:
            self._frame = asyncio.get_running_loop().call_later(FRAME, self._flush)

    def _flush(self) -> None:
        self._frame = None
        if self.relay is not None:
            self._send(self.sgr.feed(self.relay.take()))

    def _send(self, data: bytes) -> None:
        if data and self.chan is not None and not self.ended:
            with contextlib.suppress(BrokenPipeError):  # closed: connection_lost follows
                self.chan.write(data)

    def _process_ended(self, code: int) -> None:
        if self._frame is not None:
            self._frame.cancel()
        self._flush()
        self._send(self.sgr.finish())
        if not self.ended and not self.ending:
            self._close("\r\nThe game client has ended. Goodbye!\r\n", 0 if code == 0 else 1)

    def _arm_idle(self, delay: float) -> None:
        self._idle = asyncio.get_running_loop().call_later(delay, self._check_idle)

    def _check_idle(self) -> None:
        timeout = self.gate.settings.idle_timeout
        quiet = time.monotonic() - self.last_input
        if quiet < timeout:
            self._arm_idle(timeout - quiet)
            return
        minutes = round(timeout / 60)
        self._close_after_stop(f"Closed after {minutes} min without a key press.")

    def _refuse(self, text: str) -> None:
        self._close(text + "\r\n", 1)

    def _close(self, text: str, status: int) -> None:
        """Write a last line and close the channel with an exit status."""
        if self.chan is None or self.ended:
            return
        self.ended = True
        self.chan.write(text.encode())
        self.chan.exit(status)
        self._begin_stop()

    def _close_after_stop(self, text: str) -> None:
        """End the process first (it restores the terminal), then say why."""

        self._task = asyncio.get_running_loop().create_task(self.end(text))

    async def end(self, text: str) -> None:
        """Close this session from the server's side with a message; wait for its process."""
        self.ending = True
        if self.process is not None:
            await self.process.stop()
        self._close("\r\n" + text + "\r\n", 0)
        self._begin_stop()
        if self._stopping is not None:
            await self._stopping

    def _begin_stop(self) -> None:
        """Once: end the process and forget the session (its limits, secret and key)."""
        if self._stopping is None and self.ended:
            self._stopping = asyncio.get_running_loop().create_task(self._stop())

    async def _stop(self) -> None:
        if self._idle is not None:
            self._idle.cancel()
        if self._frame is not None:
            self._frame.cancel()
        if self.process is not None:
            await self.process.stop()
        gate = self.gate
        if self.secret_header is not None:
            gate.unforward(self.secret_header)
        fingerprint = self.keeper.fingerprint
        if fingerprint is not None and gate.by_key.get(fingerprint) is self:
            del gate.by_key[fingerprint]
        if self.counted:
            self.counted = False
            gate.sessions.discard(self)
            address = self.keeper.address
            gate.per_address[address] -= 1
            if gate.per_address[address] <= 0:
                del gate.per_address[address]
        self.done.set()
