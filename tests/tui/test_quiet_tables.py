"""A table's lines are drawn once and only its changed rows repainted (issue 16, fifth
session: `tui/quiet.py` `Drawn`): the same rows again repaint nothing, a changed row is
repainted alone and shown exactly as Textual shows the table itself, and a table that
gains a row is laid out and gets it."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.widgets import Static

from modernart.tui.quiet import Drawn, quiet_update


def table(rows: list[tuple[str, str]]) -> Table:
    grid = Table.grid(padding=(0, 1))
    grid.add_column(width=8, no_wrap=True)
    grid.add_column(justify="right")
    for name, money in rows:
        grid.add_row(Text(name, style="bold"), Text(money, style="green"))
    return grid


class Board(App[None]):
    CSS = "Static { border: round white; padding: 0 1; height: auto; }"

    def compose(self) -> ComposeResult:
        yield Static(id="board")


def spy(widget: Static, calls: list[tuple[tuple[Region, ...], bool]]) -> None:
    refresh = widget.refresh

    def noted(*regions: Region, **kwargs: Any) -> Any:
        calls.append((regions, bool(kwargs.get("layout"))))
        return refresh(*regions, **kwargs)

    widget.refresh = noted  # type: ignore[method-assign]


def screen(app: App[Any]) -> list[list[tuple[str, Any]]]:
    strips = app.screen._compositor.render_strips()  # type: ignore[attr-defined]
    return [[(seg.text, seg.style) for seg in strip] for strip in strips]


async def shown_by_textual(rows: list[tuple[str, str]]) -> list[list[tuple[str, Any]]]:
    """The screen of `Board` showing the table through Textual's own `Static.update`."""
    app = Board()
    async with app.run_test(size=(30, 8)) as pilot:
        app.query_one(Static).update(table(rows))
        await pilot.pause()
        return screen(app)


async def test_a_table_repaints_only_its_changed_rows_and_shows_what_textual_shows():
    rows = [("Ann", "12"), ("Bob", "7"), ("Cy", "30")]
    app = Board()
    async with app.run_test(size=(30, 8)) as pilot:
        board = app.query_one(Static)
        quiet_update(board, table(rows))  # not laid out yet: Textual's update
        await pilot.pause()
        quiet_update(board, table(rows))  # laid out now: drawn, and kept
        await pilot.pause()
        assert isinstance(board.content, Drawn)
        calls: list[tuple[tuple[Region, ...], bool]] = []
        spy(board, calls)
        quiet_update(board, table(rows))  # the same rows: nothing at all
        assert calls == []
        changed = [("Ann", "12"), ("Bob", "9"), ("Cy", "30")]
        quiet_update(board, table(changed))  # Bob's money: his row alone
        assert calls == [((Region(0, 1, board.size.width, 1),), False)]
        await pilot.pause()
        assert screen(app) == await shown_by_textual(changed)


async def test_a_table_that_gains_a_row_is_laid_out_and_shows_it():
    rows = [("Ann", "12"), ("Bob", "7")]
    app = Board()
    async with app.run_test(size=(30, 8)) as pilot:
        board = app.query_one(Static)
        board.update(table(rows))
        await pilot.pause()
        calls: list[tuple[tuple[Region, ...], bool]] = []
        spy(board, calls)
        more = [*rows, ("Cy", "30")]
        quiet_update(board, table(more))
        assert calls[-1] == ((), True)  # a layout
        await pilot.pause()
        assert board.size.height == 3
        assert screen(app) == await shown_by_textual(more)


async def test_a_table_drawn_at_another_width_is_drawn_anew():
    rows = [("Ann", "12"), ("Bob", "7")]
    app = Board()
    async with app.run_test(size=(30, 8)) as pilot:
        board = app.query_one(Static)
        board.update(table(rows))
        await pilot.pause()
        quiet_update(board, table([("Ann", "13"), ("Bob", "7")]))
        await pilot.pause()
        await pilot.resize_terminal(24, 8)  # the kept lines are 26 wide: not used
        await pilot.pause()
        async with Board().run_test(size=(24, 8)) as other_pilot:
            other = other_pilot.app
            other.query_one(Static).update(table([("Ann", "13"), ("Bob", "7")]))
            await other_pilot.pause()
            assert screen(app) == screen(other)
