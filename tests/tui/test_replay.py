"""The replay viewer (issue 18): a whole recorded game of each game, stepped through
on that game's own table, and everything revealed at the end; snapshots at 80×24."""

from __future__ import annotations

import json
import re

import pytest
from replays import bot_record
from tui_keys import until

from modernart.engine import dump_record
from modernart.tui.modernart.style import card_name
from modernart.tui.replay import Replay, RevealScreen, ViewerApp, replay_table

GAMES = ["modernart", "serengeti", "artsociety"]


def at(app, step: int) -> bool:
    """The viewer shows `step`, drawn (a jump builds a fresh table)."""
    screen = app.screen
    return getattr(screen, "step", None) == step and bool(screen.view) and screen.is_mounted


def test_a_replay_holds_every_step_and_reveals_what_each_seat_hid():
    record = bot_record("modernart")
    replay = Replay(record)
    assert replay.last == len(record.actions)
    assert all(v["you"] is None and v["hand"] == [] for v, _ in replay.frames)  # public
    assert replay.frames[-1][0]["finished"]
    assert sorted(replay.rounds) == [1, 2, 3, 4] and replay.rounds[1] == 0
    revealed = replay.revealed().plain
    hand = replay.final.view(0)["hand"]
    assert "Ann" in revealed and all(card_name(card) in revealed for card in hand)


@pytest.mark.parametrize("game", GAMES)
async def test_the_viewer_steps_through_a_whole_game_and_shows_the_end(game):
    record = bot_record(game)
    app = ViewerApp(record)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.screen
        assert table.step == 0 and type(table).__name__.startswith("Replay")
        for step in range(len(record.actions)):  # the whole game, one action at a time
            table.action_step(1)
            if step % 20 == 0:
                await pilot.pause()  # let the table draw now and then
        await pilot.pause()
        assert isinstance(app.screen, RevealScreen)
        assert "Everything revealed" in str(app.screen.query_one(".title").render())
        await pilot.press("escape")
        table = app.screen
        assert table.step == len(record.actions) and table.view["finished"]
        assert table.view["winners"] == list(Replay(record).final.winners)
        await pilot.press("home")
        await until(pilot, lambda: at(app, 0))
        assert app.screen.view == Replay(record).frames[0][0]
        await pilot.press("left")  # nothing before the deal: a bell, no change
        await pilot.press("right", "right")
        await until(pilot, lambda: at(app, 2))
        await pilot.press("left")
        await until(pilot, lambda: at(app, 1))
        await pilot.press("end")
        await pilot.pause()
        assert isinstance(app.screen, RevealScreen)


async def test_a_digit_jumps_to_the_start_of_that_round():
    record = bot_record("modernart")
    replay = Replay(record)
    app = ViewerApp(record)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("3")
        await until(pilot, lambda: at(app, replay.rounds[3]))
        assert app.screen.step == replay.rounds[3] and app.screen.view["round"] == 3


def test_modernart_view_reads_a_record_file(tmp_path, monkeypatch):
    from modernart import cli

    path = tmp_path / "game.json"
    path.write_text(dump_record(bot_record("serengeti")), encoding="utf-8")
    shown = []
    monkeypatch.setattr(ViewerApp, "run", lambda self: shown.append(self.replay))
    assert cli.main(["view", str(path)]) == 0
    assert shown[0].record.game == "serengeti"
    path.write_text(json.dumps({"format": "nope"}), encoding="utf-8")
    assert cli.main(["view", str(path)]) == 2


@pytest.mark.parametrize("game", GAMES)
def test_snapshot_of_the_viewer_mid_game(snap_compare, game):
    record = bot_record(game)
    app = ViewerApp(record)

    async def forward(pilot):
        await pilot.pause()
        for step in range(len(record.actions) // 2):
            app.screen.action_step(1)
            if step % 20 == 0:
                await pilot.pause()
        await pilot.press("right")
        await pilot.pause()
        await pilot.pause()  # the log lays its last lines out

    assert snap_compare(app, terminal_size=(80, 24), run_before=forward)


def test_replay_table_is_the_games_own_table():
    from modernart.tui.games import client_game

    for game in GAMES:
        table = replay_table(Replay(bot_record(game)))
        assert isinstance(table, client_game(game).table())


# ------------------------------------------------------------------ issue 28


@pytest.mark.parametrize(
    ("game", "words"),
    [
        ("modernart", ["Hand: ", "Money: $"]),
        ("serengeti", ["Chips: "]),
        ("artsociety", ["Bid cards left: ", "White card: "]),
    ],
)
def test_everything_revealed_is_told_in_the_games_words_not_as_data(game, words):
    replay = Replay(bot_record(game))
    revealed = replay.revealed().plain
    for name in replay.record.players:
        assert f"{name}\n  {words[0]}" in revealed  # each seat's part under its name
    assert all(revealed.count(word) == len(replay.record.players) for word in words)
    # no card codes, lists, dicts or view keys (playtests #2: "payout preview: [[1, 2 …")
    assert not re.search(r"[\[\]{}_]|\w\.\w|payout", revealed), revealed


def screen_rows(app, widget) -> list[str]:
    """What `widget` shows, row by row, as drawn on screen."""
    box = widget.content_region
    rows = [strip.text for strip in app.screen._compositor.render_strips()]
    return [row[box.x : box.right] for row in rows[box.y : box.bottom]]


@pytest.mark.parametrize(
    ("game", "panel"), [("modernart", "#players"), ("serengeti", "#sg-players")]
)
async def test_the_replay_shows_every_seats_money_and_no_one_online(game, panel):
    """A finished record hides nothing: each seat's money (chips) shows at every step,
    not `?`; and a replay has no presence: no connection dot, only who was a bot."""
    record = bot_record(game)
    replay = Replay(record)
    step = replay.last // 2
    engine = record.new_game()  # the game at that step, by the engine
    for action in record.actions[:step]:
        engine.apply(action)
    amounts = engine.money if game == "modernart" else engine.chips
    app = ViewerApp(record)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.switch_screen(replay_table(replay, step))
        await until(pilot, lambda: at(app, step))
        await pilot.pause()
        rows = screen_rows(app, app.screen.query_one(panel))
        for seat, name in enumerate(record.players):
            row = next(r.split() for r in rows if name in r.split())
            assert str(amounts[seat]) in row and "?" not in row, (name, row)
            assert "●" not in row and ("bot" in row) == replay.bots[seat], (name, row)
