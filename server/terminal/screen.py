"""Send an SSH client only the cells that changed, as tmux and mosh do.

Textual repaints whole widgets when their content is set again, even when it
is the same, and each repaint costs kilobytes. `ScreenRelay` keeps the client
process's alternate screen in a terminal emulator (pyte) and, at most once a
frame, sends the difference between that screen and the one the SSH client
was last sent. Sequences that are not drawing (mouse and paste modes, queries,
titles) go through as they come, after the drawing that preceded them. Outside
the alternate screen (before the client starts, after it ends) bytes pass
unchanged.
"""

from __future__ import annotations

import re
from collections import namedtuple
from typing import Any

import pyte
from pyte import graphics
from wcwidth import wcwidth

from .output import PARTIAL, SEQUENCE

# Drawing sequences the emulator follows: cursor moves, erases, scrolls, SGR, margins.
DRAWING_CSI = re.compile(rb"\x1b\[[0-9;]*[HfABCDEFGdKJXSTLM@Pmr]\Z")
ALT_ON = re.compile(rb"\x1b\[\?(?:1049|1047|47)h\Z")
ALT_OFF = re.compile(rb"\x1b\[\?(?:1049|1047|47)l\Z")
CURSOR_MODE = re.compile(rb"\x1b\[\?25[hl]\Z")
SYNC_MODE = re.compile(rb"\x1b\[\?2026[hl]\Z")  # we draw whole frames anyway
DRAWING_ESC = (b"\x1b7", b"\x1b8", b"\x1bD", b"\x1bE", b"\x1bM")

Cell = namedtuple("Cell", [*pyte.screens.Char._fields, "dim"])  # type: ignore[misc]
FG = {
    name: code for table in (graphics.FG_ANSI, graphics.FG_AIXTERM) for code, name in table.items()
}
BG = {
    name: code for table in (graphics.BG_ANSI, graphics.BG_AIXTERM) for code, name in table.items()
}
PALETTE = {colour: i for i, colour in reversed(list(enumerate(graphics.FG_BG_256)))}


class DimScreen(pyte.Screen):
    """pyte's screen, also keeping dim (SGR 2/22), which Textual uses and pyte drops."""

    @property
    def default_char(self) -> Cell:
        return Cell(" ", "default", "default", False, False, False, False, False, False, False)

    def reset(self) -> None:
        super().reset()
        self.cursor.attrs = self.default_char

    def select_graphic_rendition(self, *attrs: int, **_: Any) -> None:
        dim = getattr(self.cursor.attrs, "dim", False)
        i = 0
        while i < len(attrs):
            code = attrs[i]
            if code in (38, 48):
                i += 3 if i + 1 < len(attrs) and attrs[i + 1] == 5 else 5
                continue
            if code in (0, 22):
                dim = False
            elif code == 2:
                dim = True
            i += 1
        super().select_graphic_rendition(*attrs)
        if not isinstance(self.cursor.attrs, Cell):
            self.cursor.attrs = Cell(*self.cursor.attrs, dim=False)
        self.cursor.attrs = self.cursor.attrs._replace(dim=dim)


def wide(text: str) -> bool:
    return bool(text) and wcwidth(text[0]) == 2


def colour(value: str, named: dict[str, int], extended: int) -> list[str]:
    if value in named:
        return [str(named[value])]
    if value in PALETTE:
        return [str(extended), "5", str(PALETTE[value])]
    r, g, b = (int(value[k : k + 2], 16) for k in (0, 2, 4))
    return [str(extended), "2", str(r), str(g), str(b)]


def sgr(cell: Cell) -> bytes:
    codes = ["0"]
    for flag, code in (
        (cell.bold, "1"),
        (getattr(cell, "dim", False), "2"),
        (cell.italics, "3"),
        (cell.underscore, "4"),
        (cell.blink, "5"),
        (cell.reverse, "7"),
        (cell.strikethrough, "9"),
    ):
        if flag:
            codes.append(code)
    if cell.fg != "default":
        codes += colour(cell.fg, FG, 38)
    if cell.bg != "default":
        codes += colour(cell.bg, BG, 48)
    return b"\x1b[" + ";".join(codes).encode() + b"m"


class ScreenRelay:
    """Feed it the client's output; `render()` says what the SSH client must be sent."""

    def __init__(self, cols: int, rows: int) -> None:
        self.cols, self.rows = cols, rows
        self.drawing = False  # inside the alternate screen
        self._pending = b""
        self._out = bytearray()  # to send before the next frame
        self.dirty = False
        self._start_screen()

    def _start_screen(self) -> None:
        self.screen = DimScreen(self.cols, self.rows)
        self.stream = pyte.ByteStream(self.screen)
        self.sent: list[list[Any]] | None = None  # what the client shows; None: unknown
        self.pen: tuple[Any, ...] | None = None  # the client's rendition (a cell without data)
        self.at: tuple[int, int] | None = None
        self.cursor_hidden: bool | None = None

    def feed(self, chunk: bytes) -> None:
        data = self._pending + chunk
        self._pending = b""
        i = 0
        while i < len(data):
            if not self.drawing:
                j = data.find(b"\x1b", i)
                if j < 0:
                    self._out += data[i:]
                    return
                self._out += data[i:j]
            else:
                j = data.find(b"\x1b", i)
                if j < 0:
                    self._draw(data[i:])
                    return
                self._draw(data[i:j])
            match = SEQUENCE.match(data, j)
            if match is None:
                if PARTIAL.match(data, j) and len(data) - j < 4096:
                    self._pending = data[j:]
                    return
                self._draw(b"\x1b") if self.drawing else self._out.extend(b"\x1b")
                i = j + 1
                continue
            self._sequence(match.group())
            i = match.end()

    def _draw(self, data: bytes) -> None:
        if data:
            self.stream.feed(data)
            self.dirty = True

    def _sequence(self, seq: bytes) -> None:
        if not self.drawing:
            self._out += seq
            if ALT_ON.match(seq):
                self.drawing = True
                self._start_screen()
            return
        if ALT_OFF.match(seq):
            self._out += self.render() + seq
            self.drawing = False
            return
        if SYNC_MODE.match(seq):
            return
        if DRAWING_CSI.match(seq) or CURSOR_MODE.match(seq) or seq in DRAWING_ESC:
            self._draw(seq)
            return
        self._out += self.render() + seq  # modes, queries, titles: in order, as they are

    def resize(self, cols: int, rows: int) -> None:
        """The client's terminal changed size: its content is unknown, redraw it all."""
        self.cols, self.rows = cols, rows
        self.screen.resize(rows, cols)
        self.sent = None
        self.dirty = True

    def _gap(self, line: Any, y: int, x: int) -> bytes | None:
        """The few unchanged cells up to `x`, when writing them is shorter than a move."""
        if self.at is None or self.at[0] != y or not 0 < x - self.at[1] <= 4:
            return None
        cells = [line[k] for k in range(self.at[1], x)]
        if any(c[1:] != self.pen or not c.data or wide(c.data) for c in cells):
            return None
        return "".join(c.data for c in cells).encode()

    def take(self) -> bytes:
        """Everything to send now: passed-through bytes, then the frame's changes."""
        out = bytes(self._out) + (self.render() if self.drawing else b"")
        self._out.clear()
        return out

    def render(self) -> bytes:
        if not self.dirty:
            return b""
        self.dirty = False
        out = bytearray()
        screen, rows, cols = self.screen, self.rows, self.cols
        lines: Any = range(rows)
        if self.sent is None:
            out += b"\x1b[0m\x1b[H\x1b[2J"
            self.pen = None
            blank = screen.default_char
            self.sent = [[blank] * cols for _ in range(rows)]
        else:  # only the lines pyte saw change: a frame's work is what changed, not the screen
            lines = sorted(y for y in screen.dirty if y < rows)
        screen.dirty.clear()
        for y in lines:
            line, before = screen.buffer[y], self.sent[y]
            x = 0
            while x < cols:
                cell = line[x]
                if cell == before[x]:
                    x += 1
                    continue
                if cell.data == "" and x > 0 and wide(line[x - 1].data):
                    x -= 1  # the right half of a wide character: draw the character
                    cell = line[x]
                if self.at != (y, x):
                    gap = self._gap(line, y, x)
                    out += gap if gap is not None else b"\x1b[%d;%dH" % (y + 1, x + 1)
                if cell[1:] != self.pen:
                    out += sgr(cell)
                    self.pen = cell[1:]
                text = cell.data or " "  # a lone right half shows as a blank
                out += text.encode()
                width = 2 if wide(text) else 1
                # The cells it covers: a right half overwritten since is drawn after it.
                covered = 2 if width == 2 and x + 1 < cols and line[x + 1].data == "" else 1
                for k in range(x, x + covered):
                    before[k] = line[k]
                self.at = (y, x + width) if x + width < cols else None
                x += covered
        cursor = screen.cursor
        if not cursor.hidden and self.at != (cursor.y, cursor.x):
            out += b"\x1b[%d;%dH" % (cursor.y + 1, cursor.x + 1)
            self.at = (cursor.y, cursor.x)
        if cursor.hidden != self.cursor_hidden:
            out += b"\x1b[?25l" if cursor.hidden else b"\x1b[?25h"
            self.cursor_hidden = cursor.hidden
        return bytes(out)
