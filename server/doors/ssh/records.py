"""A player's finished games over SSH, with the tools they already have (issue 28).

- `ssh -p 2222 alice@host record ROOM > game.json`: that game's record (RECORD.md
  JSON) on stdout, exit 0; `record` alone lists your finished games; a refusal is a
  line on stderr and exit status 1.
- `scp -P 2222 alice@host:games/ROOM.json .` and `sftp`: a read-only SFTP view whose
  `games/` lists your finished games (legacy `scp -O` too, over the same view).

Who may have which record is server/rooms/records.py's rule, the `record` message's: only a
game that is over, a locked room's only to its players. The identity is the SSH key's;
a guest (no key) has none, so it sees no games of its own and may fetch only the records
of unlocked rooms, like any identity in the lobby. Nothing here reads or writes a file:
every path is virtual, and whatever would change something is refused.
"""

from __future__ import annotations

import contextlib
import errno
import os
import posixpath
import shlex
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import asyncssh
from asyncssh.stream import SSHServerStreamSession

from modernart.engine import dump_record
from modernart.server.doors.ssh.keys import KeyIdentities
from modernart.server.rooms.records import (
    FinishedGame,
    identity_of_token,
    own_games,
    visible_record,
)
from modernart.server.store.sqlite import Store
from modernart.server.wire.refusal import Refused

GAMES = "games"
SFTP_VERSION = 3
READ_ONLY = "read-only: these are the records of finished games"
DIR_MODE = 0o040555
FILE_MODE = 0o100444
CHANGES = asyncssh.FXF_WRITE | asyncssh.FXF_APPEND | asyncssh.FXF_CREAT | asyncssh.FXF_TRUNC


def wants_records(command: str | None, subsystem: str | None) -> bool:
    """Whether a session channel asks for the records rather than the game."""
    if subsystem is not None:
        return subsystem == "sftp"
    words = (command or "").split()
    return bool(words) and words[0] in ("record", "scp")


@dataclass
class Viewer:
    """Who asks: the identity of the SSH key (None: a guest, or a key never played)."""

    store: Store
    identity: str | None

    @classmethod
    def of_key(cls, identities: KeyIdentities, key: str | None) -> Viewer:
        """The viewer signed in with the key of that fingerprint (None: a guest)."""
        token = identities.get(key) if key else None
        return cls(identities.store, identity_of_token(identities.store, token))

    def record(self, room: str) -> bytes:
        """The record's JSON text, or `Refused`."""
        return dump_record(visible_record(self.store, self.identity, room)).encode()

    def games(self) -> list[FinishedGame]:
        return own_games(self.store, self.identity)


def download_hint(user: str, host: str, port: int) -> str:
    """How a player of this SSH door keeps a record, for the game to say when `s` is
    pressed (ROOM: the room): the exact command, with this door's port and user."""
    where = f"[{host}]" if ":" in host else host
    scp = shlex.quote(f"{user}@{where}:{GAMES}/ROOM.json")
    return f"run on your machine: scp -P {port} {scp} ."


# ---------------------------------------------------------------- `record ROOM`


def listing(games: list[FinishedGame]) -> str:
    """`record` alone: one line per finished game, newest first."""
    lines = [
        f"{g.room}  {time.strftime('%Y-%m-%d %H:%M', time.gmtime(g.finished))} UTC"
        f"  {g.game}  {g.outcome}"
        for g in games
    ]
    return "".join(line + "\n" for line in lines)


def record_session(viewer: Viewer) -> Callable[..., Any]:
    """The handler of an exec `record [ROOM]` (asyncssh's stream session factory)."""

    async def run(stdin: Any, stdout: Any, stderr: Any) -> None:
        chan = stdout.channel
        status = 1
        try:
            words = shlex.split(chan.get_command() or "")
        except ValueError:
            words = []
        if words == ["record"]:
            games = viewer.games()
            stdout.write(listing(games).encode())
            if not games:
                stderr.write(b"No finished games of yours yet.\n")
            status = 0
        elif len(words) == 2 and words[0] == "record":
            try:
                stdout.write(viewer.record(words[1]))
                status = 0
            except Refused as exc:
                stderr.write(f"record: {exc}\n".encode())
        else:
            stderr.write(b"usage: record [ROOM]  (the record of a finished game, as JSON)\n")
        chan.exit(status)

    return run


# ---------------------------------------------------------------- SFTP, read-only


@dataclass
class Blob:
    """An open record: its bytes, read from any offset."""

    data: bytes
    mtime: int

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        """What asyncssh asks of a file for its ranges extension: all data, no holes."""
        if whence == getattr(os, "SEEK_DATA", -1) and offset >= len(self.data):
            raise OSError(errno.ENXIO, "past the end")
        return len(self.data) if whence == getattr(os, "SEEK_HOLE", -1) else offset


def attrs(mode: int, size: int | None = 0, mtime: int | None = None) -> asyncssh.SFTPAttrs:
    kind = asyncssh.FILEXFER_TYPE_DIRECTORY if mode == DIR_MODE else asyncssh.FILEXFER_TYPE_REGULAR
    return asyncssh.SFTPAttrs(type=kind, size=size, permissions=mode, mtime=mtime, atime=mtime)


class RecordFiles(asyncssh.SFTPServer):
    """`/` holds `games/`, which holds `ROOM.json` for the viewer's finished games; any
    record the viewer may have opens by its name even if not listed (an older game)."""

    def __init__(self, chan: Any, viewer: Viewer) -> None:
        super().__init__(chan)  # no chroot: every method that could touch a file is ours
        self.viewer = viewer

    @staticmethod
    def _path(path: bytes) -> str:
        try:
            text = path.decode()
        except UnicodeDecodeError:
            raise asyncssh.SFTPNoSuchFile("no such file") from None
        return posixpath.normpath("/" + text).replace("//", "/")

    def _room(self, path: str) -> str:
        """The room of `/games/ROOM.json`, or SFTPNoSuchFile."""
        folder, name = posixpath.split(path)
        if folder != "/" + GAMES or not name.endswith(".json"):
            raise asyncssh.SFTPNoSuchFile("no such file")
        return name.removesuffix(".json")

    def _blob(self, path: str) -> Blob:
        try:
            data = self.viewer.record(self._room(path))
        except Refused as exc:
            if exc.code == "not_allowed":
                raise asyncssh.SFTPPermissionDenied(str(exc)) from None
            raise asyncssh.SFTPNoSuchFile(str(exc)) from None
        return Blob(data, int(time.time()))

    # reading ----------------------------------------------------------------

    def realpath(self, path: bytes) -> bytes:
        return self._path(path).encode()

    def stat(self, path: bytes) -> asyncssh.SFTPAttrs:
        where = self._path(path)
        if where in ("/", "/" + GAMES):
            return attrs(DIR_MODE)
        blob = self._blob(where)
        return attrs(FILE_MODE, len(blob.data), blob.mtime)

    lstat = stat

    async def scandir(self, path: bytes) -> AsyncIterator[asyncssh.SFTPName]:
        where = self._path(path)
        if where not in ("/", "/" + GAMES):
            raise asyncssh.SFTPNotADirectory("not a directory")
        for dot in (".", ".."):
            yield asyncssh.SFTPName(dot.encode(), attrs=attrs(DIR_MODE))
        if where == "/":
            yield self._name(GAMES, attrs(DIR_MODE))
            return
        # No sizes: making 50 records to measure them would hold up the game server's
        # loop at every `ls`; a file's own stat (on `get`) has its size.
        for game in self.viewer.games():
            yield self._name(f"{game.room}.json", attrs(FILE_MODE, None, int(game.finished)))

    def _name(self, name: str, found: asyncssh.SFTPAttrs) -> asyncssh.SFTPName:
        entry = asyncssh.SFTPName(name.encode(), attrs=found)
        self.format_longname(entry)
        return entry

    def format_user(self, uid: int | None) -> str:
        return "player"

    format_group = format_user

    def open(self, path: bytes, pflags: int, attrs: asyncssh.SFTPAttrs) -> Blob:
        if pflags & CHANGES:
            raise asyncssh.SFTPPermissionDenied(READ_ONLY)
        where = self._path(path)
        if where in ("/", "/" + GAMES):
            raise asyncssh.SFTPFileIsADirectory("a directory")
        return self._blob(where)

    def open56(self, *args: Any) -> Any:
        raise asyncssh.SFTPOpUnsupported("SFTP version 3 only")

    def read(self, file_obj: object, offset: int, size: int) -> bytes:
        assert isinstance(file_obj, Blob)
        return file_obj.data[offset : offset + size]

    def fstat(self, file_obj: object) -> asyncssh.SFTPAttrs:
        assert isinstance(file_obj, Blob)
        return attrs(FILE_MODE, len(file_obj.data), file_obj.mtime)

    def close(self, file_obj: object) -> None:
        return None

    def exit(self) -> None:
        """The client is done: an exit status, which OpenSSH's scp waits for (without
        one it fails the copy)."""
        with contextlib.suppress(OSError):
            self.channel.exit(0)

    def readlink(self, path: bytes) -> bytes:
        raise asyncssh.SFTPNoSuchFile("no links here")

    # changing: refused, every one -------------------------------------------

    def _refuse(self, *args: Any) -> Any:
        raise asyncssh.SFTPPermissionDenied(READ_ONLY)

    write = setstat = lsetstat = fsetstat = remove = mkdir = rmdir = _refuse
    rename = posix_rename = symlink = link = lock = unlock = fsync = _refuse

    def statvfs(self, path: bytes) -> Any:
        raise asyncssh.SFTPOpUnsupported("no file system here")

    def fstatvfs(self, file_obj: object) -> Any:
        raise asyncssh.SFTPOpUnsupported("no file system here")


def records_session(identities: KeyIdentities, key: str | None) -> SSHServerStreamSession:  # type: ignore[type-arg]
    """The asyncssh session that serves `record`, SFTP and legacy scp to the player of
    the key with that fingerprint (None: a guest)."""
    viewer = Viewer.of_key(identities, key)
    return SSHServerStreamSession(
        record_session(viewer), lambda chan: RecordFiles(chan, viewer), SFTP_VERSION, True
    )
