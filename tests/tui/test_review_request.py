"""Asking for a finished game's review from the client (issue 32): `a` in past games
shows the review's progress (decision k of n) while the server computes it, then
opens the game in the replay viewer; asked again, it opens at once (stored)."""

from __future__ import annotations

import asyncio
import functools
import os

import pytest
from server.reviewhold import held_part, release, unblock
from test_players_tui import make_app, store_finished_game, viewing
from test_rematch_in_sight import GAMES, NAMES, dialog_text, played_out
from textual.app import App
from textual.screen import ModalScreen
from textual.widgets import DataTable
from tui_keys import log_text, shown, text_of, until
from tui_offline import OfflineApp

from modernart.engine.games import get_game
from modernart.server.rooms.botpool import BotPool
from modernart.tui.people import PastGamesScreen
from modernart.tui.reviewing import ReviewWait, review_summary


async def test_review_from_past_games_shows_progress_then_the_viewer(server, url, tmp_path):
    fifo = tmp_path / "hold"
    os.mkfifo(fifo)
    reviewer = server.hub.reviews
    reviewer.worlds = 1
    reviewer.work = functools.partial(held_part, str(fifo))  # the first part waits for us
    server.hub.bots.review_initializer = None  # normal priority beside a busy suite's tests
    app = make_app(url, tmp_path)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.lobby is not None and app.you is not None)
            room = store_finished_game(server, app.you, "Ann")
            await pilot.press("p")
            await until(pilot, lambda: shown(app, PastGamesScreen) and app.screen.games)
            assert app.screen.query_one(DataTable).row_count == 1
            assert "a: review" in text_of(app.screen.query_one("#people-hint"))
            await pilot.press("a")
            await until(pilot, lambda: shown(app, ReviewWait) and app.screen.done is not None)
            wait = app.screen
            total = wait.done[1]
            progress = lambda: text_of(wait.query_one("#review-progress"))  # noqa: E731
            assert wait.done == (0, total) and progress() == f"{total} decisions to review"
            await asyncio.to_thread(release, fifo)
            await until(pilot, lambda: viewing(app), timeout=120)
            # The last progress shown before the review came: some decisions, not all.
            assert 0 < wait.done[0] < total and wait.done[1] == total
            assert app.screen.replay.record.extra["room"] == room
            assert app.screen.replay.marks is not None  # the viewer shows the review
            review = app.review_of[room]
            assert len(review["decisions"]) == total and review["worlds"] == 1
            assert review_summary(review).startswith("The expert's review: ")
            await pilot.press("q")
            await until(pilot, lambda: shown(app, PastGamesScreen))
            await pilot.press("a")  # known now: the viewer at once
            await until(pilot, lambda: viewing(app))
            assert reviewer.computed == 1
    finally:
        unblock(fifo)


async def test_workers_start_inside_a_textual_app():
    # A local game's server runs inside the client's Textual app, whose stderr has no
    # file descriptor: multiprocessing's resource tracker could not start there, so
    # neither the review worker nor an expert bot's worker did.
    app = App()
    async with app.run_test():
        pool = BotPool(workers=1)
        try:
            assert await pool.submit(os.getpid) != os.getpid()
            assert await pool.submit_review(os.getpid) != os.getpid()
        finally:
            pool.close()


@pytest.mark.parametrize("name", GAMES)
async def test_a_at_the_table_after_the_dialog_closed_asks_too(name: str) -> None:
    """Play-test (late): once the game-over dialog was closed, no key at the table asked
    for the review."""
    app = OfflineApp(get_game(name).create(NAMES, seed=5, first=0), seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await played_out(app, name, pilot)
        await pilot.press("enter")  # closes the game-over dialog
        await until(pilot, lambda: app.screen is app.table)
        assert log_text(app).count("a: the expert's review of this game") == 1
        app.table.after_game_over(None)  # the dialog closed again (Art Society: e, Enter)
        assert log_text(app).count("a: the expert's review of this game") == 1
        await pilot.press("a")
        await until(pilot, lambda: shown(app, ReviewWait))
        assert app.sent[-1] == {"t": "review", "room": "r1"}


@pytest.mark.parametrize("name", GAMES)
async def test_a_in_the_game_over_dialog_asks_and_shows_the_progress(name: str) -> None:
    app = OfflineApp(get_game(name).create(NAMES, seed=5, first=0), seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await played_out(app, name, pilot)
        dialog = app.screen
        assert isinstance(dialog, ModalScreen) and "a: review" in dialog_text(dialog)
        await pilot.press("a")
        await until(pilot, lambda: shown(app, ReviewWait))
        assert app.sent[-1] == {"t": "review", "room": "r1"}
        rid = len(app.sent)
        wait = app.screen
        app._on_reviewing({"t": "reviewing", "re": rid, "room": "r1", "done": 0, "total": 60})
        await until(pilot, lambda: "60 decisions to review" in dialog_text(wait))
        app._on_reviewing({"t": "reviewing", "re": rid, "room": "r1", "done": 9, "total": 60})
        await until(pilot, lambda: "Decision 9 of 60 reviewed" in dialog_text(wait))
        review = {"worlds": 16, "decisions": [{"seat": 0, "step": 0, "mark": "blunder"}]}
        app._on_review({"t": "review", "re": rid, "room": "r1", "review": review})
        # The review is kept and the record asked for: its answer opens the viewer.
        await until(pilot, lambda: app.sent[-1] == {"t": "record", "room": "r1"})
        assert app.review_of["r1"] == review
        await until(pilot, lambda: app.screen is dialog)  # the dialog is still there
