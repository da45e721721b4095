"""The lobby's room list as cached lines (tui/rowlist.py, issue 31): what a list drawn
from its kept strips shows is what a list drawn from scratch shows, keys and clicks
move the cursor and select, cells are cut to their columns."""

from __future__ import annotations

import random

from rich.text import Text
from textual.app import App, ComposeResult

from modernart.tui.rowlist import RowList


class Lists(App[None]):
    """Two lists side by side: the one under test, and one drawn from scratch."""

    CSS = "RowList { height: 8; width: 40; border: round white; }"

    def __init__(self) -> None:
        super().__init__()
        self.selected: list[int] = []

    def compose(self) -> ComposeResult:
        yield RowList(id="kept")
        yield RowList(id="fresh")

    def on_row_list_selected(self, event: RowList.Selected) -> None:
        self.selected.append(event.row)


def lines(table: RowList) -> list[tuple[str, tuple]]:
    """What each line of `table` shows: its text and its cells' styles."""
    shown = []
    for y in range(table.scrollable_content_region.height):
        strip = table.render_line(y)
        shown.append((strip.text, tuple(seg.style for seg in strip)))
    return shown


def state(table: RowList) -> tuple:
    """What `table` shows and how it scrolls: the cursor, its lines, the scroll bar and
    its range (kept without a layout when the bar neither comes nor goes)."""
    bar = table.vertical_scrollbar.window_virtual_size if table.show_vertical_scrollbar else None
    return table.cursor_row, table.max_scroll_y, bar, lines(table)


def random_rows(rng: random.Random) -> list[list[Text | str]]:
    names = ["Ann", "Bob", "Friday night", "Club of the long names", "Solo"]
    return [
        [Text(rng.choice(names), style=rng.choice(["", "bold"])), f"{rng.randint(0, 4)}/4"]
        for _ in range(rng.randint(0, 12))
    ]


async def test_a_list_drawn_from_its_kept_lines_shows_what_a_fresh_one_shows():
    app = Lists()
    async with app.run_test(size=(90, 12)) as pilot:
        kept, fresh = app.query_one("#kept", RowList), app.query_one("#fresh", RowList)
        rng = random.Random(5)
        for step in range(30):
            kept.focus()  # (Textual focuses at its next turn)
            await pilot.pause()
            widths = rng.choice([None, (8, 3), (20, 5)])
            if step % 10 == 0:
                columns = (["Room", "Seats"], widths, rng.choice([1, 2]))
                kept.set_columns(*columns)
            rows = random_rows(rng)
            kept.set_rows(rows, cursor=rng.choice([None, rng.randint(0, 12)]))
            for key in rng.choices(["down", "up", "pagedown", "end", "home"], k=rng.randint(0, 3)):
                await pilot.press(key)
            app.set_focus(None)  # blurred, as the fresh one will be: the cursor's colours alike
            await pilot.pause()
            assert not kept.has_focus
            shown = state(kept)  # before anything else on the screen is laid out
            await fresh.remove()
            fresh = RowList(id="fresh")
            await app.mount(fresh)
            fresh.set_columns(*columns)
            fresh.set_rows(rows, cursor=kept.cursor_row)
            await pilot.pause()
            fresh.scroll_to(y=kept.scroll_offset.y, animate=False, immediate=True)
            await pilot.pause()
            assert shown == state(fresh), f"step {step}"


async def test_keys_move_the_marked_cursor_and_keep_it_in_sight_and_enter_selects():
    app = Lists()
    async with app.run_test(size=(90, 12)) as pilot:
        table = app.query_one("#kept", RowList)
        table.set_columns(["Room"], None, 1)
        table.set_rows([[f"room {i}"] for i in range(20)])
        table.focus()
        await pilot.pause()
        assert table.render_line(0).text.strip() == "Room"  # the header
        assert table.render_line(1).text.startswith("▶ room 0")
        await pilot.press("down", "down")
        assert table.cursor_row == 2
        assert table.render_line(3).text.startswith("▶ room 2")
        assert table.render_line(1).text.startswith("  room 0")
        await pilot.press("end")
        await pilot.pause()
        assert table.cursor_row == 19
        visible = table.scrollable_content_region.height - 1
        assert table.scroll_offset.y == 20 - visible  # the last row at the bottom
        assert table.render_line(visible).text.startswith("▶ room 19")
        assert table.render_line(0).text.strip() == "Room"  # the header stays on top
        await pilot.press("up", "up")  # the view stays at the bottom
        table.set_rows([[f"room {i}"] for i in range(19)])  # one fewer, the bar still shown
        await pilot.pause()
        assert table.cursor_row == 17 and table.scroll_offset.y == 19 - visible
        assert table.render_line(visible).text.startswith("  room 18")  # no blank line below
        table.set_rows([[f"room {i}"] for i in range(20)])
        await pilot.press("end")
        await pilot.press("pageup")
        assert table.cursor_row == 19 - visible
        await pilot.press("home", "up")  # past the top: stays on the first row
        assert table.cursor_row == 0 and table.scroll_offset.y == 0
        await pilot.press("enter")
        assert app.selected == [0]


async def test_a_click_highlights_a_row_and_a_click_on_the_highlighted_row_selects_it():
    app = Lists()
    async with app.run_test(size=(90, 12)) as pilot:
        table = app.query_one("#kept", RowList)
        table.set_columns(["Room"], None, 1)
        table.set_rows([["Ann's"], ["Bob's"], ["Cy's"]])
        await pilot.pause()
        top = table.gutter.top
        await pilot.click(table, offset=(3, top + 2))  # the second row (line 0: header)
        assert table.cursor_row == 1 and app.selected == []
        await pilot.click(table, offset=(3, top + 2))
        assert app.selected == [1]
        await pilot.click(table, offset=(3, top))  # the header: nothing
        assert table.cursor_row == 1 and app.selected == [1]


async def test_cells_are_cut_to_fixed_widths_and_columns_follow_their_widest_cell():
    app = Lists()
    async with app.run_test(size=(90, 12)) as pilot:
        table = app.query_one("#kept", RowList)
        table.set_columns(["Room", "Seats"], (6, 5), 1)
        table.set_rows([["Club of the long names", "3/4"]])
        await pilot.pause()
        assert table.render_line(1).text.rstrip() == "▶ Club … 3/4"
        assert table.render_line(0).text.rstrip() == "  Room   Seats"
        table.set_columns(["Table", "Seats"], (6, 5), 1)  # new names, the same widths
        await pilot.pause()
        assert table.render_line(0).text.rstrip() == "  Table  Seats"
        table.set_columns(["Room", "Seats"], None, 2)
        await pilot.pause()
        assert table.render_line(0).text.rstrip() == "  Room                    Seats"
        assert table.render_line(1).text.rstrip() == "▶ Club of the long names  3/4"
        table.set_rows([["Ann", "3/4"]])  # narrower cells: the columns follow
        await pilot.pause()
        assert table.render_line(1).text.rstrip() == "▶ Ann   3/4"
        assert table.cells_at(0) == ["Ann", "3/4"]
