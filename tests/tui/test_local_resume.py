"""A local game survives quitting (issue 18): Ctrl+Q asks whether to keep it, and
`modernart --resume` (LocalGame.resumed) sits the player down at the same table."""

from __future__ import annotations

import pathlib

from tui_keys import shown, until

from modernart.tui.app import ClientApp
from modernart.tui.local import KeepGame, LocalGame

SLOW_BOTS = {"bot_delay_ms": 10_000, "shout_window_ms": 60_000}  # nothing moves meanwhile


async def test_a_kept_game_resumes_at_the_same_table_and_ending_it_forgets_it(
    tmp_path: pathlib.Path,
) -> None:
    kept = tmp_path / "kept"
    local = LocalGame(
        players=3, bot_level="random", options=SLOW_BOTS, data_dir=tmp_path / "play", keep_dir=kept
    )
    app = ClientApp(name="Ann", local=local)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.table is not None and app.table.view.get("round") == 1)
        hand, room = list(app.table.view["hand"]), app.room
        await pilot.press("ctrl+q")
        await until(pilot, lambda: shown(app, KeepGame))
        await pilot.press("escape")  # play on
        await until(pilot, lambda: not isinstance(app.screen, KeepGame))
        assert app.is_running
        await pilot.press("ctrl+q", "k")
    assert (kept / "game.json").exists()

    resumed = LocalGame.resumed(kept)
    assert resumed is not None
    again, name = resumed
    assert name == "Ann" and again.resuming
    app = ClientApp(name=name, local=again)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.table is not None and app.table.view.get("hand"))
        assert app.room == room and app.seat == 0
        assert app.table.view["hand"] == hand and app.table.view["round"] == 1
        names = [s["name"] for s in app.table.view["seats"]]
        assert names[0] == "Ann" and all(s["bot"] for s in app.table.view["seats"][1:])
        await pilot.press("ctrl+q", "e")  # end it: the kept game is gone
    assert not kept.exists()
    assert LocalGame.resumed(kept) is None


def test_resume_without_a_kept_game_says_so(monkeypatch, tmp_path, capsys):
    from modernart import cli
    from modernart.tui import local

    monkeypatch.setattr(local, "kept_dir", lambda: tmp_path / "none")
    assert cli.main(["--resume"]) == 2
    assert "no kept game" in capsys.readouterr().err
