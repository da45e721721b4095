"""What tui/textual_internals.py relies on in Textual's (and Rich's) internals, checked
against the installed versions: an upgrade that breaks one of them fails here, naming
it, rather than breaking the SSH and browser doors' screens or the client silently."""

from __future__ import annotations

import gc
import inspect
import io
import termios
import weakref
from typing import Any

import pytest
from rich.color import ColorSystem
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.app import App, ComposeResult
from textual.cache import FIFOCache
from textual.color import Color
from textual.css.stylesheet import Stylesheet
from textual.driver import Driver
from textual.strip import Strip
from textual.widgets import DataTable, RichLog, Select, Static

from modernart.server.doors.terminal.screen import pieces
from modernart.tui.textual_internals import (
    SELF_ANSWERS,
    STRIP_CACHES,
    ChopsUpdate,
    CompositorUpdate,
    LayoutUpdate,
    OthersOnly,
    SelectCurrent,
    SelectOverlay,
    StripDisplay,
    StylesCache,
    XTermParser,
    active_app,
    cached_sgr,
    capture_output,
    character_to_key,
    colour_system,
    driver_of,
    inner_outer,
    parse_rules_once,
    parser_waiting,
    raw_mode,
    strip_init,
    textuals_inner_outer,
    textuals_parse_rules,
    textuals_strip_init,
)


class Drawn(StripDisplay, App[None]):
    """An app whose screen updates are kept as Textual's compositor hands them over."""

    def __init__(self) -> None:
        super().__init__()
        self.updates: list[CompositorUpdate] = []

    def compose(self) -> ComposeResult:
        yield Static("hello", id="text")
        yield Select([("one", 1), ("two", 2)])

    def draws_updates(self) -> bool:
        return True

    def draw_update(self, update: CompositorUpdate) -> None:
        self.updates.append(update)


def shown(updates: list[CompositorUpdate]) -> str:
    return "".join(strip.text for update in updates for _, _, strip, _ in pieces(update))


async def test_screen_updates_come_as_layout_then_chops_updates():
    app = Drawn()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        assert app.updates and isinstance(app.updates[0], LayoutUpdate)
        assert "hello" in shown(app.updates)
        app.updates.clear()
        app.query_one("#text", Static).update("bye")
        await pilot.pause()
        assert app.updates and all(isinstance(u, ChopsUpdate) for u in app.updates)
        assert "bye" in shown(app.updates)
        # Nothing is handed over inside a batch (`_batch_count`), all of it after.
        app.updates.clear()
        assert app._running and not app._closed and app._batch_count == 0
        with app.batch_update():
            assert app._batch_count == 1  # what StripDisplay._display reads
            app.query_one("#text", Static).update("held")
            await pilot.pause()
            assert not app.updates
        await pilot.pause()
        assert "held" in shown(app.updates)


async def test_a_failing_draw_is_the_apps_exception():
    class Failing(Drawn):
        def draw_update(self, update: CompositorUpdate) -> None:
            raise RuntimeError("drawing failed")

    app = Failing()
    with pytest.raises(RuntimeError, match="drawing failed"):  # run_test raises it again
        async with app.run_test(size=(40, 10)) as pilot:
            await pilot.pause()
    assert app.return_code == 1  # `_handle_exception` ended it as Textual ends an app


async def test_the_running_app_and_its_driver_and_output():
    app = Drawn()
    stream = io.StringIO()
    capture_output(app, stream)
    async with app.run_test(size=(40, 10)) as pilot:
        assert active_app.get() is app
        assert isinstance(driver_of(app), Driver)
        driver: Any = driver_of(app)
        assert driver._app is app and driver._loop is not None  # TerminalDriver's use
        print("printed")
        await pilot.pause()
    assert "printed" in stream.getvalue()


def test_the_xterm_parser_reads_keys_and_holds_a_lone_escape():
    parser = XTermParser()
    keys = [e for e in parser.feed("a") if isinstance(e, events.Key)]
    assert [k.key for k in keys] == ["a"] and not parser_waiting(parser)
    assert not list(parser.feed("\x1b")) and parser_waiting(parser)
    keys = [e for e in parser.feed("[A") if isinstance(e, events.Key)]
    assert [k.key for k in keys] == ["up"] and not parser_waiting(parser)
    assert list(parser.tick()) == []


def test_raw_mode_clears_echo_and_canonical_input():
    lflag, iflag = raw_mode(termios.ECHO | termios.ICANON | termios.ISIG, termios.ICRNL)
    assert not lflag & (termios.ECHO | termios.ICANON) and not iflag & termios.ICRNL


def test_rich_colour_system_and_cached_sgr():
    assert colour_system(Console(color_system="truecolor")) is ColorSystem.TRUECOLOR
    assert colour_system(Console(color_system=None)) is None
    style = Style(bold=True, color="red")
    assert cached_sgr(style) is None
    sgr = Strip.render_ansi(style, ColorSystem.TRUECOLOR)
    assert cached_sgr(style) == sgr and sgr.startswith("1;")


def test_character_to_key_names_punctuation():
    assert character_to_key("+") == "plus" and character_to_key("a") == "a"


async def test_select_is_made_of_the_hidden_widgets_createroom_subclasses():
    app = Drawn()
    async with app.run_test(size=(40, 10)):
        select = app.query_one(Select)
        assert select.query_one(SelectCurrent) and select.query_one(SelectOverlay)
        assert hasattr(select, "_type_to_search")


def test_the_private_members_left_where_they_are_still_exist():
    """tui/fitted.py, eventlog.py, app.py use these (textual_internals.py)."""
    for owner, names in {
        DataTable: ["_update_dimensions", "_clear_caches"],
        RichLog: ["_scroll_update"],
        App: ["_display", "_handle_exception", "post_display_hook"],
    }.items():
        for name in names:
            assert hasattr(owner, name), f"{owner.__name__}.{name}"
    log = RichLog()
    assert hasattr(log, "_line_cache") and hasattr(log, "_size_known")
    app = App[None]()
    for name in ("_bindings", "_exit", "_batch_count", "_running", "_closed"):
        assert hasattr(app, name), f"App.{name}"


def test_styles_caches_ask_inner_outer_by_colours_and_get_textuals_answer():
    """Textual's `render_line` still asks `get_inner_outer` with the two colours, and the
    replacement answers what Textual's own method answers."""
    assert StylesCache.get_inner_outer.__name__ == "_get_inner_outer"
    source = inspect.getsource(StylesCache.render_line)
    assert "self.get_inner_outer(base_background, background)" in source
    for base, background in [
        (Color(0, 0, 0), Color(255, 0, 0, 0.5)),
        (Color(10, 20, 30), Color(1, 2, 3)),
    ]:
        assert inner_outer(base, background) == textuals_inner_outer(None, base, background)


async def test_a_removed_widgets_styles_cache_is_freed():
    """Textual's `lru_cache` on `get_inner_outer` kept the newest 1,024 styles caches
    (and the lines each drew) alive after their widgets had gone."""
    app = Drawn()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        text = app.query_one("#text", Static)
        drawn = weakref.ref(text._styles_cache)
        await text.remove()
        await pilot.pause()
    del app, pilot, text
    gc.collect()
    assert drawn() is None


def test_each_css_source_is_parsed_once_a_process_for_each_theme():
    """Textual's `Stylesheet.parse` still asks `_parse_rules` for each source; two apps'
    stylesheets get the rules parsed once, a new theme's variables parse again, and the
    rules are what Textual's own parse makes."""
    assert Stylesheet._parse_rules is parse_rules_once
    assert "self._parse_rules(" in inspect.getsource(Stylesheet.parse)
    css = "Static { color: $accent; height: 3; }"
    where = ("contract.tcss", "")

    def parsed(variables: dict[str, str]) -> list:
        sheet = Stylesheet(variables=variables)
        sheet.add_source(css, read_from=where)
        return sheet.rules

    dark, light = {"accent": "#ff0000"}, {"accent": "#0000ff"}
    first = parsed(dark)
    assert parsed(dict(dark)) == first and parsed(dark)[0] is first[0]
    other = parsed(light)
    assert other[0] is not first[0]
    for rules, variables in [(first, dark), (other, light)]:
        textuals = textuals_parse_rules(Stylesheet(variables=variables), css, where)
        assert [r.css for r in rules] == [r.css for r in textuals]
    assert "#FF0000" in first[0].css.upper() and "#0000FF" in other[0].css.upper()


def test_strips_make_their_caches_when_first_used():
    """A strip holds none of its seven caches until one is asked for; then it is the
    cache Textual's `Strip.__init__` makes (its size), kept for the strip's next call;
    every other slot is what Textual's own `__init__` sets."""
    assert set(Strip.__slots__) == {
        *STRIP_CACHES,
        "_segments",
        "_cell_length",
        "_render_cache",
        "_link_ids",
        "_cell_count",
    }
    assert Strip.__init__ is strip_init
    segments = [Segment("ab", Style(bold=True)), Segment("cd")]
    ours = Strip(segments, 4)
    theirs = Strip.__new__(Strip)
    textuals_strip_init(theirs, segments, 4)
    assert not any(isinstance(o, FIFOCache) for o in gc.get_referents(ours))
    for name in Strip.__slots__:
        mine, textuals = getattr(ours, name), getattr(theirs, name)
        if name in STRIP_CACHES:
            assert type(textuals) is FIFOCache and isinstance(mine, FIFOCache)
            assert (type(mine) is OthersOnly) == (name in SELF_ANSWERS)
            assert mine._maxsize == textuals._maxsize == STRIP_CACHES[name]
        else:
            assert mine == textuals
    fresh = Strip(segments)
    cropped = fresh.crop(1, 3)
    assert fresh.crop(1, 3) is cropped and list(cropped) == list(theirs.crop(1, 3))
    made = [o for o in gc.get_referents(fresh) if isinstance(o, FIFOCache)]
    assert made == [fresh._crop_cache] and len(made[0]) == 1
