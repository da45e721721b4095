"""ScreenRelay: the terminal shows what Textual's updates draw, sent as changes only.

The reference is what a terminal (pyte) shows when given the escape sequences
Textual itself writes for the same updates (`render_segments`)."""

from __future__ import annotations

import itertools

import pyte
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.color import ColorSystem
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import Input, Static

from modernart.server.doors.terminal.screen import ScreenRelay, pieces
from modernart.tui.textual_internals import ChopsUpdate, CompositorUpdate, LayoutUpdate

ALT_ON = b"\x1b[?1049h"
HIDE = b"\x1b[?25l"
TRUECOLOR = ColorSystem.TRUECOLOR
CONSOLE = Console(color_system="truecolor", force_terminal=True, width=80)
STYLES = [
    None,
    Style(),
    Style(bold=True),
    Style(color="red"),
    Style.parse("#102030 on #405060"),
    Style(color="color(123)", bgcolor="blue"),
    Style(reverse=True, italic=True),
    Style(underline=True, strike=True),
    Style(dim=True),
]
TEXTS = ["a", "bc", "xyz ", "─│", "日", " "]


def cells(screen: pyte.Screen) -> list[list[tuple[object, ...]]]:
    """Every cell as pyte's Char fields; "" (a wide character's right half) as a blank."""
    return [
        [(c.data or " ", *c[1:]) for c in (screen.buffer[y][x] for x in range(screen.columns))]
        for y in range(screen.lines)
    ]


def shown(data: bytes, cols: int, rows: int) -> pyte.Screen:
    screen = pyte.Screen(cols, rows)
    pyte.ByteStream(screen).feed(data)
    return screen


@st.composite
def strip_of(draw: st.DrawFn, width: int) -> Strip:
    """A strip exactly `width` cells wide, of random texts and styles."""
    segments, left = [], width
    while left:
        text = draw(st.sampled_from([t for t in TEXTS if len(t.encode()) <= 3 * left]))
        text = text if Strip([Segment(text)]).cell_length <= left else " " * left
        text = text[:left] if text.isascii() else text
        segments.append(Segment(text, draw(st.sampled_from(STYLES))))
        left -= Strip([Segment(text)]).cell_length
    return Strip(segments)


@st.composite
def updates(draw: st.DrawFn) -> tuple[int, int, list[CompositorUpdate], list[bool]]:
    """A screen cut into chops as Textual's compositor cuts it, and updates of it."""
    cols, rows = draw(st.integers(4, 12)), draw(st.integers(1, 4))
    cuts = [
        [0, *sorted(draw(st.sets(st.integers(1, cols - 1), max_size=3))), cols] for _ in range(rows)
    ]
    frames: list[CompositorUpdate] = []
    for _ in range(draw(st.integers(1, 6))):
        chops = [{a: draw(strip_of(b - a)) for a, b in itertools.pairwise(line)} for line in cuts]
        if not frames or draw(st.booleans()):
            strips = [list(chop.values()) for chop in chops]
            frames.append(LayoutUpdate(strips, Region(0, 0, cols, rows)))
            continue
        spans = []
        for y in sorted(draw(st.sets(st.integers(0, rows - 1), min_size=1))):
            x1 = draw(st.integers(0, cols - 1))
            spans.append((y, x1, draw(st.integers(x1 + 1, cols))))
            # A chop with nothing to draw, as the compositor leaves one; the span's first stays.
            first = max(x for x in cuts[y] if x <= x1)
            for x in chops[y]:
                if x != first and draw(st.integers(0, 4)) == 0:
                    chops[y][x] = None
        ends = [line[1:] for line in cuts]
        frames.append(ChopsUpdate(chops, spans, ends))
    sends = draw(st.lists(st.booleans(), min_size=len(frames), max_size=len(frames)))
    return cols, rows, frames, sends


@settings(max_examples=300, deadline=None)
@given(updates())
def test_the_terminal_shows_what_textual_would_have_drawn_whatever_the_frames(case):
    cols, rows, frames, sends = case
    relay = ScreenRelay(cols, rows)
    relay.feed(ALT_ON + HIDE)
    written, sent = bytearray(ALT_ON + HIDE), bytearray()
    for frame, send in zip(frames, sends, strict=True):
        written += frame.render_segments(CONSOLE).encode()
        relay.draw(pieces(frame), (0, 0), TRUECOLOR)
        if send:  # the terminal was not ready for some frames: merged into the next
            sent += relay.take()
    sent += relay.take()
    assert cells(shown(bytes(sent), cols, rows)) == cells(shown(bytes(written), cols, rows))


def layout(*lines: list[Segment]) -> list:
    width = max(Strip(line).cell_length for line in lines)
    return pieces(LayoutUpdate([[Strip(line)] for line in lines], Region(0, 0, width, len(lines))))


def test_a_repaint_of_the_same_content_sends_nothing():
    relay = ScreenRelay(12, 2)
    frame = layout([Segment("──", Style(color="bright_black")), Segment("hello")])
    relay.feed(ALT_ON + HIDE)
    relay.draw(frame, (0, 0), TRUECOLOR)
    assert b"hello" in relay.take()
    for _ in range(5):
        relay.draw(frame, (0, 0), TRUECOLOR)
    assert relay.take() == b""
    relay.draw(
        layout([Segment("──", Style(color="bright_black")), Segment("hellO")]), (0, 0), TRUECOLOR
    )
    change = relay.take()
    assert b"O" in change and b"hell" not in change


def test_modes_and_queries_pass_through_in_order_and_the_main_screen_is_left_alone():
    relay = ScreenRelay(12, 2)
    relay.feed(b"before\x1b[?1049h\x1b[?1000h")
    relay.draw(layout([Segment("X")]), (0, 0), TRUECOLOR)
    relay.feed(b"\x1b[?2004h")
    out = relay.take()
    assert out.startswith(b"before\x1b[?1049h\x1b[?1000h\x1b[?2004h")  # then the first frame
    assert b"X" in out
    relay.draw(layout([Segment("Y")]), (0, 0), TRUECOLOR)
    relay.feed(b"\x1b]0;title\x07")
    relay.draw(layout([Segment("Z")]), (0, 0), TRUECOLOR)
    out = relay.take()
    assert out.index(b"Y") < out.index(b"\x1b]0;title\x07") < out.index(b"Z")
    relay.feed(b"\x1b[?1049lGoodbye\x1b[31m")
    out = relay.take()
    assert out.endswith(b"\x1b[?1049lGoodbye\x1b[31m")  # outside: unchanged


def test_dim_text_stays_dim_and_colours_follow_the_apps_colour_system():
    relay = ScreenRelay(12, 1)
    relay.feed(ALT_ON)
    relay.draw(layout([Segment("dim", Style(dim=True)), Segment(" no")]), (0, 0), TRUECOLOR)
    out = relay.take()
    assert b"\x1b[0;2mdim" in out and b"\x1b[0mno" in out
    relay = ScreenRelay(12, 1)
    relay.feed(ALT_ON)
    relay.draw(layout([Segment("rgb", Style(color="#ff0000"))]), (0, 0), ColorSystem.EIGHT_BIT)
    out = relay.take()
    assert b"38;5;196mrgb" in out and b"38;2" not in out


def test_a_resize_redraws_everything():
    relay = ScreenRelay(12, 2)
    relay.feed(ALT_ON)
    relay.draw(layout([Segment("abc")]), (0, 0), TRUECOLOR)
    relay.take()
    relay.resize(20, 8)
    out = relay.take()
    assert b"\x1b[2J" in out and b"abc" in out


def test_drawing_written_as_text_makes_the_next_frame_redraw_from_the_grid():
    relay = ScreenRelay(12, 2)
    relay.feed(ALT_ON)
    relay.draw(layout([Segment("kept")]), (0, 0), TRUECOLOR)
    relay.take()
    relay.feed(b"\x1b[1;1Hjunk")  # not from an update: passed on, the grid stays the truth
    out = relay.take()
    assert out.startswith(b"\x1b[1;1Hjunk") and b"\x1b[2J" in out and b"kept" in out
    assert shown(ALT_ON + out, 12, 2).display[0] == "kept" + " " * 8
    relay.feed(b"\x07")  # the bell draws nothing
    assert relay.take() == b"\x07"


def test_the_cursor_is_shown_where_the_app_leaves_it_once_it_shows_it():
    relay = ScreenRelay(12, 3)
    relay.feed(ALT_ON + HIDE)
    relay.draw(layout([Segment("ab")]), (5, 2), TRUECOLOR)
    assert relay.take().endswith(b"\x1b[?25l")
    relay.feed(b"\x1b[?25h")
    client = shown(ALT_ON + HIDE + relay.take(), 12, 3)
    assert not client.cursor.hidden and (client.cursor.x, client.cursor.y) == (5, 2)


class Sample(App[None]):
    """Borders, wide characters, styles and an input: what a table's screen holds."""

    CSS = "Static { border: round $accent; height: 4; } Input { width: 20; }"

    def __init__(self) -> None:
        super().__init__()
        self.updates: list[CompositorUpdate] = []

    def compose(self) -> ComposeResult:
        yield Static("[b]Modern Art[/b] 日本 [reverse]bid[/]", id="title")
        yield Input(placeholder="your bid")
        yield Static("[dim]waiting[/dim]", id="log")

    def _display(self, screen, renderable) -> None:
        if isinstance(renderable, CompositorUpdate):
            self.updates.append(renderable)
        super()._display(screen, renderable)


async def test_a_real_apps_updates_reach_the_terminal_as_textual_draws_them():
    app = Sample()
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        app.query_one("#log", Static).update("[red]Otto[/] bids [b]30[/b]")
        await pilot.press("tab", "4", "2")
        app.query_one("#title", Static).update("Serengeti ライオン")
        await pilot.pause()
        updates = list(app.updates)
    assert any(isinstance(u, ChopsUpdate) for u in updates)
    relay = ScreenRelay(40, 12)
    relay.feed(ALT_ON + HIDE)
    written, sent = bytearray(ALT_ON + HIDE), bytearray()
    for update in updates:
        written += update.render_segments(app.console).encode()
        relay.draw(pieces(update), (0, 0), app.console._color_system or TRUECOLOR)
        sent += relay.take()
    terminal = shown(bytes(sent), 40, 12)
    assert cells(terminal) == cells(shown(bytes(written), 40, 12))
    text = "\n".join(terminal.display)
    assert "Otto bids 30" in text and "ライオン" in text and "42" in text
    assert len(sent) < len(written) / 2  # only what changed, in fewer colour changes
