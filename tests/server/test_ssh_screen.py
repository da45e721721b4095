"""ScreenRelay: the SSH client's screen equals the client process's, sent as changes only."""

from __future__ import annotations

import pyte
from hypothesis import example, given, settings
from hypothesis import strategies as st

from modernart.server.terminal.screen import ScreenRelay

COLS, ROWS = 12, 5
ALT_ON = b"\x1b[?1049h"
PIECES = [
    b"ab",
    b"xyz ",
    "─│".encode(),
    "日本".encode(),  # wide characters
    b"\r\n",
    b"\n",
    b"\x08",
    b"\x1b[0m",
    b"\x1b[1m",
    b"\x1b[2m",
    b"\x1b[22m",
    b"\x1b[7m",
    b"\x1b[31m",
    b"\x1b[94;49m",
    b"\x1b[44m",
    b"\x1b[38;5;123m",
    b"\x1b[48;2;1;2;3m",
    b"\x1b[H",
    b"\x1b[2;5H",
    b"\x1b[5;12H",
    b"\x1b[K",
    b"\x1b[1K",
    b"\x1b[2J",
    b"\x1b[J",
    b"\x1b[2A",
    b"\x1b[3C",
    b"\x1b7",
    b"\x1b8",
    b"\x1bM",
    b"\x1b[?25l",
    b"\x1b[?25h",
    b"\x1b[?2026h",
    b"\x1b[?2026l",
]


def cells(screen: pyte.Screen) -> list[list[tuple[object, ...]]]:
    """Every cell as pyte's Char fields (data and rendition)."""
    return [[normal(screen.buffer[y][x]) for x in range(COLS)] for y in range(ROWS)]


def normal(cell: tuple[object, ...]) -> tuple[object, ...]:
    """pyte leaves "" where a wide character's right half was overwritten: a blank."""
    return (cell[0] or " ", *cell[1:9])


def shown(data: bytes) -> pyte.Screen:
    screen = pyte.Screen(COLS, ROWS)
    pyte.ByteStream(screen).feed(data)
    return screen


@settings(max_examples=300, deadline=None)
@example(pieces=["日本".encode(), b"\x08", b"ab"], cuts=[])  # a wide character's half overwritten
@given(
    st.lists(st.sampled_from(PIECES), max_size=60),
    st.lists(st.tuples(st.integers(1, 7), st.booleans()), max_size=40),
)
def test_the_client_sees_the_processs_screen_whatever_the_frames(pieces, cuts):
    raw = ALT_ON + b"".join(pieces)
    relay = ScreenRelay(COLS, ROWS)
    sent, i = bytearray(), 0
    for cut, frame in cuts:  # chunks of any size, a frame sent after some of them
        relay.feed(raw[i : i + cut])
        i += cut
        if frame:
            sent += relay.take()
    relay.feed(raw[i:])
    sent += relay.take()
    reference, client = shown(raw), shown(bytes(sent))
    assert cells(client) == cells(reference)
    assert client.cursor.hidden == reference.cursor.hidden
    if not reference.cursor.hidden:  # (a cursor past the last column cannot be placed there)
        where = (min(reference.cursor.x, COLS - 1), reference.cursor.y)
        assert (min(client.cursor.x, COLS - 1), client.cursor.y) == where


def test_a_repaint_of_the_same_content_sends_nothing():
    relay = ScreenRelay(COLS, ROWS)
    frame = b"\x1b[?25l\x1b[1;1H\x1b[0m\x1b[90;49m\xe2\x94\x80\xe2\x94\x80\x1b[0mhello"
    relay.feed(ALT_ON + frame)
    first = relay.take()
    assert b"hello" in first
    relay.feed(frame * 5)
    assert relay.take() == b""
    relay.feed(frame.replace(b"hello", b"hellO"))
    change = relay.take()
    assert b"O" in change and b"hell" not in change


def test_modes_and_queries_pass_through_in_order_and_the_main_screen_is_left_alone():
    relay = ScreenRelay(COLS, ROWS)
    relay.feed(b"before\x1b[?1049h\x1b[?1000hX\x1b[?2004h")
    out = relay.take()
    assert out.startswith(b"before\x1b[?1049h")
    assert out.index(b"\x1b[?1000h") < out.index(b"X") < out.index(b"\x1b[?2004h")
    relay.feed(b"Y\x1b[?1049lGoodbye\x1b[31m")
    out = relay.take()
    assert out.index(b"Y") < out.index(b"\x1b[?1049l")
    assert out.endswith(b"\x1b[?1049lGoodbye\x1b[31m")  # outside: unchanged


def test_dim_text_stays_dim():
    relay = ScreenRelay(COLS, ROWS)
    relay.feed(ALT_ON + b"\x1b[2mdim\x1b[22m no")
    out = relay.take()
    assert b"\x1b[0;2mdim" in out and b"\x1b[0mno" in out


def test_a_resize_redraws_everything():
    relay = ScreenRelay(COLS, ROWS)
    relay.feed(ALT_ON + b"abc")
    relay.take()
    relay.resize(20, 8)
    out = relay.take()
    assert b"\x1b[2J" in out and b"abc" in out
