"""Redraws that change nothing are skipped (issue 16, third session): the lobby's table
given the same room list, the footer told of bindings that show the same keys. A
change is still drawn."""

from __future__ import annotations

import copy
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.geometry import Region

from modernart.tui.app import ClientApp
from modernart.tui.footer import Footer
from modernart.tui.lobby import LobbyScreen
from modernart.tui.rowlist import RowList


class LobbyApp(App[None]):
    CSS_PATH = ClientApp.CSS_PATH  # the lobby as laid out in the client

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


def spy(table: RowList, calls: list[Region | None]) -> None:
    """Note every repaint `table` asks for: a region (content-relative), or None for all."""
    refresh = table.refresh

    def noted(*regions: Region, **kwargs: Any) -> Any:
        calls.extend(regions or [None])
        return refresh(*regions, **kwargs)

    table.refresh = noted  # type: ignore[method-assign]


async def test_the_same_room_list_leaves_the_table_alone_and_a_change_is_drawn():
    app = LobbyApp()
    async with app.run_test(size=(120, 30)) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        table = lobby.query_one(RowList)
        rooms = [room("a1", "Ann's"), room("b2", "Bob's")]
        lobby.show_rooms(copy.deepcopy(rooms))
        table.move_cursor(1)
        await pilot.pause()
        calls: list[Region | None] = []
        spy(table, calls)
        lobby.show_rooms(copy.deepcopy(rooms))  # the same list, new objects (as pushed)
        assert calls == []
        rooms[0]["spectators"] = 2
        lobby.show_rooms(copy.deepcopy(rooms))  # one count changed: that row's line only
        assert [c.y if c else c for c in calls] == [1]  # line 0 is the header
        assert table.cells_at(0)[-1] == "2" and table.cursor_row == 1
        calls.clear()
        rooms.insert(0, room("c3", "Cat's"))  # a new room on top: every row moves down
        lobby.show_rooms(copy.deepcopy(rooms))
        assert sorted(c.y for c in calls if c) == [1, 2, 3]
        assert [table.cells_at(i)[0] for i in range(3)] == ["Cat's", "Ann's", "Bob's"]
        assert lobby.selected_room()["id"] == "b2"  # the cursor stays on its room
        assert table.cells_at(1)[-1] == "2"
        await pilot.pause()
        assert table.render_line(3).text.startswith("▶ Bob's")


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
