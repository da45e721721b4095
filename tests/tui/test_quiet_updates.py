"""A table's lines take new content without laying the screen out when their size stays
(issue 31: line panels, tui/lines.py); what they show is still the new content, a panel
that needs more rows still gets them, and a change of the footer's keys restyles nothing."""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator
from typing import Any

from rich.text import Text
from test_quiet_redraws import Keys  # a footer with two keys, the second shown while `more`
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.widget import Widget

from modernart.engine.games import get_game
from modernart.tui.app import ClientApp
from modernart.tui.eventlog import EventLog
from modernart.tui.footer import Footer
from modernart.tui.games import client_game
from modernart.tui.lines import LinePanel, paragraph_key


class Lines(App[None]):
    CSS = "#narrow { width: auto; } #wide { width: 30; } #kept { width: 30; min-height: 2; }"

    def compose(self) -> ComposeResult:
        yield LinePanel("first line", id="wide")
        yield LinePanel("one", id="kept")
        with Horizontal():
            yield LinePanel("abc", id="narrow")


def spy(widget: Widget, calls: list[str]) -> None:
    """Note each refresh of `widget`: "layout" or "repaint" (and do it)."""
    refresh = widget.refresh

    def noted(*regions: Any, **kwargs: Any) -> Any:
        calls.append("layout" if kwargs.get("layout") else "repaint")
        return refresh(*regions, **kwargs)

    widget.refresh = noted  # type: ignore[method-assign]


@contextlib.asynccontextmanager
async def watched(name: str) -> AsyncIterator[tuple[Lines, Any, LinePanel, list[str]]]:
    """`Lines` running at 40×10, its panel `#name` drawn, then each refresh of it noted."""
    app = Lines()
    async with app.run_test(size=(40, 10)) as pilot:
        panel = app.query_one(f"#{name}", LinePanel)
        await pilot.pause()
        calls: list[str] = []
        spy(panel, calls)
        yield app, pilot, panel, calls


def screen_text(app: App[Any]) -> str:
    return "\n".join(
        "".join(seg.text for seg in app.screen._compositor.render_strips()[y])  # type: ignore[attr-defined]
        for y in range(app.screen.size.height)
    )


def test_a_paragraph_is_told_apart_by_its_style_too():
    assert paragraph_key("a") == paragraph_key("a") != paragraph_key("b")
    assert paragraph_key("a") != paragraph_key(Text("a"))
    assert paragraph_key(Text("a", style="bold")) == paragraph_key(Text("a", style="bold"))
    assert paragraph_key(Text("a", style="bold")) != paragraph_key(Text("a", style="dim"))
    red, blue = Text.assemble(("a", "red"), "b"), Text.assemble(("a", "blue"), "b")
    assert paragraph_key(red) != paragraph_key(blue)  # Rich's == says equal


async def test_a_changed_row_is_repainted_alone_and_more_rows_laid_out():
    async with watched("wide") as (app, pilot, wide, calls):
        wide.set_lines("first line")  # what it shows already: nothing at all
        assert calls == []
        wide.set_lines(Text("other line", style="bold"))  # one row still: that row
        assert calls == ["repaint"]
        await pilot.pause()
        assert "other line" in screen_text(app) and wide.size.height == 1
        calls.clear()
        wide.set_lines("a line much longer than thirty cells, wrapped on two rows")
        assert calls == ["layout"]
        await pilot.pause()
        assert wide.size.height == 2 and "wrapped on two rows" in screen_text(app)


async def test_rows_within_the_minimum_height_lay_nothing_out():
    async with watched("kept") as (app, pilot, kept, calls):
        assert kept.size.height == 2
        kept.set_lines(["one", "two"])  # a second row, in the room kept for it
        kept.set_lines(["one"])
        assert calls == ["repaint", "repaint"]
        kept.set_lines(["one", "two", "three"])  # beyond it: laid out
        assert calls[-1] == "layout"
        await pilot.pause()
        assert kept.size.height == 3 and "three" in screen_text(app)


async def test_a_panel_as_wide_as_its_content_is_laid_out_when_its_width_changes():
    async with watched("narrow") as (app, pilot, narrow, calls):
        narrow.set_lines("xyz")  # as wide: a repaint
        assert calls == ["repaint"]
        narrow.set_lines("wider text")
        assert calls == ["repaint", "layout"]
        await pilot.pause()
        assert narrow.size.width == len("wider text") and "wider text" in screen_text(app)


async def test_a_change_of_the_footers_keys_restyles_nothing():
    app = Keys()
    async with app.run_test(size=(80, 10)) as pilot:
        footer = app.query_one(Footer)
        while not footer.keys:
            await pilot.pause()
        restyled: list[Any] = []
        update_styles = app.update_styles
        app.update_styles = lambda node=None, **k: (
            restyled.append(node),
            update_styles(node, **k),
        )[1]  # type: ignore[method-assign]
        app.more = True
        app.refresh_bindings()  # a key more: the footer's line drawn again
        while [k.key for k in footer.keys] != ["a", "b"]:
            await pilot.pause()
        await pilot.pause()
        assert "b Second" in footer.text and not footer.children
        assert restyled == []


def playing_view(game: str) -> dict[str, Any]:
    """Seat 0's view of a fresh game, as the server sends it."""
    info = get_game(game)
    state = info.create(["Ann", "Bob", "Cy"], seed=3)
    view = {**state.view(0), "room": "r1", "status": "playing", "deadline_ms": 60_000}
    view["seats"] = [
        {**s, "connected": True, "bot": False, "autopilot": False} for s in view["seats"]
    ]
    return view


def without_clock(text: str) -> str:
    return re.sub(r"\d+ s left", "N s left", text)


class TableApp(App[None]):
    CSS_PATH = ClientApp.CSS_PATH
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, game: str) -> None:
        super().__init__()
        self.game = game

    def on_mount(self) -> None:
        table = client_game(self.game).table()
        self.push_screen(table("r1", 0, player="Ann"))


async def test_every_game_shown_the_same_view_again_lays_no_line_out():
    for game in ("modernart", "serengeti", "artsociety"):
        app = TableApp(game)
        async with app.run_test(size=(80, 24)) as pilot:
            table = app.screen
            view = playing_view(game)
            table.show(view, [])  # type: ignore[attr-defined]
            await pilot.pause()
            shown = screen_text(app)
            assert "Ann" in shown and "Bob" in shown, game
            calls: list[str] = []
            for widget in table.query("Static, LinePanel"):  # line panels too (tui/lines.py)
                spy(widget, calls)
            table.show(dict(view), [])  # type: ignore[attr-defined]
            assert "layout" not in calls, game
            await pilot.pause()
            # The same screen, but for the clock, which counted down meanwhile (a loaded
            # machine can take seconds between the two) and started again from the view.
            assert without_clock(screen_text(app)) == without_clock(shown), game


class Log(App[None]):
    CSS = "EventLog { height: 6; border: round white; }"

    def compose(self) -> ComposeResult:
        yield EventLog()


async def test_a_line_written_into_a_scrolling_log_lays_nothing_out_and_shows():
    app = Log()
    async with app.run_test(size=(40, 10)) as pilot:
        log = app.query_one(EventLog)
        for i in range(6):  # more than its four rows
            log.add_note(f"line {i}")
        await pilot.pause()
        assert log.show_vertical_scrollbar and log.max_scroll_y == 2
        layouts = log._layout_updates
        log.add_note("the newest line")  # it scrolls already: no layout
        assert log._layout_updates == layouts
        await pilot.pause()
        await pilot.pause()
        assert "the newest line" in screen_text(app)
        assert log.is_vertical_scroll_end and log.vertical_scrollbar.window_virtual_size == 7
