"""Send a session's terminal only the cells that changed, as tmux and mosh do.

Textual repaints whole widgets when their content is set again, even when it
is the same, and each repaint costs kilobytes. `ScreenRelay` keeps the screen
Textual means to show as a grid of cells and, at most once a frame, sends the
difference between that grid and what the terminal was last sent.

The grid is drawn from Textual's own updates (`draw`, given the strips of a
`LayoutUpdate` or `ChopsUpdate` by the session's app, server/doors/terminal/driver.py),
not from the escape sequences Textual would write for them: parsing those back
(it used pyte) cost more than the rest of a playing session together
(docs/decisions/screen-relay.md). What the app writes as text
(`feed`: modes, queries, titles, the bell) goes through as it comes, after the
drawing that preceded it. Outside the alternate screen (before the client
starts, after it ends) bytes pass unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rich.cells import get_character_cell_size
from rich.color import ColorSystem
from rich.style import Style
from textual.strip import Strip

from modernart.tui.textual_internals import (
    ChopsUpdate,
    CompositorUpdate,
    LayoutUpdate,
    cached_sgr,
)

# A whole escape sequence: CSI, OSC (ended by BEL or ST), DCS/SOS/PM/APC strings, or ESC + final.
SEQUENCE = re.compile(
    rb"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[PX^_][^\x1b]*\x1b\\"
    rb"|[ -/]*(?![\[\]PX^_])[0-~])"
)
# The start of one that the next chunk may complete.
PARTIAL = re.compile(rb"\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*\x1b?|[PX^_][^\x1b]*\x1b?|[ -/]*)\Z")
ALT_ON = re.compile(rb"\x1b\[\?(?:1049|1047|47)h\Z")
ALT_OFF = re.compile(rb"\x1b\[\?(?:1049|1047|47)l\Z")
CURSOR_MODE = re.compile(rb"\x1b\[\?25([hl])\Z")
SYNC_MODE = re.compile(rb"\x1b\[\?2026[hl]\Z")  # we draw whole frames anyway
# Drawing that does not come from Textual's updates: the grid no longer says what is shown.
DRAWING_CSI = re.compile(rb"\x1b\[[0-9;]*[HfABCDEFGdKJXSTLM@Pr]\Z")
DRAWING_ESC = (b"\x1b7", b"\x1b8", b"\x1bD", b"\x1bE", b"\x1bM", b"\x1bc")

Cell = tuple[str, str]  # text, SGR parameters ("": none); text "" is a wide character's right half
BLANK: Cell = (" ", "")
Piece = tuple[int, int, Strip, int]  # row, column, strip, how many of its cells to draw


def pieces(update: CompositorUpdate) -> list[Piece]:
    """What a Textual update draws, and where, exactly as its `render_segments` would write it.

    Taken in the app's thread: the strips are immutable, the chops' mappings are not ours."""
    out: list[Piece] = []
    if isinstance(update, LayoutUpdate):
        for y, line in enumerate(update.strips, update.region.y):
            x = update.region.x
            for strip in line:
                out.append((y, x, strip, strip.cell_length))
                x += strip.cell_length
    elif isinstance(update, ChopsUpdate):
        for y, x1, x2 in update.spans:
            for end, (x, strip) in zip(update.chop_ends[y], update.chops[y].items(), strict=False):
                if strip is None or x > x2 or end <= x1:
                    continue
                whole = x2 > x >= x1 and end <= x2  # else cropped at the span's end
                out.append((y, x, strip, strip.cell_length if whole else min(end, x2) - x))
    else:
        raise TypeError(f"not a screen update: {type(update).__name__}")
    return out


SHORTER: dict[str, str] = {}  # Textual's SGR parameters → `shorter`'s, for every session


def shorter(ansi: str) -> str:
    """SGR parameters without the default colours (39, 49): each cell's start with a reset."""
    codes, out, i = ansi.split(";"), [], 0
    while i < len(codes):
        code = codes[i]
        size = 1
        if code in ("38", "48") and i + 1 < len(codes):
            size = {"5": 3, "2": 5}.get(codes[i + 1], 1)
        if code not in ("39", "49"):
            out += codes[i : i + size]
        i += size
    return ";".join(out)


class ScreenRelay:
    """Give it the app's updates (`draw`) and text (`feed`); `take()` says what to send."""

    def __init__(self, cols: int, rows: int) -> None:
        self.cols, self.rows = cols, rows
        self.color_system = ColorSystem.TRUECOLOR
        self.drawing = False  # inside the alternate screen
        self._pending = b""
        self._out = bytearray()  # to send before the next frame
        self._start_screen()

    def _start_screen(self) -> None:
        self.grid: list[list[Cell]] = [[BLANK] * self.cols for _ in range(self.rows)]
        self.dirty: set[int] = set()  # rows drawn since the last frame
        self.sent: list[list[Cell]] | None = None  # what the terminal shows; None: unknown
        self.pen: str | None = None  # the terminal's rendition
        self.at: tuple[int, int] | None = None  # the terminal's cursor
        self.cursor = (0, 0)
        self.hidden = False  # whether the app hid the cursor
        self.cursor_hidden: bool | None = None  # whether the terminal has it hidden

    # The app's text: modes and queries pass; the alternate screen starts and ends drawing.

    def feed(self, chunk: bytes) -> None:
        data = self._pending + chunk
        self._pending = b""
        i = 0
        while i < len(data):
            j = data.find(b"\x1b", i)
            if j < 0:
                self._text(data[i:])
                return
            self._text(data[i:j])
            match = SEQUENCE.match(data, j)
            if match is None:
                if PARTIAL.match(data, j) and len(data) - j < 4096:
                    self._pending = data[j:]
                    return
                self._text(b"\x1b")
                i = j + 1
                continue
            self._sequence(match.group())
            i = match.end()

    def _text(self, text: bytes) -> None:
        if not text:
            return
        if self.drawing and text.strip(b"\x07"):
            self._out += self._flush()
            self.sent = None  # text the grid does not hold: redraw from it next frame
        self._out += text

    def _sequence(self, seq: bytes) -> None:
        if not self.drawing:
            self._out += seq
            if ALT_ON.match(seq):
                self.drawing = True
                self._start_screen()
            return
        if ALT_OFF.match(seq):
            self._out += self._flush() + seq
            self.drawing = False
            return
        if SYNC_MODE.match(seq):
            return
        if cursor := CURSOR_MODE.match(seq):
            self.hidden = cursor.group(1) == b"l"
            return
        self._out += self._flush() + seq  # modes, queries, titles: in order, as they are
        if DRAWING_CSI.match(seq) or seq in DRAWING_ESC:
            self.sent = None

    def _flush(self) -> bytes:
        """The frame so far, before what passes through (none to send if it is all redrawn)."""
        return self.render() if self.sent is not None else b""

    # The app's updates: cells into the grid.

    def draw(self, update: Iterable[Piece], cursor: tuple[int, int], colours: ColorSystem) -> None:
        """Draw pieces of Textual's screen (`pieces`) in the app's colour system; `cursor`:
        where the app leaves the cursor."""
        self.color_system = colours
        for y, x, strip, length in update:
            if 0 <= y < self.rows:
                self._put(self.grid[y], x, strip, min(x + length, self.cols))
                self.dirty.add(y)
        self.cursor = cursor

    def _put(self, row: list[Cell], x: int, strip: Strip, end: int) -> None:
        if 0 < x < end and row[x][0] == "":
            row[x - 1] = (" ", row[x - 1][1])  # a wide character's left half, cut: blank
        for text, style, control in strip:
            if control or not text:
                continue
            if x >= end:
                break
            sgr = self._sgr(style)
            if text.isascii():  # a cell a character
                n = min(len(text), end - x)
                row[x : x + n] = [(c, sgr) for c in text[:n]]
                x += n
                continue
            for c in text:
                width = get_character_cell_size(c)
                if width == 0:  # a combining character: part of the cell before it
                    if x > 0:
                        row[x - 1] = (row[x - 1][0] + c, row[x - 1][1])
                    continue
                if x + width > end:
                    if x < end:
                        row[x] = (" ", sgr)
                        x += 1
                    break
                row[x] = (c, sgr)
                if width == 2:
                    row[x + 1] = ("", sgr)
                x += width
        if 0 < x < self.cols and row[x][0] == "":
            row[x] = (" ", row[x][1])  # a wide character's right half, cut: blank

    def _sgr(self, style: Style | None) -> str:
        """The SGR parameters of a style, as Textual's `Strip.render` writes them, less what
        a reset already says (the default colours 39 and 49, which Textual writes)."""
        if style is None:
            return ""
        ansi = cached_sgr(style)
        if ansi is None:
            ansi = Strip.render_ansi(style, self.color_system)
        sgr = SHORTER.get(ansi)
        if sgr is None:
            sgr = SHORTER[ansi] = shorter(ansi) if len(SHORTER) < 4096 else ansi
        return sgr

    def resize(self, cols: int, rows: int) -> None:
        """The terminal changed size: its content is unknown, redraw it all."""
        self.cols, self.rows = cols, rows
        grid = self.grid
        self.grid = [
            (grid[y][:cols] + [BLANK] * (cols - len(grid[y]))) if y < len(grid) else [BLANK] * cols
            for y in range(rows)
        ]
        self.sent = None

    # The frame: what the terminal shows made equal to the grid.

    def take(self) -> bytes:
        """Everything to send now: passed-through bytes, then the frame's changes."""
        out = bytes(self._out) + (self.render() if self.drawing else b"")
        self._out.clear()
        return out

    def _gap(self, line: list[Cell], y: int, x: int) -> bytes | None:
        """The few unchanged cells up to `x`, when writing them is shorter than a move."""
        if self.at is None or self.at[0] != y or not 0 < x - self.at[1] <= 4:
            return None
        cells = line[self.at[1] : x]
        if any(c[1] != self.pen or len(c[0]) != 1 or not c[0].isascii() for c in cells):
            return None
        return "".join(c[0] for c in cells).encode()

    def render(self) -> bytes:
        if self.sent is None:
            out = bytearray(b"\x1b[0m\x1b[H\x1b[2J")
            self.pen, self.at = "", (0, 0)
            self.sent = [[BLANK] * self.cols for _ in range(self.rows)]
            lines: Iterable[int] = range(self.rows)
        elif self.dirty:  # only the rows drawn: a frame's work is what changed, not the screen
            out = bytearray()
            lines = sorted(y for y in self.dirty if y < self.rows)
        else:
            return self._cursor(bytearray())
        self.dirty.clear()
        cols = self.cols
        for y in lines:
            line, before = self.grid[y], self.sent[y]
            if line == before:
                continue
            x = 0
            while x < cols:
                cell = line[x]
                if cell == before[x]:
                    x += 1
                    continue
                if cell[0] == "" and x > 0:
                    x -= 1  # the right half of a wide character: draw the character
                    cell = line[x]
                if self.at != (y, x):
                    gap = self._gap(line, y, x)
                    out += gap if gap is not None else b"\x1b[%d;%dH" % (y + 1, x + 1)
                if cell[1] != self.pen:
                    out += b"\x1b[0;%sm" % cell[1].encode() if cell[1] else b"\x1b[0m"
                    self.pen = cell[1]
                out += (cell[0] or " ").encode()
                covered = 2 if x + 1 < cols and line[x + 1][0] == "" else 1
                before[x : x + covered] = line[x : x + covered]
                self.at = (y, x + covered) if x + covered < cols else None
                x += covered
        return self._cursor(out)

    def _cursor(self, out: bytearray) -> bytes:
        if not self.hidden and self.at != (self.cursor[1], self.cursor[0]):
            x, y = self.cursor
            out += b"\x1b[%d;%dH" % (y + 1, x + 1)
            self.at = (y, x)
        if self.hidden != self.cursor_hidden:
            out += b"\x1b[?25l" if self.hidden else b"\x1b[?25h"
            self.cursor_hidden = self.hidden
        return bytes(out)
