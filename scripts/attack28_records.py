"""The attacks of issue 28 on the records' doors, run by scripts/attack.py like its own
(the server has SSH with guests and the browser door on free ports).

- "28.1 records escape": a guest (no key: no games of its own) tries every way out of
  the read-only SFTP view and the `record` command: paths to the data directory, the
  host key, /etc/passwd and /proc; writes, renames, links; `record` of a running game,
  of a stranger's locked finished game, and of the database; the browser's download
  without a cookie. It counts what it got that it may not have ("leaked": must be 0)
  and what it was rightly given (the record of an unlocked finished game).
- "28.2 records flood": 8 guests fetch a finished game's record over SFTP and
  `record` as fast as they can, and a socket sweeps `/record/ROOM.json` guesses without
  a cookie: what it costs the healthy game (attack.py times it).

Against a server before issue 28 (`--server-src` of an older tree) every SFTP and
`record` request is refused, so both attacks get nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections import Counter
from typing import Any

import asyncssh
import attack_ssh
import msgpack
from attack33_web import ask, client, finished_table, play, until, web_port

SSH_PORT = 0  # set by attack.py in the attack's process
WEB_PORT = 0

ESCAPES = [
    "/etc/passwd",
    "../../../../etc/passwd",
    "games/../../../etc/passwd",
    "/proc/self/environ",
    "../modernart.sqlite3",
    "games/../modernart.sqlite3",
    "../ssh_host_ed25519_key",
    "games/../../ssh_host_ed25519_key",
    "games/%2e%2e/modernart.sqlite3",
]


async def guest() -> asyncssh.SSHClientConnection:
    attack_ssh.SSH_PORT = SSH_PORT
    return await attack_ssh.guest("127.0.0.28", "mallory")


async def locked_finished(url: str) -> str:
    """Two players' locked game against a bot, played to its end; its room."""
    suffix = f"{time.monotonic_ns() % 10**6}"
    a = await client(url, "10.28.0.1", f"Locka{suffix}")
    b = await client(url, "10.28.0.2", f"Lockb{suffix}")
    options = {"shout_window_ms": 100, "turn_timeout_s": 0, "takeover_s": 0}
    await a.send(
        msgpack.packb({"t": "create", "seats": 3, "password": "s3cret", "options": options})
    )
    room = (await until(a, lambda m: m["t"] == "joined"))["room"]
    await b.send(msgpack.packb({"t": "join", "room": room, "password": "s3cret"}))
    await until(b, lambda m: m["t"] == "joined")
    await a.send(msgpack.packb({"t": "add_bot", "level": "random"}))
    await a.send(msgpack.packb({"t": "start"}))
    await asyncio.gather(play(a, 0), play(b, 1))
    for ws in (a, b):
        await ws.close()
    return room


async def running_room(url: str) -> str | None:
    """A room whose game is running (the healthy game's)."""
    ws = await client(url, "10.28.0.3", f"Looker{time.monotonic_ns() % 10**6}")
    await ws.send(msgpack.packb({"t": "rooms", "status": "playing"}))
    rooms = await until(ws, lambda m: m["t"] == "rooms")
    await ws.close()
    return next((r["id"] for r in rooms["rooms"] if r.get("status") == "playing"), None)


async def escape(url: str, end: float) -> dict[str, Any]:
    players, public = await finished_table(url)
    for ws in players:
        await ws.close()
    locked = await locked_finished(url)
    running = await running_room(url) or "nosuch"
    got: Counter[str] = Counter()
    conn = await guest()
    async with conn.start_sftp_client() as sftp:
        got["listed games (a guest has none)"] = len(await sftp.listdir("games")) - 2
        for path in [*ESCAPES, f"games/{locked}.json", f"games/{running}.json"]:
            try:
                async with sftp.open(path, "rb") as f:
                    await f.read()
                got["leaked"] += 1
            except asyncssh.SFTPError as exc:
                got[f"refused: {type(exc).__name__}"] += 1
        changes = [
            sftp.open("games/x.json", "w"),
            sftp.remove(f"games/{public}.json"),
            sftp.rename(f"games/{public}.json", "games/y.json"),
            sftp.mkdir("games/z"),
            sftp.symlink("/etc/passwd", "games/p.json"),
            sftp.chmod(f"games/{public}.json", 0o777),
        ]
        for change in changes:
            try:
                await change
                got["leaked"] += 1
            except asyncssh.SFTPError as exc:
                got[f"refused: {type(exc).__name__}"] += 1
        async with sftp.open(f"games/{public}.json", "rb") as f:
            got["rightly given (bytes)"] = len(await f.read())
    for room in (locked, running, "../modernart.sqlite3", "$(id)"):
        result = await conn.run(f"record '{room}'")
        got["leaked" if result.exit_status == 0 else "record refused"] += 1
    conn.close()
    port = web_port() or WEB_PORT
    if port:
        for room in (public, locked):
            request = f"GET /record/{room}.json HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"
            status = await ask(port, request.encode())
            got["leaked" if status == 200 else f"web without cookie: {status}"] += 1
    got.setdefault("leaked", 0)
    return dict(got)


async def flood(url: str, end: float) -> dict[str, Any]:
    players, public = await finished_table(url)
    for ws in players:
        await ws.close()
    counts: Counter[str] = Counter()

    async def fetcher(i: int) -> None:
        with contextlib.suppress(OSError, asyncssh.Error):
            conn = await guest()
            async with conn.start_sftp_client() as sftp:
                while time.monotonic() < end:
                    async with sftp.open(f"games/{public}.json", "rb") as f:
                        counts["sftp bytes"] += len(await f.read())
                    counts["sftp reads"] += 1
                    result = await conn.run(f"record {public}")
                    counts["record ok" if result.exit_status == 0 else "record refused"] += 1
            conn.close()

    async def sweeper() -> None:
        port = web_port() or WEB_PORT
        while port and time.monotonic() < end:
            room = secrets.token_hex(4)
            request = f"GET /record/{room}.json HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"
            counts[f"web guesses: {await ask(port, request.encode())}"] += 1

    started = time.monotonic()
    await asyncio.gather(*(fetcher(i) for i in range(8)), sweeper())
    seconds = time.monotonic() - started
    return dict(counts) | {"reads per s": round(counts["sftp reads"] / seconds, 1)}


ATTACKS = {
    "28.1 records escape": escape,
    "28.2 records flood": flood,
}
