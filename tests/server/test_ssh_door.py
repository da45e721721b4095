"""The SSH door under attack (issue 21, items 1, 3, 7, 10) and its welcome (issue 16):
real sockets and real asyncssh clients on 127.0.0.1."""

from __future__ import annotations

import asyncio
import logging
import os

import asyncssh
import pytest

from modernart.server.doors.ssh.startups import StartupLimits
from modernart.server.doors.terminal import Limits

from .sshgate import lobby
from .sshterm import WAIT, Terminal, open_terminal, ssh_connect
from .waiting import eventually


async def silent(port: int, address: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A TCP connection that says nothing (not even an SSH version line)."""
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))


async def cut(reader: asyncio.StreamReader) -> bool:
    """Whether the server closed the connection (EOF), having sent at most its version line."""
    data = await asyncio.wait_for(reader.read(), WAIT)
    return data in (b"", b"SSH-2.0-modernart\r\n")


def close_all(conns: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]]) -> None:
    for _, writer in conns:
        writer.close()


# ----------------------------------------------------- before signing in (item 3)


async def test_silent_connections_from_a_few_addresses_do_not_lock_the_door(ssh, key):
    # The attack: 32 silent connections from 4 addresses (8 each), held for the login timeout.
    gate = await ssh(startup_limits=StartupLimits(max_startups=(20, 30, 100), silent_timeout=0))
    flood = [await silent(gate.port, f"127.0.0.{2 + i // 8}") for i in range(32)]
    try:
        # each address holds at most 4 slots; the rest are cut at once
        for address in range(4):
            assert await cut(flood[8 * address + 7][0])
        assert gate.startups.total == 16
        await lobby(gate, key, "alice", "127.0.0.9")  # a new player still gets in
    finally:
        close_all(flood)


async def test_a_connection_that_says_nothing_is_closed_soon(ssh, key):
    gate = await ssh(startup_limits=StartupLimits(silent_timeout=0.5))
    quiet = await silent(gate.port, "127.0.0.2")
    try:
        assert await cut(quiet[0])  # after half a second, long before the 30 s login timeout
        assert gate.startups.total == 0 and gate.refusals.reasons["silent"] == 1
        await lobby(gate, key)  # a client that speaks is not cut
    finally:
        close_all([quiet])


async def test_beyond_start_new_connections_are_dropped_early_and_at_full_all(ssh):
    gate = await ssh(
        startup_limits=StartupLimits(max_startups=(2, 100, 4), per_address=0, silent_timeout=0)
    )
    conns = [await silent(gate.port, "127.0.0.2") for _ in range(2)]
    try:
        await eventually(lambda: gate.startups.total == 2, timeout=WAIT, interval=0)
        dropped = await silent(gate.port, "127.0.0.3")
        conns.append(dropped)
        assert await cut(dropped[0])  # at start with rate 100: dropped
        assert gate.startups.total == 2 and gate.refusals.reasons["early drop"] == 1
    finally:
        close_all(conns)


async def test_refusals_are_logged_once_a_minute_as_a_summary(ssh, caplog):
    caplog.set_level(logging.INFO, logger="modernart.server.doors.ssh")
    gate = await ssh(startup_limits=StartupLimits(per_address=1, silent_timeout=0))
    held = await silent(gate.port, "127.0.0.2")
    refused = []
    try:
        for _ in range(40):
            conn = await silent(gate.port, "127.0.0.2")
            refused.append(conn)
            assert await cut(conn[0])
        assert "refused" not in caplog.text  # nothing yet: one line a minute
        gate.refusals.flush()
        lines = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
        assert len(lines) == 1
        assert "refused: 40 (40 too many from one address)" in lines[0]
        assert "127.0.0.2 ×40" in lines[0]
    finally:
        close_all([held, *refused])


# ---------------------------------------------------------- session starts (item 7)


async def test_session_starts_are_rated_per_address(ssh):
    gate = await ssh(limits=Limits(starts_per_address=(2, 60.0)), measure_every=0)
    for name in ("a", "b"):
        term = await lobby(gate, asyncssh.generate_private_key("ssh-ed25519"), name)
        term.chan.close()
        await term.wait_closed()
    third = await open_terminal(
        await ssh_connect(gate.port, "c", asyncssh.generate_private_key("ssh-ed25519"))
    )
    await third.wait_closed()
    assert "Too many new sessions from your address" in third.output()
    await lobby(gate, asyncssh.generate_private_key("ssh-ed25519"), "d", "127.0.0.2")


async def test_session_starts_are_rated_in_all(ssh):
    gate = await ssh(limits=Limits(starts_total=(2, 60.0)), measure_every=0)
    for i in range(2):
        await lobby(gate, asyncssh.generate_private_key("ssh-ed25519"), f"p{i}", f"127.0.0.{2 + i}")
    late = await open_terminal(
        await ssh_connect(
            gate.port, "late", asyncssh.generate_private_key("ssh-ed25519"), "127.0.0.5"
        )
    )
    await late.wait_closed()
    assert "Too many new sessions right now" in late.output() and late.exit_status == 1


# ----------------------------------------------------------- terminal size (item 1)


async def test_a_huge_terminal_is_drawn_at_300_by_100_and_stalls_no_one(ssh, key):
    gate = await ssh()
    other = await lobby(gate, asyncssh.generate_private_key("ssh-ed25519"), "bob")
    conn = await ssh_connect(gate.port, "alice", key)
    _, huge = await conn.create_session(  # the test's own screen stays 80×24: pyte clips
        lambda: Terminal(80, 24), term_type="xterm", term_size=(20000, 5000), encoding=None
    )
    await huge.wait_text("Rooms")
    (session,) = [s for s in gate.sessions if s.process.name == "alice"]
    assert (session.process.cols, session.process.rows) == (300, 100)
    assert os.get_terminal_size(session.process._master) == os.terminal_size((300, 100))
    huge.chan.change_terminal_size(65535, 65535)
    other.send("c")  # the other session answers at once
    await other.wait_text("Create a room")
    await huge.wait(lambda: session.process.cols == 300, "the window change")
    assert os.get_terminal_size(session.process._master) == os.terminal_size((300, 100))
    huge.chan.change_terminal_size(100, 30)
    await huge.wait(lambda: os.get_terminal_size(session.process._master).lines == 30, "resize")


# -------------------------------------------------------------- log noise (item 10)


async def test_a_term_with_nul_logs_no_traceback_and_plays(ssh, key, caplog):
    caplog.set_level(logging.DEBUG)
    gate = await ssh()
    conn = await ssh_connect(gate.port, "alice", key)
    _, term = await conn.create_session(
        lambda: Terminal(80, 24),
        term_type="xterm\x00; rm -rf /",
        term_size=(80, 24),
        encoding=None,
    )
    await term.wait_text("Rooms")
    assert "Traceback" not in caplog.text and not any(r.exc_info for r in caplog.records)
    (session,) = gate.sessions
    assert session.process.term == "xterm-256color"


# ------------------------------------------------------------ the banner (issue 16)


class Keyless(asyncssh.SSHClient):
    def __init__(self) -> None:
        self.banner = ""

    def auth_banner_received(self, msg: str, lang: str) -> None:
        self.banner += msg


@pytest.mark.parametrize("guests", [False, True])
async def test_a_keyless_login_is_told_how_to_make_a_key(ssh, guests):
    gate = await ssh(guests=guests)
    client = Keyless()
    with pytest.raises(asyncssh.PermissionDenied):
        await asyncssh.connect(
            "127.0.0.1",
            gate.port,
            username="alice",
            client_keys=None,
            known_hosts=None,
            agent_path=None,
            config=None,
            password=None,
            kbdint_auth=False,
            client_factory=lambda: client,
        )
    assert "ssh-keygen -t ed25519" in client.banner
    assert ("Guests without a key are welcome" in client.banner) is guests


# ------------------------------------------------- who counts (issue 28)


async def test_the_same_key_again_replaces_its_session_at_a_full_address(ssh, key):
    """The per-address limit counts keys: a reconnect is never refused for it."""
    gate = await ssh(limits=Limits(per_address=1), measure_every=0)
    first = await lobby(gate, key)
    again = await lobby(gate, key)
    await first.wait_closed()
    assert "signed in again" in first.output()
    other = asyncssh.generate_private_key("ssh-ed25519")
    refused = await open_terminal(await ssh_connect(gate.port, "bob", other))
    await refused.wait_closed()
    assert "Too many sessions from your address (at most 1)" in refused.output()
    assert "Rooms" in again.text() and len(gate.sessions) == 1
