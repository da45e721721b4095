"""What a player types, over the SSH door and the browser door (issue 33, items 2, 3, 5):
a character split between reads arrives, a long paste arrives whole and leaves the keys
working, an unterminated paste of megabytes is cut and leaves its worker's memory alone.

A page's frames carry text, whole characters but for a surrogate pair's halves; a
character split at any byte reaches the app's PTY only over SSH (the same path on from
the door)."""

from __future__ import annotations

import fcntl
import json
import os
import pathlib
import struct
import termios
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import psutil
import pytest

from modernart.server.doors.ssh.server import SshGate, SshSettings
from modernart.server.doors.terminal import TerminalSession
from modernart.server.doors.terminal import session as session_module
from modernart.server.doors.terminal.keyboard import (
    PASTE_END,
    PASTE_START,
    STEP,
    InputLimits,
    Keyboard,
)
from modernart.server.doors.web.gate import WebGate, WebSettings
from modernart.server.wire.app import Server

from .pageclient import PageClient
from .sshterm import ScreenWaits, Terminal, open_terminal, ssh_connect
from .waiting import eventually

CTRL_Q = "\x11"
TIOCGPTN = 0x80045430  # the number of a PTY master's /dev/pts slave (Linux)
MB = 1 << 20
WINDOW = 2 * MB  # asyncssh's channel window


@pytest.fixture
async def doors(tmp_path: pathlib.Path) -> AsyncIterator[tuple[SshGate, WebGate]]:
    """A dev server with both doors (guests on SSH) on one set of terminal sessions."""
    server = Server(tmp_path / "data", port=0, dev=True)
    await server.start()
    ssh = SshGate(server, SshSettings(port=0, guests=True))
    await ssh.start()
    web = WebGate(server, WebSettings(port=0), ssh.terminals)
    await web.start()
    yield ssh, web
    await web.stop()
    await ssh.stop()
    await server.stop()


class Player:
    """One session over either door: its screen, its keys, its session on the server."""

    def __init__(self, screen: ScreenWaits, send: Callable[[bytes], Awaitable[None]]) -> None:
        self.screen = screen
        self._send = send
        self.session: TerminalSession | None = None

    async def send(self, keys: str | bytes) -> None:
        await self._send(keys.encode() if isinstance(keys, str) else keys)

    async def name_dialog(self) -> None:
        """The lobby's name box (n), its current name selected: typing replaces it."""
        await self.send("n")
        await self.screen.wait_text("Your name")


async def player(door: str, ssh: SshGate, web: WebGate) -> Player:
    screen: Any
    if door == "ssh":
        screen = await open_terminal(await ssh_connect(ssh.port, "alice"))

        async def send(data: bytes) -> None:
            screen.send(data)
            await eventually(lambda: screen.chan.get_write_buffer_size() == 0, "sent", 60)

    else:
        screen = await PageClient.open(web.port)

        async def send(data: bytes) -> None:  # as page.js: text frames of 8192 characters
            text = data.decode()
            for start in range(0, len(text), 8192):
                await screen.ws.send(json.dumps(["stdin", text[start : start + 8192]]))

    await screen.wait(
        lambda: "Rooms" in screen.text() and "Help" in screen.screen.display[-1], "the lobby"
    )
    you = Player(screen, send)
    (you.session,) = ssh.terminals.sessions
    return you


def unread(session: TerminalSession) -> Callable[[], int]:
    """How many bytes wait in the session's PTY for its app to read them (its slave is
    opened only to ask: a slave left open would keep the PTY from closing)."""
    (number,) = struct.unpack("I", fcntl.ioctl(session._master, TIOCGPTN, b"\0" * 4))

    def count() -> int:
        slave = os.open(f"/dev/pts/{number}", os.O_RDWR | os.O_NOCTTY)
        try:
            return struct.unpack("i", fcntl.ioctl(slave, termios.FIONREAD, b"\0" * 4))[0]
        finally:
            os.close(slave)

    return count


async def quits(you: Player) -> None:
    """Ctrl+Q reaches the app: in the lobby it quits, and the session ends."""
    await you.send(CTRL_Q)
    await you.screen.wait_closed()


def no_traceback(capfd: pytest.CaptureFixture[str]) -> None:
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err


# ------------------------------------------------------- 3: a character split


async def test_a_character_split_at_every_byte_over_ssh_arrives(doors, capfd):
    ssh, web = doors
    you = await player("ssh", ssh, web)
    await you.name_dialog()
    session = you.session
    assert session is not None
    waiting = unread(session)
    for character in "é日𠀋":  # 2, 3 and 4 bytes
        for byte in character.encode():
            sent = session.keys.written + 1
            await you.send(bytes([byte]))  # alone: the app reads it alone
            await eventually(lambda s=sent: session.keys.written == s and waiting() == 0)
    await you.screen.wait_text("é日𠀋")
    await quits(you)
    no_traceback(capfd)


async def test_a_surrogate_pair_split_between_page_frames_arrives(doors, capfd):
    ssh, web = doors
    you = await player("page", ssh, web)
    await you.name_dialog()
    page = you.screen
    assert isinstance(page, PageClient)
    for half in ("\ud840", "\udc0b", "日"):  # 𠀋 in two frames, then a whole character
        await page.ws.send(json.dumps(["stdin", half]))
    await page.wait_text("𠀋日")
    await quits(you)
    no_traceback(capfd)


# ------------------------------------------------------------ 5: a long paste


@pytest.mark.parametrize("door", ["ssh", "page"])
async def test_a_60_kib_paste_arrives_whole_and_keys_still_work(doors, door):
    you = await player(door, *doors)
    await you.name_dialog()
    session = you.session
    assert session is not None
    before = session.keys.written
    paste = PASTE_START + b"Zed\n" + b"x" * (60 * 1024) + PASTE_END
    await you.send(paste)
    await you.screen.wait_text("Zed")  # its end arrived: the app has the paste
    await eventually(lambda: session.keys.written - before == len(paste), "every byte")
    assert session.keys.cutter.cuts == 0
    await quits(you)


# ------------------------------------------------- 2: an unterminated paste


@pytest.mark.parametrize("door", ["ssh", "page"])
async def test_an_unterminated_paste_of_megabytes_is_cut_and_the_worker_stays_small(doors, door):
    you = await player(door, *doors)
    await you.name_dialog()
    session = you.session
    assert session is not None and session.pid is not None
    worker = psutil.Process(session.pid)
    before = worker.memory_info().rss
    await you.send(PASTE_START + b"Zed\n")
    for _ in range(8):
        await you.send(b"x" * MB)  # and never the paste's end
    waiting = unread(session)
    await eventually(lambda: not session.keys.pending and not waiting(), "all read", 120)
    grown = worker.memory_info().rss - before
    assert grown < 32 * MB, f"the worker grew by {grown / MB:.0f} MB"
    assert session.keys.cutter.dropping
    await you.screen.wait_text("Zed")  # the door ended the paste at its limit
    assert session.keys.written < 100 * 1024  # the limit, not the 8 MB
    await you.send(PASTE_END)  # the terminal's own end, late: the keys work again
    await quits(you)


# ------------------------------------------- 2: a flood read at the door's rate


async def test_a_flood_over_ssh_waits_in_the_client_not_in_the_server(doors, monkeypatch):
    # asyncssh reopens its whole window at the first packet it delivers after a pause:
    # a door that paused again at once let a window more into the server at each resume.
    limits = InputLimits(read_rate=MB, read_burst=MB)
    monkeypatch.setattr(session_module, "Keyboard", lambda: Keyboard(limits))
    you = await player("ssh", *doors)
    session = you.session
    assert session is not None
    screen = you.screen
    assert isinstance(screen, Terminal) and screen.chan is not None
    flood = 40 * MB  # a paste never ended: dropped past 64 KiB, read at 1 MB/s
    screen.chan.write(PASTE_START + b"x" * (flood - len(PASTE_START)))

    def in_flight() -> int:  # sent by the client, not handled by the server yet
        assert screen.chan is not None
        return flood - screen.chan.get_write_buffer_size() - session.keys.read

    await eventually(lambda: session.keys.read >= 6 * MB, "6 MB read", 60)
    assert in_flight() <= 3 * WINDOW + STEP  # the network's, asyncssh's, the inbox
