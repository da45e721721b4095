"""Fewer bytes to SSH clients: drop the client's colour changes that change nothing.

Textual writes every run of cells as reset + colours + text, so a border of one
colour costs about 16 bytes a cell (`ESC[0m ESC[90;49m ─`) where 3 would do.
`SgrFilter` follows the graphic rendition (SGR) state of the stream and drops a
run of SGR sequences whose net effect leaves that state as it was. Everything
else passes through untouched, so the screen the client draws is the same.
When it cannot be sure of the state (an SGR it does not model, a cursor
restore, a full reset …) it stops dropping until the next reset `ESC[0m`.
"""

from __future__ import annotations

import re

# A whole escape sequence: CSI, OSC (ended by BEL or ST), DCS/SOS/PM/APC strings, or ESC + final.
SEQUENCE = re.compile(
    rb"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[PX^_][^\x1b]*\x1b\\"
    rb"|[ -/]*(?![\[\]PX^_])[0-~])"
)
# The start of one that the next chunk may complete.
PARTIAL = re.compile(rb"\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*\x1b?|[PX^_][^\x1b]*\x1b?|[ -/]*)\Z")
SGR = re.compile(rb"\x1b\[([0-9;]*)m\Z")
# CSI sequences that leave the SGR state alone: cursor moves, erases, scrolling,
# and the private modes a client toggles (cursor, mouse, focus, paste, sync).
NEUTRAL_CSI = re.compile(rb"\x1b\[(?:[0-9;]*[HfABCDEFGdKJXSTLM@P]|\?([0-9;]*)[hl])\Z")
SAVING_MODES = {b"47", b"1047", b"1048", b"1049"}  # alternate screens save/restore the cursor
MAX_PENDING = 4096

Attributes = tuple[object, ...]
UNKNOWN: None = None
DEFAULT: Attributes = (None, None, False, False, False, False, False, False, False, False)
FLAGS = {1: 2, 2: 3, 3: 4, 4: 5, 5: 6, 7: 7, 8: 8, 9: 9}  # SGR code → index set on
OFF = {22: (2, 3), 23: (4,), 24: (5,), 25: (6,), 27: (7,), 28: (8,), 29: (9,)}


def apply_sgr(state: Attributes | None, params: bytes) -> Attributes | None:
    """The rendition after `ESC[<params>m`; UNKNOWN when it cannot be told."""
    codes = [int(p) if p else 0 for p in params.split(b";")]
    current = list(state) if state is not None else None
    i = 0
    while i < len(codes):
        code = codes[i]
        i += 1
        if code == 0:
            current = list(DEFAULT)
            continue
        if current is None:
            if code in (38, 48):
                return UNKNOWN  # its arguments are not worth skipping: still unknown
            continue
        if code in FLAGS:
            current[FLAGS[code]] = True
        elif code in OFF:
            for index in OFF[code]:
                current[index] = False
        elif 30 <= code <= 37 or 90 <= code <= 97:
            current[0] = code
        elif 40 <= code <= 47 or 100 <= code <= 107:
            current[1] = code
        elif code in (39, 49):
            current[0 if code == 39 else 1] = None
        elif code in (38, 48):
            kind = codes[i] if i < len(codes) else None
            size = {5: 2, 2: 4}.get(kind) if kind is not None else None
            if size is None or i + size > len(codes):
                return UNKNOWN
            current[0 if code == 38 else 1] = tuple(codes[i : i + size])
            i += size
        else:
            return UNKNOWN  # a code this model does not follow
    return tuple(current) if current is not None else UNKNOWN


def resets(seq: bytes) -> bool:
    """Whether an SGR sequence begins with a reset (`ESC[m`, `ESC[0m`, `ESC[0;1;31m` …)."""
    first = seq[2:-1].split(b";")[0]
    return not first or int(first) == 0


class SgrFilter:
    """Feed it the client's output in chunks of any size; it returns what to send."""

    def __init__(self) -> None:
        self.state: Attributes | None = UNKNOWN
        self._group: list[bytes] = []  # consecutive SGR sequences not yet sent
        self._pending = b""  # an escape sequence cut by the chunk's end

    def feed(self, chunk: bytes) -> bytes:
        data = self._pending + chunk
        self._pending = b""
        out = bytearray()
        i = 0
        while i < len(data):
            j = data.find(b"\x1b", i)
            if j < 0:
                self._text(out, data[i:])
                break
            if j > i:
                self._text(out, data[i:j])
            match = SEQUENCE.match(data, j)
            if match is None:
                if PARTIAL.match(data, j) and len(data) - j < MAX_PENDING:
                    self._pending = data[j:]
                    break
                self._text(out, b"\x1b")  # a stray ESC: passed on, state unknown
                self.state = UNKNOWN
                i = j + 1
                continue
            self._sequence(out, match.group())
            i = match.end()
        return bytes(out)

    def finish(self) -> bytes:
        """What is still held back, at the end of the stream."""
        out = bytearray(self._pending)
        self._pending = b""
        self._flush(out)
        return bytes(out)

    def _text(self, out: bytearray, text: bytes) -> None:
        self._flush(out)
        out += text

    def _sequence(self, out: bytearray, seq: bytes) -> None:
        if SGR.match(seq):
            self._group.append(seq)
            return
        self._flush(out)
        out += seq
        neutral = NEUTRAL_CSI.match(seq)
        if neutral and not SAVING_MODES.intersection((neutral.group(1) or b"").split(b";")):
            return
        if seq.startswith(b"\x1b]"):  # OSC: titles, hyperlinks
            return
        self.state = UNKNOWN  # e.g. ESC 8 or ESC c: the rendition may have changed

    def _flush(self, out: bytearray) -> None:
        if not self._group:
            return
        state = self.state
        for seq in self._group:
            state = apply_sgr(state, SGR.match(seq).group(1))  # type: ignore[union-attr]
        if state is UNKNOWN or state != self.state:
            # What comes before the last sequence that starts with a reset has no effect.
            first = max((i for i, seq in enumerate(self._group) if resets(seq)), default=0)
            out += b"".join(self._group[first:])
        self.state = state
        self._group.clear()
