"""A player's finished games over SSH (issue 28): `record ROOM` on an exec channel, and a
read-only SFTP view `games/ROOM.json`, through real asyncssh clients and real OpenSSH
`ssh` and `scp`. Only games that are over; a locked room's only to its players."""

from __future__ import annotations

import asyncio
import json
import pathlib
import shutil

import asyncssh
import pytest

from modernart.engine.records import load_record, replay

from .finishedgames import Games, played
from .sshterm import open_terminal, ssh_connect

SECRET = "1234"


def keyed(gate, key: asyncssh.SSHKey, token: str) -> None:
    """The key signs in as the identity of `token` (as a first session or a claim makes it)."""
    gate.identities.put(key.get_fingerprint(), token)


async def test_record_prints_a_game_that_is_over_and_refuses_the_rest(ssh, key):
    gate = await ssh(guests=True)
    async with played(f"ws://127.0.0.1:{gate.server.port}/") as games:
        stranger = asyncssh.generate_private_key("ssh-ed25519")
        keyed(gate, key, games.ann.token)
        keyed(gate, stranger, games.cy.token)
        ann = await ssh_connect(gate.port, "alice", key)

        for room in (games.public, games.locked):  # Ann played both
            got = await ann.run(f"record {room}")
            assert got.exit_status == 0 and got.stderr == ""
            record = load_record(str(got.stdout))
            assert replay(record)["finished"] and record.extra["room"] == room
        listed = await ann.run("record")
        assert listed.exit_status == 0
        assert [line.split()[0] for line in str(listed.stdout).splitlines()] == [
            games.public,
            games.locked,
        ]

        for command, why in [
            (f"record {games.running}", "once the game is over"),  # Bob's, running
            ("record nosuch", "no game 'nosuch'"),
            ("record ../../etc/passwd", "no game"),
            ("record a b", "usage: record"),
        ]:
            got = await ann.run(command)
            assert got.exit_status == 1 and got.stdout == "", command
            assert why in str(got.stderr), command

        cy = await ssh_connect(gate.port, "cy", stranger)
        got = await cy.run(f"record {games.locked}")
        assert got.exit_status == 1 and got.stdout == ""
        assert "locked: its record is its players'" in str(got.stderr)
        assert SECRET not in str(got.stderr)
        assert (await cy.run(f"record {games.public}")).exit_status == 0  # anyone's to see
        assert (await cy.run("record")).stdout == ""  # Cy played none

        guest = await ssh_connect(gate.port, "guest")
        assert (await guest.run(f"record {games.locked}")).exit_status == 1
        assert (await guest.run(f"record {games.public}")).exit_status == 0
        assert not gate.sessions  # no game session was started for any of these
        for conn in (ann, cy, guest):
            conn.close()


async def test_sftp_lists_your_finished_games_read_only(ssh, key, tmp_path):
    gate = await ssh()
    async with played(f"ws://127.0.0.1:{gate.server.port}/") as games:
        stranger = asyncssh.generate_private_key("ssh-ed25519")
        keyed(gate, key, games.ann.token)
        keyed(gate, stranger, games.cy.token)
        ann = await ssh_connect(gate.port, "alice", key)
        exec_text = str((await ann.run(f"record {games.public}")).stdout)
        async with ann.start_sftp_client() as sftp:
            assert await sftp.realpath(".") == "/"
            assert sorted(await sftp.listdir(".")) == [".", "..", "games"]
            assert sorted(await sftp.listdir("games")) == sorted(
                [".", "..", f"{games.public}.json", f"{games.locked}.json"]
            )
            path = f"games/{games.public}.json"
            assert (await sftp.stat(path)).size == len(exec_text.encode())
            await sftp.get(path, str(tmp_path / "got.json"))
            assert (tmp_path / "got.json").read_text(encoding="utf-8") == exec_text
            assert await sftp.exists(f"/games/{games.locked}.json")

            # Nothing changes anything, and nothing outside the view is there.
            (tmp_path / "up.json").write_text("{}", encoding="utf-8")
            attempts = [
                sftp.open(path, "w"),
                sftp.open(path, "a"),
                sftp.open("games/new.json", "w"),
                sftp.put(str(tmp_path / "up.json"), "games/up.json"),
                sftp.remove(path),
                sftp.rename(path, "games/other.json"),
                sftp.mkdir("games/more"),
                sftp.rmdir("games"),
                sftp.chmod(path, 0o666),
                sftp.symlink(path, "games/link.json"),
            ]
            for attempt in attempts:
                with pytest.raises(asyncssh.SFTPPermissionDenied):
                    await attempt
            with pytest.raises(asyncssh.SFTPPermissionDenied):  # running: not given
                await sftp.stat(f"games/{games.running}.json")
            for outside in ("../../etc/passwd", "/etc/passwd", "games/../../etc/passwd"):
                with pytest.raises(asyncssh.SFTPNoSuchFile):
                    await sftp.get(outside, str(tmp_path / "x"))
            assert sorted(await sftp.listdir("games")) == sorted(
                [".", "..", f"{games.public}.json", f"{games.locked}.json"]
            )

        cy = await ssh_connect(gate.port, "cy", stranger)
        async with cy.start_sftp_client() as sftp:
            assert sorted(await sftp.listdir("games")) == [".", ".."]
            with pytest.raises(asyncssh.SFTPPermissionDenied):
                await sftp.get(f"games/{games.locked}.json", str(tmp_path / "theirs.json"))
        assert not (tmp_path / "theirs.json").exists() or not (tmp_path / "theirs.json").read_text()
        assert not gate.sessions
        for conn in (ann, cy):
            conn.close()


def openssh_args(gate, key_file: pathlib.Path) -> list[str]:
    return [
        "-i",
        str(key_file),
        "-o",
        "BatchMode=yes",
        "-o",
        "IdentitiesOnly=yes",
        "-o",
        "StrictHostKeyChecking=no",
        "-o",
        "UserKnownHostsFile=/dev/null",
        "-o",
        "LogLevel=ERROR",
        "-F",
        "/dev/null",
    ]


async def run(*argv: str) -> tuple[int, bytes, bytes]:
    proc = await asyncio.create_subprocess_exec(
        *argv, stdin=asyncio.subprocess.DEVNULL, stdout=-1, stderr=-1
    )
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode is not None
    return proc.returncode, out, err


@pytest.mark.skipif(not shutil.which("scp"), reason="OpenSSH's scp is not installed")
async def test_real_scp_and_ssh_bring_the_record_home(ssh, key, tmp_path):
    gate = await ssh()
    key_file = tmp_path / "id_ed25519"
    key.write_private_key(str(key_file))
    key_file.chmod(0o600)
    async with played(f"ws://127.0.0.1:{gate.server.port}/") as games:
        keyed(gate, key, games.ann.token)
        opts = openssh_args(gate, key_file)
        port = str(gate.port)
        expect = await check_record(games, gate, key)

        remote = f"alice@127.0.0.1:games/{games.public}.json"
        for flags in ([], ["-O"]):  # SFTP (OpenSSH's default), then the legacy protocol
            dest = tmp_path / f"scp{len(flags)}.json"
            code, _, err = await run("scp", *flags, "-P", port, *opts, remote, str(dest))
            assert code == 0, err.decode()[-2500:]
            assert dest.read_text(encoding="utf-8") == expect
            code, _, err = await run(
                "scp", *flags, "-P", port, *opts, str(dest), "alice@127.0.0.1:games/up.json"
            )
            assert code != 0  # read-only

        code, out, err = await run(
            "ssh", "-p", port, *opts, "alice@127.0.0.1", "record", games.public
        )
        assert code == 0 and out.decode() == expect
        code, out, err = await run(
            "ssh", "-p", port, *opts, "alice@127.0.0.1", "record", games.running
        )
        assert code == 1 and out == b"" and b"once the game is over" in err


async def check_record(games: Games, gate, key) -> str:
    """The public game's record as `record` prints it (checked: a finished game)."""
    conn = await ssh_connect(gate.port, "alice", key)
    text = str((await conn.run(f"record {games.public}")).stdout)
    conn.close()
    assert replay(load_record(text))["finished"]
    json.loads(text)
    return text


async def test_save_record_in_an_ssh_session_tells_the_scp_command_not_a_path(ssh, key):
    gate = await ssh()
    async with played(f"ws://127.0.0.1:{gate.server.port}/") as games:
        keyed(gate, key, games.ann.token)
        term = await open_terminal(await ssh_connect(gate.port, "alice", key))
        await term.wait_text("finished")  # the lobby: Bob's running game, then Ann's two
        term.send("\x1b[B")
        term.send("w")  # Ann's public game, over
        await term.wait_text("Save record")
        term.send("s")
        scp = f"scp -P {gate.port} alice@127.0.0.1:games/{games.public}.json ."
        await term.wait_text(scp)  # whole on one line of its dialog, its final `.` too
        assert "To keep this game's record, run on your machine:" in term.text()
        assert str(gate.server.data_dir) not in term.text() and "export" not in term.text()
