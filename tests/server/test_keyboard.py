"""A session's input on its way to the PTY (server/doors/terminal/keyboard.py, issue 33): pastes
cut at a bound whatever the reads, a rate, and back-pressure instead of dropped bytes."""

from __future__ import annotations

import contextlib
import itertools
import os
import tty

from hypothesis import given
from hypothesis import strategies as st

from modernart.server.doors.terminal.keyboard import (
    PASTE_END,
    PASTE_START,
    STEP,
    Bucket,
    InputLimits,
    Keyboard,
    PasteCutter,
    step,
)

from .waiting import eventually


def cut(chunks: list[bytes], limit: int = 16) -> bytes:
    cutter = PasteCutter(limit)
    return b"".join(cutter.feed(chunk) for chunk in chunks)


def splits(data: bytes, at: list[int]) -> list[bytes]:
    points = sorted({0, len(data), *(i % (len(data) + 1) for i in at)})
    return [data[a:b] for a, b in itertools.pairwise(points)]


STREAM = (
    b"ab\x1b[A"
    + PASTE_START
    + b"short paste"
    + PASTE_END
    + b"\x1b"
    + PASTE_START
    + b"a paste far longer than the limit"
    + PASTE_END
    + b"keys \x1b[20"  # an unfinished start marker's look-alike
    + b"0~"
)
EXPECTED = (
    b"ab\x1b[A"
    + PASTE_START
    + b"short paste"
    + PASTE_END
    + b"\x1b"
    + PASTE_START
    + b"a paste far long"  # 16 bytes, then the door's own end; the rest dropped
    + PASTE_END
    + b"keys \x1b[200~"
)


@given(st.lists(st.integers(min_value=0, max_value=len(STREAM)), max_size=12))
def test_pastes_are_cut_the_same_however_the_reads_split_them(at):
    assert cut(splits(STREAM, at)) == EXPECTED


def test_a_cut_paste_drops_until_its_own_end_then_keys_pass():
    cutter = PasteCutter(8)
    assert cutter.feed(PASTE_START + b"0123456789") == PASTE_START + b"01234567" + PASTE_END
    assert cutter.feed(b"x" * 100_000 + b"\x1b[20") == b""  # unterminated: nothing more
    assert cutter.dropping and cutter.cuts == 1
    assert cutter.feed(b"1~\x11") == b"\x11"  # its end, then Ctrl+Q
    assert not cutter.pasting


def test_a_paste_at_the_limit_passes_whole():
    paste = PASTE_START + b"x" * 100 + PASTE_END
    assert cut([paste], limit=len(paste)) == paste


def test_the_bucket_holds_past_the_burst_until_the_rate_refills_it():
    now = [0.0]
    bucket = Bucket(rate=100, burst=1000, clock=lambda: now[0])
    bucket.take(1000)
    assert bucket.wait() == 0
    bucket.take(500)  # one read may overdraw it
    assert bucket.wait() == 5.0
    now[0] = 5.0
    assert bucket.wait() == 0


async def test_what_the_pty_cannot_take_waits_and_holds_the_transport():
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    keys = Keyboard(InputLimits(max_paste=1 << 30, rate=1 << 30, burst=1 << 30))
    keys.attach(master)
    data = bytes(range(256)) * 1024  # 256 KiB: more than a PTY holds
    keys.feed(PASTE_START + data + PASTE_END)
    assert keys.full and keys.pending  # the transport waits
    got = bytearray()

    def read_all() -> bool:
        with contextlib.suppress(BlockingIOError):
            got.extend(os.read(slave, 65536))
        return not keys.full

    os.set_blocking(slave, False)
    await eventually(read_all, "the PTY drained")
    await eventually(lambda: read_all() and len(got) == len(data) + 12, "every byte")
    assert bytes(got) == PASTE_START + data + PASTE_END
    keys.close()
    os.close(master)
    os.close(slave)


async def test_past_the_rate_the_input_waits_and_the_transport_with_it():
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    now = [0.0]
    keys = Keyboard(InputLimits(rate=1000, burst=2000), clock=lambda: now[0])
    keys.attach(master)
    keys.feed(b"k" * 1500)
    keys.feed(b"k" * 1500)  # a read is handled whole: the bucket is overdrawn
    assert not keys.full and keys.written == 3000
    keys.feed(b"k" * 100)
    assert keys.full and keys.written == 3000  # it waits for the refill
    now[0] = 1.0  # the refill; the door looks again when its timer fires
    await eventually(lambda: not keys.full, "room again")
    assert keys.written == 3100
    keys.close()
    os.close(master)
    os.close(slave)


async def test_what_the_door_reads_is_rated_too_a_dropped_paste_included():
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    now = [0.0]
    limits = InputLimits(max_paste=10, read_rate=1000, read_burst=5000)
    keys = Keyboard(limits, clock=lambda: now[0])
    keys.attach(master)
    keys.feed(PASTE_START + b"x" * 6000)  # an unterminated paste: its app gets 10 bytes
    assert keys.written == len(PASTE_START) + 10 + len(PASTE_END)
    keys.feed(b"x" * 1000)  # but the door has read 6 KB: the rest waits
    assert keys.full and keys.inbox
    now[0] = 2.0
    await eventually(lambda: not keys.full, "room again")
    keys.close()
    os.close(master)
    os.close(slave)


def test_a_piece_of_the_input_does_not_end_at_an_escape_sequence_start():
    inbox = bytearray(b"k" * (STEP - 3) + b"\x1b[A" + b"k" * 10)
    assert step(inbox) == b"k" * (STEP - 3)
    assert step(bytearray(b"k" * (STEP + 5))) == b"k" * STEP
