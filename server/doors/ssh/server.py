"""Play over SSH: `modernart-server --ssh-port 2222` answers `ssh -p 2222 alice@host`.

Each SSH session with a PTY is a terminal session (server/doors/terminal/): the
Textual client in a process forked from a zygote, on a PTY, connected to this
server on loopback. A public key is an identity: the key table maps its
fingerprint to the token of the identity a `hello` created on the key's first
use. Keyless sessions
(`--ssh-guests`) get a fresh identity each time. Password authentication is
never offered; forwarding, agent and X11 are refused, and so is every exec and
subsystem but the records' (`record ROOM`, scp and SFTP: records.py, channel.py).

The client process's WebSocket carries a per-session secret (the URL's user
info, sent as an Authorization header) that `Server.forwarded` maps to the SSH
client's real address, so the server's per-address limits count it there.

This module holds who may connect (`SshGate`, `Gatekeeper`); each session channel
is server/doors/ssh/session.py's `Session`.
"""

from __future__ import annotations

import asyncio
import logging
import pathlib
from dataclasses import dataclass, field

import asyncssh

from modernart.server.doors.registry import GameServer
from modernart.server.doors.ssh.banner import KeySignIns, banner_text
from modernart.server.doors.ssh.channel import Channel
from modernart.server.doors.ssh.keys import KeyIdentities, load_host_key
from modernart.server.doors.ssh.records import records_session
from modernart.server.doors.ssh.session import Session
from modernart.server.doors.ssh.startups import StartupLimits, Startups
from modernart.server.doors.terminal import Limits, Terminals, TerminalSession, TerminalSettings
from modernart.server.doors.terminal.admission import DEFAULT_PER_ADDRESS
from modernart.server.doors.terminal.refusals import RefusalLog
from modernart.server.doors.terminal.terminals import (
    DEFAULT_SESSIONS_PER_WORKER,
    DEFAULT_WORKER_MAX_MB,
    HANG_TIMEOUT,
)
from modernart.server.doors.terminal.zygote import DEFAULT_APP
from modernart.server.readiness import SSH
from modernart.server.wire.logthrottle import LogThrottle

log = logging.getLogger("modernart.server.doors.ssh.server")

DEFAULT_MAX_PER_ADDRESS = DEFAULT_PER_ADDRESS  # identities, not sessions (admission.py)
DEFAULT_IDLE_TIMEOUT = 1800.0  # seconds without a key press
DEFAULT_HANG_TIMEOUT = HANG_TIMEOUT  # seconds a worker's event loop may stop answering
LOGIN_TIMEOUT = 30.0  # seconds to authenticate


@dataclass
class SshSettings:
    """What `modernart-server --ssh-*` sets; see docs/operations.md."""

    port: int
    host: str = "127.0.0.1"
    guests: bool = False
    authorized_keys: pathlib.Path | None = None
    memory_mb: int = 0  # 0: half the available memory
    max_per_address: int = DEFAULT_MAX_PER_ADDRESS
    startup_limits: StartupLimits = field(default_factory=StartupLimits)
    idle_timeout: float = DEFAULT_IDLE_TIMEOUT
    hang_timeout: float = DEFAULT_HANG_TIMEOUT
    sessions_per_worker: int = DEFAULT_SESSIONS_PER_WORKER
    app: str = DEFAULT_APP
    measure_every: float = 5.0
    worker_max_mb: float = DEFAULT_WORKER_MAX_MB
    limits: Limits | None = field(default=None)

    def terminal_settings(self) -> TerminalSettings:
        limits = self.limits or Limits(memory_mb=self.memory_mb, per_address=self.max_per_address)
        return TerminalSettings(
            limits=limits,
            idle_timeout=self.idle_timeout,
            hang_timeout=self.hang_timeout,
            sessions_per_worker=self.sessions_per_worker,
            app=self.app,
            measure_every=self.measure_every,
            worker_max_mb=self.worker_max_mb,
        )


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
    """The SSH listener of one `Server`: who may connect, and each channel's session.

    The sessions themselves are `Terminals`' (server/doors/terminal/): shared with the
    other doors, under one memory budget.
    """

    def __init__(
        self, server: GameServer, settings: SshSettings, terminals: Terminals | None = None
    ) -> None:
        self.server = server
        self.settings = settings
        self.port = settings.port
        self.fingerprint = ""
        self.authorized = (
            AuthorizedKeys(settings.authorized_keys) if settings.authorized_keys else None
        )
        assert server.store is not None, "start the server first"
        self.identities = KeyIdentities(server.store, server.data_dir)
        self.own_terminals = terminals is None
        self.terminals = terminals or Terminals(
            server, settings.terminal_settings(), self.identities
        )
        self.keepers: set[Gatekeeper] = set()
        self.sessions: set[Session] = set()
        self.startups = Startups(settings.startup_limits)
        self.refusals = RefusalLog(log, "SSH connections")
        self.quiet = LogThrottle(log)  # failures outsiders can repeat (server/wire/logthrottle.py)
        self.key_sign_ins = KeySignIns()  # who needs no banner (banner.py)
        self._acceptor: asyncssh.SSHAcceptor | None = None

    @property
    def by_key(self) -> dict[str, TerminalSession]:
        return self.terminals.by_key

    async def start(self) -> None:
        key = load_host_key(self.server.data_dir)
        self.fingerprint = key.get_fingerprint()
        if self.own_terminals:
            await self.terminals.start()
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
        self.server.readiness.listening(SSH, True)
        log.info(
            "SSH on %s:%d, host key %s (%s)",
            s.host,
            self.port,
            self.fingerprint,
            "guests allowed" if s.guests else "keys only",
        )

    async def stop(self) -> None:
        """Stop listening, end every session and its process (before the game server stops)."""
        self.server.readiness.listening(SSH, False)
        if self._acceptor is not None:
            self._acceptor.close()
            await self._acceptor.wait_closed()
            self._acceptor = None
        await asyncio.gather(
            *(session.end("The server is shutting down.") for session in list(self.sessions))
        )
        if self.own_terminals:
            await self.terminals.stop()
        self.refusals.flush()
        self.quiet.flush()
        for keeper in list(self.keepers):
            if keeper.conn is not None:
                keeper.conn.close()

    def banner(self) -> str:
        """What a client is told before it signs in: how to get in."""
        return banner_text(self.settings.guests)

    def local_url(self, secret: str | None = None) -> str:
        return self.terminals.local_url(secret)


class Gatekeeper(asyncssh.SSHServer):
    """One SSH connection: who it is (key or guest), where from, and what it may open."""

    def __init__(self, gate: SshGate) -> None:
        self.gate = gate
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = ""
        self.host = ""
        self.fingerprint: str | None = None  # the key that signed in; None for a guest
        self.username = ""
        self._starting = False  # counted among the unauthenticated connections
        self._silent: asyncio.TimerHandle | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername") or ("?", 0)
        self.address = self.host = str(peer[0])
        gate = self.gate
        reason = gate.startups.refusal(self.address)
        if reason is not None:
            gate.refusals.count(reason, self.address)
            conn.abort()
            return
        gate.startups.add(self.address)
        gate.keepers.add(self)
        self._starting = True
        timeout = gate.settings.startup_limits.silent_timeout
        if timeout:
            self._silent = asyncio.get_running_loop().call_later(timeout, self._check_silent)

    def _check_silent(self) -> None:
        """Not even a version line yet: the slot goes to someone else."""
        self._silent = None
        if self.conn is not None and not self.conn.get_extra_info("client_version"):
            self.gate.refusals.count("silent", self.address)
            self.conn.abort()

    def _started(self) -> None:
        """No longer an unauthenticated connection (signed in, or gone)."""
        if self._silent is not None:
            self._silent.cancel()
            self._silent = None
        if self._starting:
            self._starting = False
            self.gate.startups.remove(self.address)

    def auth_completed(self) -> None:
        self._started()
        if self.fingerprint is not None:
            self.gate.key_sign_ins.add(self.username, self.address)

    def connection_lost(self, exc: Exception | None) -> None:
        self._started()
        self.gate.keepers.discard(self)

    def begin_auth(self, username: str) -> bool:
        # Sent before any method fails: an OpenSSH client without a key shows it
        # instead of a bare "Permission denied (publickey)"; not to a name and address
        # that signed in by key before (banner.py).
        self.username = username
        if self.conn is not None and (username, self.address) not in self.gate.key_sign_ins:
            self.conn.send_auth_banner(self.gate.banner())
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

    def session_requested(self) -> Channel:
        identities, key = self.gate.identities, self.fingerprint
        return Channel(Session(self), lambda: records_session(identities, key))
