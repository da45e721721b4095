"""The SSH banner (issue 28, play-tests 2026-12-03 night #7): `scp` and `ssh … record`
printed it every time, naming only Modern Art. It names the three games and is sent
only to a user name and address that have not signed in with a key here yet. Real
asyncssh clients, and real OpenSSH `ssh`, on 127.0.0.1."""

from __future__ import annotations

import asyncio
import pathlib
import shutil

import asyncssh
import pytest

from modernart.server.doors.ssh.banner import KeySignIns

from .sshterm import ssh_connect
from .test_ssh_records import openssh_args

BANNER = "Modern Art, Serengeti and Art Society over SSH: your SSH key is your player identity."


class Listening(asyncssh.SSHClient):
    """A client that keeps the banner it is sent."""

    def __init__(self) -> None:
        self.banner = ""

    def auth_banner_received(self, msg: str, lang: str) -> None:
        self.banner += msg


async def banner_for(port: int, user: str, key: asyncssh.SSHKey, address: str) -> str:
    """The banner a key's sign-in as `user` from `address` is sent."""
    client = Listening()
    conn = await asyncssh.connect(
        "127.0.0.1",
        port,
        username=user,
        client_keys=[key],
        known_hosts=None,
        agent_path=None,
        config=None,
        password=None,
        kbdint_auth=False,
        client_factory=lambda: client,
        local_addr=(address, 0),
    )
    conn.close()
    await conn.wait_closed()
    return client.banner


async def test_the_banner_names_every_game_and_goes_until_a_key_signed_in(ssh, key):
    gate = await ssh()
    assert BANNER in await banner_for(gate.port, "alice", key, "127.0.0.2")
    assert await banner_for(gate.port, "alice", key, "127.0.0.2") == ""
    # Another place, another name: not known to have a key yet.
    assert BANNER in await banner_for(gate.port, "alice", key, "127.0.0.3")
    assert BANNER in await banner_for(gate.port, "bob", key, "127.0.0.2")
    # A guest's sign-in proves no key: the guest's next connection is told again.
    guests = await ssh(guests=True)
    (await ssh_connect(guests.port, "eve", None, "127.0.0.2")).close()
    assert BANNER in await banner_for(guests.port, "eve", key, "127.0.0.2")


@pytest.mark.skipif(not shutil.which("ssh"), reason="OpenSSH's ssh is not installed")
async def test_real_ssh_record_prints_the_banner_only_before_the_first_key_sign_in(
    ssh, key, tmp_path: pathlib.Path
):
    gate = await ssh()
    key_file = tmp_path / "id_ed25519"
    key.write_private_key(str(key_file))
    key_file.chmod(0o600)
    # OpenSSH's default LogLevel, INFO, prints banners (the other tests ask for ERROR).
    opts = [o.replace("LogLevel=ERROR", "LogLevel=INFO") for o in openssh_args(gate, key_file)]
    errs = []
    for _ in range(2):
        proc = await asyncio.create_subprocess_exec(
            "ssh", "-p", str(gate.port), *opts, "alice@127.0.0.1", "record",
            stdin=asyncio.subprocess.DEVNULL, stdout=-1, stderr=-1,
        )  # fmt: skip
        _, err = await asyncio.wait_for(proc.communicate(), 60)
        assert proc.returncode == 0, err.decode()
        errs.append(err.decode())
    assert BANNER in errs[0]
    assert "over SSH" not in errs[1]


def test_the_key_sign_ins_remembered_are_bounded():
    """Many keys signing in (any key may play) cannot grow the memory: the oldest go."""
    seen = KeySignIns(kept=3)
    for i in range(5):
        seen.add(f"p{i}", "127.0.0.2")
    seen.add("p2", "127.0.0.2")  # seen again: the newest
    seen.add("p5", "127.0.0.2")
    kept = [name for name in ("p0", "p1", "p2", "p3", "p4", "p5") if (name, "127.0.0.2") in seen]
    assert kept == ["p2", "p4", "p5"]
