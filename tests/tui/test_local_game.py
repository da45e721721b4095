"""`modernart` with no arguments: the real app, an in-process server and bots; keys only."""

from __future__ import annotations

import asyncio
import json
import pathlib
import subprocess
import sys

from rich.console import Console
from textual.widgets import Static
from tui_keys import keys_for, text_of, until

from modernart.tui.app import ClientApp
from modernart.tui.confirm import Confirm
from modernart.tui.local import LocalGame
from modernart.tui.modernart.summary import GameOver, RoundSummary
from modernart.tui.tokens import TokenStore


async def test_whole_game_against_bots_with_keys_only(tmp_path: pathlib.Path) -> None:
    """R6–R27 end to end: play four rounds by key presses; all money is revealed at the end."""
    local = LocalGame(
        players=3,
        bot_level="random",
        options={"bot_delay_ms": 0, "shout_window_ms": 100},
        dev=True,
        data_dir=tmp_path,
    )
    records = tmp_path / "records"
    app = ClientApp(name="Ann", local=local, records_dir=records)
    summaries = 0
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.table is not None and app.table.view.get("round") == 1)
        table = app.table
        assert table is not None and table.view["you"] == 0
        acted_on = None
        # A bound against a hang, not a speed check: a loaded machine needs minutes.
        try:
            async with asyncio.timeout(280):
                while not isinstance(app.screen, GameOver):
                    await pilot.pause(0.02)
                    if isinstance(app.screen, RoundSummary):
                        summaries += 1
                        await pilot.press("enter")
                        continue
                    seq = app.last_seq
                    if seq == acted_on:
                        continue
                    keys = keys_for(table.view)
                    if keys:
                        acted_on = seq
                        await pilot.press(*keys)
        except TimeoutError:
            raise AssertionError(
                f"stuck at seq {app.last_seq} (keys for {acted_on}: {keys_for(table.view)}), "
                f"legal {table.view.get('legal')}, focus {app.focused!r}, {app.screen_stack}"
            ) from None
        game_over = app.screen
        assert isinstance(game_over, GameOver)
        money = game_over.event["money"]
        assert len(money) == 3 and all(isinstance(m, int) for m in money)
        # R27: every seat's money is now in the view; R26: the winners hold the most.
        assert [s["money"] for s in table.view["seats"]] == money
        assert set(game_over.event["winners"]) == {s for s in range(3) if money[s] == max(money)}
        assert summaries == 4  # R19: four rounds, each summarised before the game end
        # Round 4's scoring is on the game-over screen too (R20–R24): a key press may have
        # passed its summary by.
        assert game_over.last_round is not None and game_over.last_round["round"] == 4
        console = Console(width=76, record=True, color_system=None)
        for part in game_over.query(Static):
            console.print(part.content)
        shown = console.export_text()
        assert "Round 4" in shown and "sold for" in shown and "round 4" in shown
        assert "sales" in shown
        # R23: a price with earlier rounds' values in it says so ("Yoko 80 = 20 + 60").
        values, tokens = game_over.last_round["values"], game_over.last_round["tokens"]
        for artist, value in values.items():
            if value and value != tokens.get(artist, value):
                assert f" {value} = {tokens[artist]} + {value - tokens[artist]}" in shown
        sales = game_over.last_round["sales"]
        assert all(f"+{amount}" in shown for amount in sales)
        await pilot.press("s")  # save the record of this game (RECORD.md)
        await until(pilot, lambda: any(records.glob("*.json")))
        (saved,) = records.glob("*.json")
        replayed = subprocess.run(
            [sys.executable, "-m", "modernart.cli", "replay", str(saved)],
            capture_output=True,
            text=True,
        )
        assert replayed.returncode == 0, replayed.stderr
        result = json.loads(replayed.stdout)
        assert result["finished"] is True and result["money"] == money
        await pilot.press("enter")
        assert app.screen is table
        assert table.view["finished"] is True
        # Playtests #3: the game against bots has no lobby: `L` says so and asks first.
        await pilot.press("L")
        assert isinstance(app.screen, Confirm)
        assert "no lobby" in " ".join(text_of(s) for s in app.screen.query(Static))
        await pilot.press("n")
        assert app.screen is table and not app._exit
        await pilot.press("L", "y")
        await until(pilot, lambda: app._exit)


async def test_a_remote_record_is_not_given_mid_game(url, raw, tmp_path: pathlib.Path) -> None:
    """PROTOCOL.md secrecy: a record holds the deck, so the server gives it only once the game
    is over (issue 18; after the game: tests/tui/test_players_tui.py)."""
    records = tmp_path / "records"
    app = ClientApp(url, "Ann", tokens=TokenStore(tmp_path / "t.json"), records_dir=records)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.lobby is not None and app.lobby.connection == "connected")
        bob = await raw("Bob")
        await bob.send("create", seats=3)
        await bob.wait_for("joined")
        app.send({"t": "join", "room": bob.room})
        await until(pilot, lambda: app.table is not None and app.seat == 1)
        app.save_record()
        assert app._saving == bob.room
        await until(pilot, lambda: app._saving is None)  # refused: not over yet
        assert not records.exists()


async def test_quick_bots_in_a_local_game_start_the_game(tmp_path: pathlib.Path) -> None:
    """Issue 8.12: `--bot-delay` below a public server's floor is the player's own choice."""
    local = LocalGame(players=3, options={"bot_delay_ms": 100}, data_dir=tmp_path)
    app = ClientApp(name="Ann", local=local)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.table is not None and app.table.view.get("round") == 1)
        assert app.table.room_info["options"]["bot_delay_ms"] == 100
