"""A table's lines are drawn once and only its changed rows repainted (issue 16, fifth
session: `tui/quiet.py` `Drawn`): the same rows again repaint nothing, a changed row is
repainted alone and shown exactly as Textual shows the table itself, and a table that
gains a row is laid out and gets it."""

from __future__ import annotations

from typing import Any

from rich.segment import Segment
from rich.table import Table
from rich.text import Text
from test_quiet_updates import TableApp
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import Static

from modernart.engine.games import get_game
from modernart.tui.quiet import Cell, Drawn, cached_cells, quiet_update


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


def unwrapped(table: Table) -> Table:
    """`table` with its cells as they were given (not through the cells' cache)."""
    for column in table.columns:
        column._cells[:] = [c.content if isinstance(c, Cell) else c for c in column._cells]
    return table


async def test_every_games_tables_drawn_through_the_caches_are_drawn_as_rich_draws_them():
    """A played game's views shown one after the other (seat 0's; the others' moves by
    random bots): after each, every table on the screen holds the lines Rich draws for
    it without the cells' cache, and the rows shown are those lines."""
    for game in ("serengeti",):  # the others draw line panels (tui/lines.py)
        info = get_game(game)
        state = info.create(["Ann", "Bob", "Cy"], seed=11)
        bots = [info.make_bot("random", seat) for seat in range(3)]
        app = TableApp(game)
        async with app.run_test(size=(80, 24)) as pilot:
            table, drawn = app.screen, 0
            for _ in range(40):
                if state.finished:
                    break
                view = {**state.view(0), "room": "r1", "status": "playing"}
                view["seats"] = [{**s, "connected": True} for s in view["seats"]]
                table.show(view, [])  # type: ignore[attr-defined]
                await pilot.pause()
                console, options = app.console, app.console_options.update(highlight=False)
                for widget in table.query(Static):
                    content = widget.content
                    if not isinstance(content, Drawn) or not widget.display:
                        continue
                    drawn += 1
                    width = content.width
                    rich = console.render(unwrapped(content.table), options.update(width=width))
                    split = Segment.split_and_crop_lines
                    lines = list(split(rich, width, include_new_lines=False, pad=False))
                    assert content.lines == lines, (game, widget.id)
                    assert widget.size.width == width, (game, widget.id)
                    shown = widget._render_cache.lines  # type: ignore[attr-defined]
                    rows = [Strip(x).text for x in lines][: widget.size.height]  # 1fr: cropped
                    assert [s.text for s in shown] == rows, (game, widget.id)
                    cached_cells(content.table)  # as it was
                to_act = state.to_act()
                action = bots[to_act[0]].choose(state.view(to_act[0])) if to_act else None
                if action is None:
                    break
                state.apply({**action, "seat": to_act[0]})
            assert drawn >= 30, game  # the tables were drawn through the caches
