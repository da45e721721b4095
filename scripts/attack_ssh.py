"""The SSH attacks of issue 21 (items 1, 3, 7, 10), run by scripts/attack.py against
its server's SSH door (`--ssh-port`, guests allowed). Each returns what it achieved;
attack.py times the healthy game beside it."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import asyncssh

SSH_PORT = 0  # set by attack.py in the attack's process


class Screen(asyncssh.SSHClientSession):  # type: ignore[type-arg]
    """Counts what a session receives; `first` is set on its first bytes."""

    def __init__(self) -> None:
        self.received = 0
        self.first = asyncio.Event()
        self.closed = asyncio.Event()
        self.text = bytearray()

    def data_received(self, data: bytes, datatype: int | None) -> None:
        self.received += len(data)
        if len(self.text) < 65536:
            self.text += data
        self.first.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()
        self.first.set()


class Guest(asyncssh.SSHClient):
    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(self, name, instructions, lang, prompts):  # type: ignore[no-untyped-def]
        return ["" for _ in prompts]


async def guest(address: str = "127.0.0.1", user: str = "mallory") -> asyncssh.SSHClientConnection:
    return await asyncssh.connect(
        "127.0.0.1",
        SSH_PORT,
        username=user,
        client_keys=None,
        known_hosts=None,
        agent_path=None,
        config=None,
        password=None,
        kbdint_auth=True,
        client_factory=Guest,
        local_addr=(address, 0),
        login_timeout=60,
    )


async def session(
    conn: asyncssh.SSHClientConnection, size: tuple[int, int] = (80, 24), term: str = "xterm"
) -> tuple[asyncssh.SSHClientChannel, Screen]:
    chan, screen = await conn.create_session(Screen, term_type=term, term_size=size, encoding=None)
    return chan, screen  # type: ignore[return-value]


async def legit_player(end: float) -> str:
    """Can a newcomer from another address get the lobby meanwhile? Tries once a second."""
    tries, got = 0, 0
    waits: list[float] = []
    while time.monotonic() < end:
        tries += 1
        t0 = time.monotonic()
        with contextlib.suppress(OSError, asyncssh.Error, TimeoutError):
            async with asyncio.timeout(10):
                conn = await guest("127.0.0.200", "newcomer")
                _, screen = await session(conn)
                while b"Rooms" not in screen.text and not screen.closed.is_set():
                    screen.first.clear()
                    await screen.first.wait()
                if b"Rooms" in screen.text:
                    got += 1
                    waits.append(time.monotonic() - t0)
                conn.close()
        await asyncio.sleep(1)  # a person trying again
    slowest = f", slowest {max(waits):.1f} s" if waits else ""
    return f"{got}/{tries}{slowest}"


async def huge_terminal(url: str, end: float) -> dict[str, Any]:
    """Item 1: sessions with a 20000×5000 PTY, then window changes to 65535×65535."""
    sessions = []
    for _ in range(4):
        with contextlib.suppress(OSError, asyncssh.Error):
            conn = await guest()
            sessions.append((conn, *(await session(conn, (20000, 5000)))))
    changes = 0
    while time.monotonic() < end:
        for _, chan, _ in sessions:
            with contextlib.suppress(Exception):
                chan.change_terminal_size(65535 - changes % 2, 65535)
                changes += 1
        await asyncio.sleep(0.5)
    received = sum(s.received for _, _, s in sessions)
    for conn, _, _ in sessions:
        conn.close()
    return {"sessions": len(sessions), "window changes": changes, "bytes received": received}


async def silent_connections(url: str, end: float) -> dict[str, Any]:
    """Item 3: 32 silent TCP connections from 4 addresses, reopened as they are cut."""
    held: list[asyncio.StreamWriter] = []
    opened = 0

    async def hold(address: str) -> None:
        nonlocal opened
        while time.monotonic() < end:
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", SSH_PORT, local_addr=(address, 0)
                )
            except OSError:
                await asyncio.sleep(0.05)
                continue
            opened += 1
            held.append(writer)
            with contextlib.suppress(Exception):
                async with asyncio.timeout(max(0.1, end - time.monotonic())):
                    while await reader.read(4096):
                        pass  # the server's version line; we say nothing
            writer.close()

    newcomer = asyncio.create_task(legit_player(end))
    await asyncio.gather(*(hold(f"127.0.0.{10 + i // 8}") for i in range(32)))
    return {"connections opened": opened, "newcomer got the lobby": await newcomer}


async def session_churn(url: str, end: float) -> dict[str, Any]:
    """Item 7: 16 loops opening a session, waiting for its first bytes, closing it."""
    started = refused = 0

    async def loop(i: int) -> None:
        nonlocal started, refused
        while time.monotonic() < end:
            try:
                conn = await guest(f"127.0.1.{i % 4 + 1}")
                _, screen = await session(conn)
                async with asyncio.timeout(20):
                    await screen.first.wait()
                if b"Too many" in screen.text or b"full" in screen.text:
                    refused += 1
                else:
                    started += 1
                conn.close()
            except (OSError, asyncssh.Error, TimeoutError):
                refused += 1
                await asyncio.sleep(0.05)

    await asyncio.gather(*(loop(i) for i in range(16)))
    return {"sessions started": started, "refused": refused}


async def term_with_nul(url: str, end: float) -> dict[str, Any]:
    """Item 10: sessions whose TERM holds a NUL byte, again and again."""
    tries = 0
    while time.monotonic() < end:
        with contextlib.suppress(OSError, asyncssh.Error, TimeoutError):
            conn = await guest("127.0.2.1")
            _, screen = await session(conn, term="xterm\x00evil")
            async with asyncio.timeout(10):
                await screen.first.wait()
            conn.close()
        tries += 1
        await asyncio.sleep(0.2)
    return {"sessions tried": tries}


ATTACKS = {
    "21.1 huge terminal": huge_terminal,
    "21.3 silent SSH connections": silent_connections,
    "21.7 SSH session churn": session_churn,
    "21.10 TERM with NUL": term_with_nul,
}
