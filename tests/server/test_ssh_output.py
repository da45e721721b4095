"""SgrFilter: the SSH client's screen is the same with and without it, in fewer bytes."""

from __future__ import annotations

import pyte
from hypothesis import given, settings
from hypothesis import strategies as st

from modernart.server.terminal.output import SgrFilter

COLS, ROWS = 20, 6
PIECES = [
    b"ab",
    "─│╭".encode(),
    b" ",
    b"\r\n",
    b"\x1b[0m",
    b"\x1b[m",
    b"\x1b[90;49m",
    b"\x1b[1m",
    b"\x1b[22m",
    b"\x1b[3m",
    b"\x1b[23m",
    b"\x1b[4m",
    b"\x1b[24m",
    b"\x1b[7m",
    b"\x1b[27m",
    b"\x1b[9m",
    b"\x1b[29m",
    b"\x1b[5m",
    b"\x1b[25m",
    b"\x1b[31m",
    b"\x1b[39m",
    b"\x1b[44m",
    b"\x1b[49m",
    b"\x1b[0;1;31m",
    b"\x1b[38;5;123m",
    b"\x1b[48;2;1;2;3m",
    b"\x1b[38;2;0;0;0m",
    b"\x1b[21m",
    b"\x1b[01;31m",
    b"\x1b[0;38;5;0m",
    b"\x1b[;4m",
    b"\x1b[H",
    b"\x1b[3;5H",
    b"\x1b[K",
    b"\x1b[2J",
    b"\x1b7",
    b"\x1b8",
    b"\x1b[?25l",
    b"\x1b[?1049h",
    b"\x1b[?1049l",
    b"\x1b]0;title\x07",
]


def screen_of(data: bytes) -> tuple[list[list[object]], object]:
    screen = pyte.Screen(COLS, ROWS)
    pyte.ByteStream(screen).feed(data)
    cells = [[screen.buffer[y][x] for x in range(COLS)] for y in range(ROWS)]
    return cells, screen.cursor.attrs


def filtered(chunks: list[bytes]) -> bytes:
    sgr = SgrFilter()
    return b"".join(sgr.feed(chunk) for chunk in chunks) + sgr.finish()


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=80), st.lists(st.integers(1, 9), max_size=40))
def test_the_screen_is_the_same_whatever_the_chunks(pieces, cuts):
    raw = b"".join(pieces)
    chunks, i = [], 0
    for cut in cuts:  # split anywhere, escape sequences included
        chunks.append(raw[i : i + cut])
        i += cut
    chunks.append(raw[i:])
    out = filtered(chunks)
    assert screen_of(out) == screen_of(raw)
    assert len(out) <= len(raw)


def test_a_textual_border_shrinks_to_its_characters():
    cell = "\x1b[0m\x1b[90;49m─".encode()
    raw = b"\x1b[0m\x1b[2;1H\x1b[90;49m" + cell * 78 + b"\x1b[0m"
    out = filtered([raw])
    assert out == b"\x1b[0m\x1b[2;1H\x1b[0m\x1b[90;49m" + "─".encode() * 78 + b"\x1b[0m"
    assert len(out) * 4 < len(raw)


def test_a_change_of_colour_is_kept_and_unknown_codes_pass_through():
    kept = filtered([b"\x1b[0m\x1b[31mA\x1b[0m\x1b[31mB\x1b[32mC"])
    assert kept == b"\x1b[0m\x1b[31mAB\x1b[32mC"
    raw = b"\x1b[0m\x1b[53mA\x1b[53mB"  # overline is not modelled: never dropped
    assert filtered([raw]) == raw


def test_after_a_cursor_restore_nothing_is_dropped_until_a_reset():
    raw = b"\x1b[0m\x1b[31m\x1b8\x1b[31mA\x1b[0mB\x1b[0mC"
    assert filtered([raw]) == b"\x1b[0m\x1b[31m\x1b8\x1b[31mA\x1b[0mBC"
