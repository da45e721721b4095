"""Art Society's presets in the client against a real server (ARTSOCIETY.md "Revision 2"):
the create dialog offers the registry's presets, `house_r1` among them with its help line,
and F1 at a `house_r1` room, before and after the start, says revision 1's values."""

from __future__ import annotations

import pathlib

from textual.widgets import Select
from tui_keys import shown, text_of, until

from modernart.engine.artsociety.rules import PRESETS
from modernart.engine.games import get_game
from modernart.tui.app import ClientApp
from modernart.tui.artsociety import ArtSocietyTable
from modernart.tui.help import HelpScreen
from modernart.tui.lobby import CreateRoomDialog
from modernart.tui.tokens import TokenStore


async def help_text(pilot, app: ClientApp) -> str:
    await pilot.press("f1")
    await until(pilot, lambda: shown(app, HelpScreen))
    text = app.screen.text
    await pilot.press("escape")
    return text


async def test_a_house_r1_room_from_the_create_dialog_says_revision_1s_values(url, tmp_path):
    info = get_game("artsociety")
    app = ClientApp(url, "Ann", tokens=TokenStore(pathlib.Path(tmp_path) / "tokens.json"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.lobby is not None and app.lobby.connection == "connected")
        await pilot.press("c")
        dialog = app.screen
        assert isinstance(dialog, CreateRoomDialog)
        dialog.query_one("#game", Select).value = "artsociety"
        await pilot.pause()
        variant = dialog.query_one("#variant", Select)
        assert [v for _, v in variant._options] == list(info.presets)
        assert "house_r1" in info.presets and variant.value == "house"
        variant.value = "house_r1"
        await pilot.pause()
        assert text_of(dialog.query_one("#variant-help")) == info.preset_help["house_r1"]
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.table, ArtSocietyTable) and app.seat == 0)
        assert app.table.room_info["variant"] == PRESETS["house_r1"].to_dict()
        waiting = await help_text(pilot, app)  # the waiting room: the room's variant
        assert "×5, ×3, ×2, ×1 (A23)" in waiting and "−3 per excess painting" in waiting
        await pilot.press("b", "b", "b")  # the dialog's 4 seats
        await until(pilot, lambda: all(s["name"] != "(free)" for s in app.table.view["seats"]))
        await until(pilot, lambda: app.table.view.get("host") == 0)
        await pilot.press("s")
        await until(pilot, lambda: "phase" in app.table.view)
        playing = await help_text(pilot, app)
        settings = playing.split("## House rules where the printed rules were unavailable")[1]
        assert "decor up to M shields (A18)" in settings and "×5, ×3, ×2, ×1 (A23)" in settings
