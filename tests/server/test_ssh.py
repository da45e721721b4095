"""Play over SSH (issue 11): a real asyncssh client on 127.0.0.1, the screen read by pyte."""

from __future__ import annotations

import asyncio
import logging
import os
import stat
import sys

import asyncssh
import psutil
import pytest

from modernart.server.doors.ssh.keys import HOST_KEY_FILE
from modernart.server.doors.ssh.server import SshGate, SshSettings
from modernart.server.doors.ssh.startups import StartupLimits
from modernart.server.doors.terminal import Limits
from modernart.server.wire.session import Identity

from .sshgate import identity_of, lobby, seat_of
from .sshterm import WAIT, KeyboardPlayer, open_terminal, ssh_connect
from .waiting import eventually
from .wsclient import Client


def ended(proc: psutil.Process) -> bool:
    """Gone, or a zombie awaiting its reaper (init, once the zygote that forked it ended)."""
    try:
        return proc.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


async def all_ended(procs: list[psutil.Process]) -> None:
    await eventually(lambda: all(ended(p) for p in procs), "the processes' end", WAIT, 0.02)


# ------------------------------------------------------------------ playing


async def test_keys_create_a_room_against_bots_start_it_and_play_a_card(ssh, key):
    gate = await ssh()
    term = await lobby(gate, key)
    await term.wait_text("No rooms yet")
    await term.wait_text("lobby")  # the event log's line (a frame of its own)
    term.send("c")
    await term.wait_text("Create a room")
    term.send("\x13")  # ctrl+s creates (the defaults: Modern Art, 4 seats, classic)
    await term.wait_text("You host")
    term.send("bbb")
    await term.wait(lambda: term.text().count("(H)") + term.text().count("(R)") >= 3, "3 bots")
    term.send("s")
    room_id, seat = None, None
    keyboard = KeyboardPlayer(term, 0)

    def played() -> bool:
        nonlocal room_id, seat
        room_id, seat = seat_of(gate, key)
        room = gate.server.hub.rooms.get(room_id) if room_id else None
        if room is None or room.game is None:
            return False
        game = room.game
        if any(a.get("type") == "play" and a.get("seat") == seat for a in game.actions):
            return True
        keyboard.step(game)
        return False

    def moves() -> int:
        room = gate.server.hub.rooms.get(room_id) if room_id else None
        return len(room.game.actions) if room is not None and room.game is not None else 0

    await term.wait(played, "a card played from the SSH session", progress=moves)
    assert seat == 0
    # The table was on the SSH screen (bots answer at once here: what the screen shows
    # now may already be a later moment, such as the round's end).
    assert "Your hand" in term.output() and "Value board" in term.output()


async def test_the_same_key_resumes_its_seat_and_another_key_is_another_player(ssh, key):
    gate = await ssh()
    await lobby(gate, key)  # first use: the key gets its identity
    token = gate.identities.get(key.get_fingerprint())
    assert token
    # The identity sits down from a second client (the same player elsewhere).
    own = await Client.hello(gate.local_url(), "alice", token)
    await own.send("create", seats=3)
    await own.send("add_bot")
    await own.send("add_bot")
    await own.send("start")
    await own.expect("update")
    await own.close()
    room_id, seat = seat_of(gate, key)
    assert room_id is not None and seat == 0

    again = await open_terminal(await ssh_connect(gate.port, "alice", key))
    await again.wait(lambda: "Your hand" in again.text() or "Round" in again.text(), "table")
    assert seat_of(gate, key) == (room_id, 0)
    identity = identity_of(gate, key)
    assert identity.conn is not None and identity.room is not None

    other = asyncssh.generate_private_key("ssh-ed25519")
    bob = await lobby(gate, other, "bob")
    assert gate.identities.get(other.get_fingerprint()) not in (None, token)
    assert seat_of(gate, other) == (None, None)
    await bob.wait_text("lobby")  # the event log's line (a frame of its own)


async def test_a_new_session_of_the_same_key_replaces_the_older_one(ssh, key):
    gate = await ssh()
    first = await lobby(gate, key)
    second = await lobby(gate, key)
    await first.wait_closed()
    assert "signed in again" in first.output()
    assert not second.closed.is_set() and len(gate.sessions) == 1


async def test_the_ssh_user_name_is_the_player_name_and_must_be_valid(ssh, key):
    gate = await ssh()
    await lobby(gate, key, "carol")
    assert identity_of(gate, key).name == "carol"
    term = await open_terminal(await ssh_connect(gate.port, "x" * 30, key))
    await term.wait_closed()
    assert "1 to 24 printable characters" in term.output() and term.exit_status == 1


# ----------------------------------------------------------------- access


async def test_authorized_keys_refuse_an_unlisted_key(ssh, key, tmp_path):
    listed = tmp_path / "authorized_keys"
    listed.write_bytes(key.export_public_key())
    gate = await ssh(authorized_keys=listed)
    await lobby(gate, key)
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    with pytest.raises(asyncssh.PermissionDenied):
        await ssh_connect(gate.port, "mallory", stranger)
    with pytest.raises(asyncssh.PermissionDenied):  # no guests unless --ssh-guests
        await ssh_connect(gate.port, "mallory", None)


async def test_any_key_plays_by_default_and_passwords_are_never_offered(ssh, key):
    gate = await ssh()
    await lobby(gate, key)
    with pytest.raises(asyncssh.PermissionDenied):
        await asyncssh.connect(
            "127.0.0.1",
            gate.port,
            username="alice",
            password="secret",
            client_keys=None,
            known_hosts=None,
            agent_path=None,
            config=None,
        )


async def test_guests_get_a_fresh_identity_each_time_and_a_taken_name_is_asked_again(ssh):
    """One name, one player (issue 18): the second guest's name is taken, so the lobby
    asks for another one before the client says hello."""
    gate = await ssh(guests=True)
    await lobby(gate, None, "guest")
    term = await open_terminal(await ssh_connect(gate.port, "guest", None, "127.0.0.1"))
    await term.wait_text("another player's name")
    term.send("\r")  # the offered name
    await term.wait_text("you are guest2")
    hub = gate.server.hub

    def guests() -> list[Identity]:
        online = [i for i in hub.identities.values() if i.conn is not None]
        return [i for i in online if i.name in ("guest", "guest2")]

    await term.wait(lambda: len(guests()) == 2, "both guests' hellos")
    assert guests()[0].id != guests()[1].id
    assert gate.identities.get("guest") is None and gate.by_key == {}


async def test_a_key_whose_user_name_is_taken_gets_a_free_one_and_is_asked(ssh, key):
    gate = await ssh(guests=True)
    await lobby(gate, None, "alice")  # a guest holds alice
    term = await open_terminal(await ssh_connect(gate.port, "alice", key, "127.0.0.1"))
    await term.wait_text("alice is another player's name: you are alice2")
    await term.wait(lambda: identity_of(gate, key).name == "alice2", "the key's identity")


async def test_the_token_appears_in_no_command_line_environment_or_log(ssh, key, caplog):
    caplog.set_level(logging.DEBUG)
    gate = await ssh()
    await lobby(gate, key)
    token = gate.identities.get(key.get_fingerprint())
    assert token
    (session,) = gate.sessions
    assert session.process is not None and session.process.pid is not None
    proc = psutil.Process(session.process.pid)
    assert token not in " ".join(proc.cmdline())
    assert all(token not in f"{k}={v}" for k, v in proc.environ().items())
    assert token not in caplog.text
    table = gate.server.store.path  # the key → token table is the store's
    assert stat.S_IMODE(table.stat().st_mode) == 0o600


async def test_the_host_key_is_kept_private_and_reused_on_restart(ssh, tmp_path, caplog):
    caplog.set_level(logging.INFO)
    first = await ssh()
    path = first.server.data_dir / HOST_KEY_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert first.fingerprint in caplog.text
    await first.stop()
    second = SshGate(first.server, SshSettings(port=0))
    await second.start()
    try:
        assert second.fingerprint == first.fingerprint
        conn = await ssh_connect(second.port, "alice", asyncssh.generate_private_key("ssh-ed25519"))
        assert conn.get_server_host_key().get_fingerprint() == first.fingerprint
        conn.close()
    finally:
        await second.stop()


# ------------------------------------------------------- refused politely


async def test_a_session_without_a_pty_is_told_to_use_ssh_t(ssh, key):
    gate = await ssh()
    term = await open_terminal(await ssh_connect(gate.port, "alice", key), pty=False)
    await term.wait_closed()
    assert "ssh -t" in term.output() and term.exit_status == 1
    assert not gate.sessions


async def test_exec_and_subsystems_but_the_records_and_forwarding_are_refused(ssh, key):
    gate = await ssh()
    conn = await ssh_connect(gate.port, "alice", key)
    for command in ("cat /etc/passwd", "recorder x", "sh -c 'record x'"):
        result = await conn.run(command, term_type="xterm")
        assert "runs the game" in str(result.stdout) and result.exit_status == 1
        assert "record ROOM" in str(result.stdout) and "root:" not in str(result.stdout)
    # The records' own (tests/server/test_ssh_records.py): `record`, and read-only SFTP.
    assert (await conn.run("record nosuch")).exit_status == 1
    async with conn.start_sftp_client() as sftp:
        assert sorted(await sftp.listdir("/")) == [".", "..", "games"]
    with pytest.raises(asyncssh.ChannelOpenError):  # any other subsystem
        await conn.create_session(asyncssh.SSHClientSession, subsystem="netconf")
    with pytest.raises(asyncssh.ChannelOpenError):
        await conn.open_connection("127.0.0.1", gate.server.port)
    with pytest.raises(asyncssh.ChannelListenError):
        await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", gate.server.port)
    assert not gate.sessions
    conn.close()


# ------------------------------------------------------------- the process


async def test_window_change_resizes_the_client(ssh, key):
    gate = await ssh()
    term = await lobby(gate, key)  # its footer on the last of 24 rows
    term.resize(100, 30)
    await term.wait(lambda: "Quit" in term.screen.display[29], "the footer on row 30")
    (session,) = gate.sessions
    assert session.process is not None
    assert os.get_terminal_size(session.process._master) == os.terminal_size((100, 30))


async def test_closing_the_channel_leaves_no_process_behind(ssh, key):
    gate = await ssh()
    term = await lobby(gate, key)
    (session,) = gate.sessions
    assert session.process is not None and session.process.pid is not None
    proc = psutil.Process(session.process.pid)
    family = [proc, *proc.children(recursive=True)]
    assert term.chan is not None
    term.chan.close()
    await asyncio.wait_for(session.done.wait(), WAIT)
    _, alive = psutil.wait_procs(family, timeout=5)  # already reaped: returns at once
    assert not alive and not gate.sessions and not gate.server.forwarded


async def test_the_client_ending_closes_the_channel_with_a_message(ssh, key):
    gate = await ssh()
    term = await lobby(gate, key)
    term.send("\x11")  # ctrl+q quits the client (after a "Quit?" where it asks one: y)
    asked = "Quit Modern Art?"
    await term.wait(lambda: asked in term.text() or term.closed.is_set(), "quit or its question")
    if not term.closed.is_set():
        term.send("y")
    await term.wait_closed()
    assert "Goodbye" in term.output() and term.exit_status == 0
    assert not gate.sessions


async def test_stopping_the_server_ends_every_session(ssh, key):
    gate = await ssh()
    term = await lobby(gate, key)
    (session,) = gate.sessions
    proc = psutil.Process(session.process.pid)
    await gate.stop()
    await term.wait_closed()
    assert "shutting down" in term.output()
    # Its control socket closed as it exited; the kernel may take a moment more to end it.
    await all_ended([proc])


# ------------------------------------------------------------------ limits


async def test_sessions_per_address_and_the_memory_budget_are_limited(ssh, key):
    # Room for one worker (5 MB) with two sessions of 25 MB (their reservation) and no more.
    limits = Limits(memory_mb=60, reserve_mb=25, worker_mb=5, per_address=1)
    gate = await ssh(limits=limits, measure_every=0)
    await lobby(gate, key)
    other = asyncssh.generate_private_key("ssh-ed25519")
    refused = await open_terminal(await ssh_connect(gate.port, "bob", other))
    await refused.wait_closed()
    assert "Too many sessions from your address" in refused.output()
    third = asyncssh.generate_private_key("ssh-ed25519")
    await lobby(gate, other, "bob", "127.0.0.2")
    full = await open_terminal(await ssh_connect(gate.port, "carol", third, "127.0.0.3"))
    await full.wait_closed()
    assert "The server is full, try again in a few minutes" in full.output()
    assert full.exit_status == 1
    assert len(gate.sessions) == 2


@pytest.mark.parametrize("per_worker", [1, 2])
async def test_a_session_that_needs_a_new_worker_reserves_for_it_too(ssh, key, per_worker):
    # 55 MB: a worker (10 MB) with a session (20 MB) fits; a second session fits beside
    # it in the same worker (50 MB), but not in a worker of its own (60 MB).
    limits = Limits(memory_mb=55, reserve_mb=20, worker_mb=10)
    gate = await ssh(limits=limits, measure_every=0, sessions_per_worker=per_worker)
    await lobby(gate, key)
    other = await open_terminal(
        await ssh_connect(gate.port, "bob", asyncssh.generate_private_key("ssh-ed25519"))
    )
    if per_worker == 2:
        await other.wait_text("Rooms")
        assert len({s.process.pid for s in gate.sessions}) == 1
    else:
        await other.wait_closed()
        assert "The server is full, try again in a few minutes" in other.output()
        assert len(gate.sessions) == 1


async def test_a_client_process_counts_against_the_ssh_clients_address(ssh, key):
    gate = await ssh(server_args={"dev": False, "max_per_address": 1})
    await lobby(gate, key, "alice", "127.0.0.2")
    identity = identity_of(gate, key)
    assert identity.conn is not None and identity.conn.address == "127.0.0.2"
    assert gate.server.connections_from("127.0.0.2") == 1
    # Loopback is not charged for it: a client from 127.0.0.1 still gets in.
    local = await Client.hello(gate.local_url(), "local")
    await local.close()
    # The SSH client's address is at the server's limit: a second session is refused.
    other = asyncssh.generate_private_key("ssh-ed25519")
    refused = await open_terminal(await ssh_connect(gate.port, "bob", other, "127.0.0.2"))
    await refused.wait_closed()
    assert "Too many connections from your address" in refused.output()


async def test_an_idle_session_is_closed(ssh, key):
    gate = await ssh(idle_timeout=1.0)
    term = await open_terminal(await ssh_connect(gate.port, "alice", key))
    await term.wait_closed()
    assert "without a key press" in term.output() and term.exit_status == 0
    assert not gate.sessions


async def test_killing_the_server_leaves_no_client_process_behind(tmp_path, key):
    """Even SIGKILL, which runs no cleanup: each client process exits on its lifeline's EOF,
    the zygote on its control socket's."""
    server = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "modernart.server.cli",
        "--dev",
        "--port=0",
        "--ssh-port=0",
        f"--data={tmp_path / 'data'}",
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    try:
        assert server.stdout is not None
        async with asyncio.timeout(WAIT):
            while not (line := (await server.stdout.readline()).decode()).startswith("SSH on"):
                assert line, "the server ended before SSH started"
        port = int(line.split()[3].rstrip(","))
        assert "host key SHA256:" in line
        term = await open_terminal(await ssh_connect(port, "alice", key))
        await term.wait_text("Rooms")
        clients = psutil.Process(server.pid).children(recursive=True)
        # The zygote and the session it forked (a fork runs the zygote's command line).
        assert len(clients) == 2
        assert all("terminal.zygote" in " ".join(p.cmdline()) for p in clients)
    finally:
        server.kill()
        await server.wait()
    await all_ended(clients)


async def test_an_ssh_flood_is_capped_and_the_game_server_carries_on(ssh, key):
    gate = await ssh(startup_limits=StartupLimits(per_address=2))  # 2 unauthenticated per address
    flood = [await asyncio.open_connection("127.0.0.1", gate.port) for _ in range(10)]
    try:
        await flood[-1][0].read()  # the last ones are cut at once (EOF), before any handshake
        assert gate.startups.by_address["127.0.0.1"] == 2
        await lobby(gate, key, "alice", "127.0.0.2")  # another address still plays
        player = await Client.hello(gate.local_url(), "ws-player")  # and so do WebSocket players
        await player.close()
    finally:
        for _, writer in flood:
            writer.close()


async def test_agent_forwarding_is_refused(ssh, key, tmp_path):
    gate = await ssh()
    conn = await asyncssh.connect(
        "127.0.0.1",
        gate.port,
        username="alice",
        client_keys=[key],
        known_hosts=None,
        config=None,
        agent_path=str(tmp_path / "no-agent.sock"),
        agent_forwarding=True,
    )
    term = await open_terminal(conn)
    await term.wait_text("Rooms")
    (session,) = gate.sessions
    assert session.chan is not None
    assert session.chan.get_agent_path() is None and session.keeper.conn.get_agent_path() is None
    assert session.chan.get_x11_display() is None


async def test_keys_identities_live_in_the_store_and_an_old_json_file_is_moved_there(
    ssh, key, tmp_path
):
    data = tmp_path / "data"
    first = await ssh()
    await lobby(first, key)
    token = first.identities.get(key.get_fingerprint())
    assert token and not (data / "ssh_identities.json").exists()
    await first.stop()
    # A server from before kept its keys in ssh_identities.json: they move into the store.
    old_key = asyncssh.generate_private_key("ssh-ed25519")
    old = await Client.hello(first.local_url(), "olga")
    old_token = old.token
    await old.close()
    (data / "ssh_identities.json").write_text(f'{{"{old_key.get_fingerprint()}": "{old_token}"}}')
    second = SshGate(first.server, SshSettings(port=0))
    await second.start()
    try:
        assert not (data / "ssh_identities.json").exists()
        assert second.identities.get(old_key.get_fingerprint()) == old_token
        assert second.identities.get(key.get_fingerprint()) == token
        term = await lobby(second, old_key, "olga")  # the old key is still its identity
        assert identity_of(second, old_key).name == "olga"
        await term.wait_text("lobby")
    finally:
        await second.stop()


async def test_a_second_login_lands_in_the_room_the_first_one_watched(ssh, key):
    gate = await ssh()
    host = await Client.hello(gate.local_url(), "host")
    await host.send("create", seats=3, name="Gallery")
    room = (await host.expect("joined"))["room"]
    first = await lobby(gate, key)
    await first.wait_text("Gallery")
    first.send("w")
    await first.wait(lambda: identity_of(gate, key).watching == room, "watching")
    second = await open_terminal(await ssh_connect(gate.port, "alice", key))
    await first.wait_closed()
    assert "signed in again" in first.output()
    hub = gate.server.hub

    def watching_again() -> bool:
        conn = identity_of(gate, key).conn
        return conn is not None and conn in hub.rooms[room].spectators

    await second.wait(watching_again, "the second session watching the room")
    await host.close()


async def test_an_amount_typed_over_in_one_burst_keeps_every_key(ssh, key):
    """Issue 28: backspaces, digits and Enter in one write (a fast typist, a paste, an SSH
    link that batches keys) all take effect, in order: the amount typed once, as soon as
    the screen asks for it, is the amount sent."""
    gate = await ssh()
    term = await lobby(gate, key)
    await term.wait_text("No rooms yet")
    term.send("c")
    await term.wait_text("Create a room")
    term.send("\x13")
    await term.wait_text("You host")
    term.send("bbb")
    await term.wait(lambda: term.text().count("(H)") + term.text().count("(R)") >= 3, "3 bots")
    term.send("s")
    keyboard = KeyboardPlayer(term, 0)
    typed: list[tuple[str, int]] = []  # the one decision typed in a burst
    dismissed = ""  # the screen a round's summary was closed on

    def game_of_key():
        room_id, _ = seat_of(gate, key)
        room = gate.server.hub.rooms.get(room_id) if room_id else None
        return None if room is None else room.game

    def amount_sent() -> bool:
        nonlocal dismissed
        game = game_of_key()
        if game is None:
            return False
        mine = [(a.get("type"), a.get("amount")) for a in game.actions if a.get("seat") == 0]
        if typed:
            # The burst's decision is sent, with the amount typed: a lost key would send
            # another amount, or nothing (an empty amount is refused, and the wait ends).
            # "Enter an amount" on the screen says nothing by itself: the quick player's
            # Enter for the card, typed again before the card went, may reach the entry.
            sent = [amount for kind, amount in mine if kind == typed[0][0]]
            assert sent in ([], [typed[0][1]]), f"the burst lost keys: {typed}, sent {sent}"
            if sent:
                return True
        if "Enter: continue" in term.text() and term.text() != dismissed:
            dismissed = term.text()
            term.send("\x1b")  # a round's summary over the table takes the keys: close it
            return False
        legal = game.legal(0) if 0 in game.to_act() else {}
        kind = next((k for k in ("sealed", "price") if k in legal), None)
        if kind is None:
            keyboard.step(game)  # the quick player's keys for every other decision
            return False
        low, high = legal[kind]
        label = {"sealed": "Secret bid", "price": "Price"}[kind]
        if not typed and f"{label} {low}–{high}:" in term.text():
            # The first such decision: no entry was on this screen before, so the one
            # shown is this decision's.
            typed.append((kind, min(high, low + 2)))
            term.send("\x7f" * 4 + str(typed[0][1]) + "\r")
        return False

    moves = lambda: len(getattr(game_of_key(), "actions", ()))  # noqa: E731
    await term.wait(amount_sent, "a sealed bid or a price typed in one burst", progress=moves)
