"""Snapshots of the Serengeti table and its end screen (80×24, 120×40).

The games are the real engine played by seeded random bots (no server, no clocks), so
every picture is exact. Update with `pytest tests/tui --snapshot-update` and look at
the SVGs before committing them.
"""

from __future__ import annotations

from typing import Any

import pytest
from tui_offline import GAMES_ROOMS, OfflineLobbyApp
from tui_serengeti import ann_to_act, new_game, offline, play_until

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


@pytest.mark.parametrize("size", SIZES)
def test_s6_s7_s11_table_on_your_turn(snap_compare, size):
    """Auction 9: Ann's cards bar 0 1 4 6 7; the preview says whom each last digit pays."""
    game = new_game()
    app = offline(game)

    async def run(pilot: Any) -> None:
        history: list[dict[str, Any]] = []
        play_until(game, ann_to_act(7), history=history)
        app.push_view(history[-12:])
        await pilot.pause()
        await pilot.press("up")  # the next legal amount after the lowest
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_s7_refused_amount_says_why(snap_compare, size):
    """A barred last digit is refused under the entry, before anything is sent."""
    game = new_game()
    app = offline(game)

    async def run(pilot: Any) -> None:
        play_until(game, ann_to_act(7))
        app.push_view([])
        await pilot.pause()
        await pilot.press("1", "0", "enter")  # Ann owns a card with a 0
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_s15_s17_end_screen(snap_compare, size):
    """The scoring broken down: tribes (cards → points), most-chips bonus, tie-breaks."""
    game = new_game()
    app = offline(game)

    async def run(pilot: Any) -> None:
        before, events = play_until(game, lambda g: g.finished)
        app.push_view([], before)
        app.push_view(events)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_lobby_of_three_games(snap_compare, size):
    """Each room's game and its variant in that game's words."""
    app = OfflineLobbyApp(url="ws://offline/", name="Ann", rooms=GAMES_ROOMS)
    assert snap_compare(app, terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_create_dialog_for_serengeti(snap_compare, size):
    """The game chosen first: Serengeti's counts and presets, no shout window."""
    app = OfflineLobbyApp(url="ws://offline/", name="Ann")
    assert snap_compare(app, terminal_size=size, press=["c", "space", "down", "enter", "tab"])
