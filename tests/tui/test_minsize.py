"""The size notice (tui/minsize.py) on screens that come and go."""

from __future__ import annotations

import pytest
from textual.screen import Screen
from tui_offline import OfflineApp

from modernart.engine.games import GAME_NAMES, get_game
from modernart.tui import gametable
from modernart.tui.minsize import SizeNotice, watch_size


def test_a_screen_taken_down_before_its_mount_gets_no_notice_and_no_error():
    """Issue 21's session churn: a session closed while its first screen mounted raised
    `MountError` from the lobby's `on_mount` (a traceback in the server's log per
    session); a screen no longer attached needs no notice."""
    screen: Screen[None] = Screen()
    assert not screen.is_attached
    watch_size(screen)
    assert not screen.query(SizeNotice)


def test_a_lobby_taken_down_before_its_widgets_mount_draws_nothing_and_raises_nothing():
    """Issue 33: a page that opens and drops at once closed its lobby before the lobby's
    widgets were there; `on_mount`'s lookup of its table raised `NoMatches`, a traceback
    in the server's log per page."""
    from modernart.tui.lobby import LobbyScreen

    lobby = LobbyScreen("Ann")
    lobby.on_mount()
    assert not lobby.query(SizeNotice)


@pytest.mark.parametrize("name", GAME_NAMES)
async def test_a_game_table_mounts_once(name, monkeypatch):
    """Textual runs each class's `on_mount` down the table's classes by itself: a table's
    own that called its base's too mounted the base twice (two size watchers a table)."""
    watched: list[Screen[None]] = []
    real = gametable.watch_size

    def counted(screen: Screen[None]) -> None:
        watched.append(screen)
        real(screen)

    monkeypatch.setattr(gametable, "watch_size", counted)
    app = OfflineApp(get_game(name).create(["Ann", "Bob", "Cy"], seed=3), seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert watched == [app.table]
