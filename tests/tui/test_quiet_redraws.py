"""Redraws that change nothing are skipped (issue 16, third session): the lobby's table
given the same room list, the footer told of bindings that show the same keys. A
change is still drawn."""

from __future__ import annotations

import copy
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable

from modernart.tui.footer import Footer
from modernart.tui.lobby import LobbyScreen


class LobbyApp(App[None]):
    def on_mount(self) -> None:
        self.push_screen(LobbyScreen("Ann"))


def room(rid: str, name: str, spectators: int = 0) -> dict[str, Any]:
    return {
        "id": rid,
        "name": name,
        "seats": 4,
        "seated": [name.split("'")[0], None, None, None],
        "status": "waiting",
        "variant": "classic",
        "spectators": spectators,
    }


def spy(table: DataTable[Any], calls: list[tuple[str, Any]]) -> None:
    """Note every clear, added row and updated cell of `table` (and do them)."""
    clear, add_row, update_cell = table.clear, table.add_row, table.update_cell
    table.clear = lambda *a, **k: (calls.append(("clear", None)), clear(*a, **k))[1]  # type: ignore[method-assign]
    table.add_row = lambda *a, **k: (calls.append(("add", k["key"])), add_row(*a, **k))[1]  # type: ignore[method-assign]
    table.update_cell = lambda r, c, v, **k: (  # type: ignore[method-assign]
        calls.append(("cell", (r, str(v)))),
        update_cell(r, c, v, **k),
    )[1]


def cells(table: DataTable[Any], row: int) -> list[str]:
    return [str(cell) for cell in table.get_row_at(row)]


async def test_the_same_room_list_leaves_the_table_alone_and_a_change_is_drawn():
    app = LobbyApp()
    async with app.run_test(size=(120, 30)) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        table = lobby.query_one(DataTable)
        rooms = [room("a1", "Ann's"), room("b2", "Bob's")]
        lobby.show_rooms(copy.deepcopy(rooms))
        table.move_cursor(row=1)
        await pilot.pause()
        calls: list[tuple[str, Any]] = []
        spy(table, calls)
        lobby.show_rooms(copy.deepcopy(rooms))  # the same list, new objects (as pushed)
        assert calls == []
        rooms[0]["spectators"] = 2
        lobby.show_rooms(copy.deepcopy(rooms))  # one count changed: that cell only
        assert calls == [("cell", ("a1", "2"))]
        assert cells(table, 0)[-1] == "2" and table.cursor_row == 1
        calls.clear()
        rooms.insert(0, room("c3", "Cat's"))  # a new room: every row again
        lobby.show_rooms(copy.deepcopy(rooms))
        assert calls == [("clear", None), ("add", "c3"), ("add", "a1"), ("add", "b2")]
        assert [cells(table, i)[0] for i in range(3)] == ["Cat's", "Ann's", "Bob's"]
        assert lobby.selected_room()["id"] == "b2"  # the cursor stays on its room
        assert cells(table, 1)[-1] == "2"


class Keys(App[None]):
    """A footer with two keys, the second shown only while `more` holds."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "first", "First"),
        Binding("b", "second", "Second"),
    ]
    ENABLE_COMMAND_PALETTE = False
    more = False

    def compose(self) -> ComposeResult:
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.more if action == "second" else True

    def action_first(self) -> None:
        pass

    def action_second(self) -> None:
        pass


async def test_the_footer_is_not_repainted_when_the_bindings_show_the_same():
    app = Keys()
    async with app.run_test(size=(80, 10)) as pilot:
        footer = app.query_one(Footer)
        while not footer.keys:
            await pilot.pause()
        assert [k.key for k in footer.keys] == ["a"]
        repaints: list[Any] = []
        refresh = footer.refresh
        footer.refresh = lambda *a, **k: (repaints.append(k), refresh(*a, **k))[1]  # type: ignore[method-assign]
        app.refresh_bindings()  # nothing shown changes: nothing drawn
        await pilot.pause()
        await pilot.pause()
        assert repaints == []
        app.more = True
        app.refresh_bindings()  # a key more: the line is drawn again
        while [k.key for k in footer.keys] != ["a", "b"]:
            await pilot.pause()
        assert repaints == [{}]  # repainted once, not laid out
        assert footer.text.rstrip() == "a First b Second"
