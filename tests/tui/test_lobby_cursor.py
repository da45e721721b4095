"""The lobby's cursor (playtests #5): it has a mark, and back from a room it is on the
newest room, not on the room just left. The real app against a real server."""

from __future__ import annotations

from tui_keys import until

from modernart.tui.app import ClientApp
from modernart.tui.rowlist import RowList
from modernart.tui.tokens import TokenStore


def marks(table: RowList) -> list[str]:
    """Each row's mark, as drawn (its first cell; line 0 is the header)."""
    return [table.render_line(1 + row).text[:1] for row in range(table.row_count)]


async def test_back_from_a_room_the_marked_cursor_is_on_the_newest_room(url, raw, tmp_path):
    bob = await raw("Bob")
    await bob.send("create", seats=3, name="Old table")
    await bob.wait_for("joined")
    app = ClientApp(url, "Ann", tokens=TokenStore(tmp_path / "tokens.json"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.lobby is not None and len(app.lobby.rooms) == 1)
        table = app.lobby.query_one(RowList)
        assert marks(table) == ["▶"]
        await pilot.press("enter")  # join Old table
        await until(pilot, lambda: app.table is not None and app.seat == 1)
        cy = await raw("Cy")
        await cy.send("create", seats=3, name="New table")  # on top of the list: newest
        await cy.wait_for("joined")
        await pilot.press("L")  # a waiting room: back to the lobby at once
        await until(pilot, lambda: app.table is None and app.screen is app.lobby)
        await until(pilot, lambda: len(app.lobby.rooms) == 2)  # the list asked for on return
        names = [str(r.get("name")) for r in app.lobby.rooms]
        assert names == ["New table", "Old table"]
        assert app.lobby.selected_room()["name"] == "New table"
        assert marks(table) == ["▶", " "]
        await pilot.press("down")
        assert marks(table) == [" ", "▶"]
        await pilot.press("up", "enter")
        await until(pilot, lambda: app.table is not None and app.table.room_info.get("name"))
        assert app.table.room_info["name"] == "New table"
