"""The size notice (tui/minsize.py) on screens that come and go."""

from __future__ import annotations

from textual.screen import Screen

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
