"""Issue 28: the end screens of rounds and of the game come one at a time, in the order of
the events, for a player who pressed no key; a watcher gets none (the log tells them)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from rich.text import Text
from textual.screen import ModalScreen
from tui_keys import log_text, until
from tui_offline import OfflineApp

from modernart.engine.games import get_game
from modernart.tui.help import HelpScreen
from modernart.tui.lines import LinePanel
from modernart.tui.modernart.summary import RoundSummary

NAMES = ["Ann", "Bob", "Cy"]


def whole_game(app: OfflineApp, game: Any, name: str) -> None:
    """Random bots play every seat to the end; each act reaches the app as one update."""
    bots = [get_game(name).make_bot("random", 7 + s) for s in range(len(NAMES))]
    while not game.finished:
        seat = game.to_act()[0]
        app.others({**bots[seat].choose(game.view(seat)), "seat": seat})


@asynccontextmanager
async def after_whole_game(name: str, seat: int | None = 0) -> AsyncIterator[tuple[Any, Any]]:
    """`name` played to its end by random bots, `seat`'s app (None: a watcher's) at 80×24."""
    game = get_game(name).create(NAMES, seed=5, first=0)
    app = OfflineApp(game, seat=seat)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        whole_game(app, game, name)
        await pilot.pause()
        yield app, pilot


async def close_dialogs(app: OfflineApp, pilot: Any, kind: type = ModalScreen) -> list[Any]:
    """Dismiss the screens on top in turn while they are `kind`: the screens closed."""
    closed = []
    while isinstance(app.screen, kind):
        closed.append(app.screen)
        app.screen.dismiss(None)
        await pilot.pause()
    return closed


async def test_r20_round_summaries_then_the_game_over_in_the_order_of_the_events() -> None:
    """Modern Art has a dialog per round (R20) and one at the end (R26): a player who
    pressed no key meets round 1's first, then 2, 3, 4, and the game's end last."""
    async with after_whole_game("modernart") as (app, pilot):
        closed = await close_dialogs(app, pilot)
        shown = [(type(s).__name__, getattr(s, "event", {}).get("round")) for s in closed]
        rounds = [("RoundSummary", r) for r in range(1, 5)]
        assert shown in ([*rounds, ("GameOver", None)], [*rounds, ("GameOver", 4)])


@pytest.mark.parametrize("name", ["serengeti", "artsociety"])
async def test_the_games_end_is_shown_once_to_a_player(name: str) -> None:
    async with after_whole_game(name) as (app, pilot):
        shown = [type(screen).__name__ for screen in await close_dialogs(app, pilot)]
        assert shown == [{"serengeti": "SerengetiOver", "artsociety": "ArtSocietyEnd"}[name]]


@pytest.mark.parametrize("name", ["modernart", "serengeti", "artsociety"])
async def test_a_watcher_gets_no_dialogs(name: str) -> None:
    async with after_whole_game(name, seat=None) as (app, _):
        assert not isinstance(app.screen, ModalScreen)
        assert app.screen is app.table


async def test_a_round_summarys_clock_tick_after_it_was_closed_changes_nothing() -> None:
    """The summary's clock ticks each second (R20's summary over a running turn clock): a
    tick already due when Enter closed it ran on a screen whose rows were gone and raised
    (`NoMatches`), ending the player's app. Found by a benchmark's player closing it."""
    game = get_game("modernart").create(NAMES, seed=5, first=0)
    app = OfflineApp(game, seat=0)
    event = {"type": "round_end", "round": 1, "sales": [0, 0, 0]}
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        summary = RoundSummary(event, NAMES, [[], [], []], lambda first: Text(first + "9 s"))
        app.push_screen(summary)
        await pilot.pause()
        assert "Your turn next: 9 s" in summary.query_one("#summary-clock", LinePanel).text
        await pilot.press("enter")
        assert app.screen is app.table
        summary._tick()  # the tick its timer had already queued
        await pilot.pause()
        assert app.screen is app.table and app.is_running


async def test_r20_a_rounds_summary_closed_does_not_offer_the_games_review() -> None:
    """The review is of a finished game (`a` does nothing before): its line in the log
    came when round 1's summary closed (play-test, 2026-12-05)."""
    game = get_game("modernart").create(NAMES, seed=5, first=0)
    app = OfflineApp(game, seat=0)
    bots = [get_game("modernart").make_bot("random", 7 + s) for s in range(len(NAMES))]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        while not isinstance(app.screen, RoundSummary):
            seat = game.to_act()[0]
            app.others({**bots[seat].choose(game.view(seat)), "seat": seat})
            await pilot.pause()
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is app.table)
        assert "Round 1" in log_text(app) and "expert's review" not in log_text(app)


@pytest.mark.parametrize("name", ["modernart", "serengeti", "artsociety"])
async def test_f1_opens_the_help_over_the_games_end_and_f1_closes_it(name: str) -> None:
    """Textual leaves the app's keys out under a modal screen, so F1 over the final scores
    did nothing (play-test, 2026-12-03); the help opens over any dialog of ours, and F1
    closes it again, back to the dialog."""
    async with after_whole_game(name) as (app, pilot):
        if name == "modernart":  # round 4's summary first: F1 works over it too
            await pilot.press("f1")
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("f1")
            assert isinstance(app.screen, RoundSummary)
            await close_dialogs(app, pilot, RoundSummary)
        end = app.screen
        assert isinstance(end, ModalScreen) and not isinstance(end, RoundSummary)
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        assert "Help" in str(app.screen.query_one("#help-scroll").border_title)
        await pilot.press("f1")
        assert app.screen is end
