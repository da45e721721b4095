"""Issue 28: the rematch in sight (the game-over dialog, the footer, F1, the status line, in
every game), spectators following the players into it, and a late spectator's log holding
what was said before. The real app, against the real engine or a real server."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from textual.screen import ModalScreen
from tui_keys import log_text, text_of, until
from tui_offline import OfflineApp

from modernart.engine.games import get_game
from modernart.engine.modernart.bots import make_bot
from modernart.tui.app import ClientApp
from modernart.tui.games import client_game
from modernart.tui.help import HelpScreen
from modernart.tui.rematch import RematchLine
from modernart.tui.tokens import TokenStore

NAMES = ["Ann", "Bob", "Cy"]
GAMES = ["modernart", "serengeti", "artsociety"]


def footer_keys(app: ClientApp) -> set[str]:
    """The keys the footer shows now (shown and enabled)."""
    return {
        b.key for (_, b, enabled, _) in app.screen.active_bindings.values() if enabled and b.show
    }


def status(app: ClientApp) -> str:
    return text_of(app.table.query_one("#status"))


def dialog_text(screen: ModalScreen[Any]) -> str:
    return " ".join(text_of(w) for w in screen.query("Static, LinePanel") if w.display)


async def played_out(app: OfflineApp, name: str, pilot: Any) -> None:
    """Random bots play every seat to the end; the round summaries are closed."""
    game = app.game
    bots = [get_game(name).make_bot("random", 7 + s) for s in range(len(NAMES))]
    while not game.finished:
        seat = game.to_act()[0]
        app.others({**bots[seat].choose(game.view(seat)), "seat": seat})
    await pilot.pause()
    while type(app.screen).__name__ == "RoundSummary":
        app.screen.dismiss(None)
        await pilot.pause()


@pytest.mark.parametrize("name", GAMES)
async def test_the_game_over_dialog_the_footer_and_f1_show_the_rematch(name: str) -> None:
    app = OfflineApp(get_game(name).create(NAMES, seed=5, first=0), seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await played_out(app, name, pilot)
        dialog = app.screen
        assert isinstance(dialog, ModalScreen) and "R: rematch" in dialog_text(dialog)
        # Bob accepts while the dialog is open: it says so at once.
        app.table.show_rematch(
            {"t": "rematch", "room": "r1", "humans": [0, 1], "accepted": [1], "declined": []}
        )
        await pilot.pause()
        assert "Rematch: Bob accepted (1 of 2); waiting for you" in dialog_text(dialog)
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is app.table)
        footer = [strip.text for strip in app.screen._compositor.render_strips()][-1]
        assert "R Rematch" in footer and "f1 Help" in footer  # at 80 columns, in every game
        assert "game over · rematch 1/2" in status(app)
        await pilot.press("R")
        assert app.sent[-1] == {"t": "rematch", "room": "r1", "accept": True}
        app.table.show_rematch(
            {"t": "rematch", "room": "r1", "humans": [0, 1], "accepted": [0, 1], "declined": []}
        )
        await pilot.pause()
        assert "R" not in footer_keys(app)
        assert "game over · rematch 2/2" in status(app)
        await pilot.press("D")  # takes it back (F1 and the log name the key)
        assert app.sent[-1] == {"t": "rematch", "room": "r1", "accept": False}
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert "**R** (at the table or in the game-over dialog)" in client_game(name).rules_text(
            None, "online"
        )


async def test_r_in_the_game_over_dialog_accepts_and_a_watcher_is_offered_no_keys() -> None:
    app = OfflineApp(get_game("serengeti").create(NAMES, seed=5, first=0), seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await played_out(app, "serengeti", pilot)
        await pilot.press("r")
        await until(pilot, lambda: app.screen is app.table)
        assert app.sent[-1] == {"t": "rematch", "room": "r1", "accept": True}
    watcher = OfflineApp(get_game("serengeti").create(NAMES, seed=5, first=0), seat=None)
    async with watcher.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await played_out(watcher, "serengeti", pilot)
        assert "R" not in footer_keys(watcher)
        watcher.table.show_rematch(
            {"t": "rematch", "room": "r1", "humans": [0, 1], "accepted": [0], "declined": []}
        )
        await pilot.pause()
        assert "Rematch: Ann accepted (1 of 2); waiting for Bob" in log_text(watcher)
        assert "R: accept" not in log_text(watcher)
        assert not list(watcher.table.query(RematchLine))
        assert "game over · rematch 1/2 · watching" in status(watcher)
        # Bob declines: the header says so (it kept "rematch 1/2" alone: play-tests 12-03).
        watcher.table.show_rematch(
            {"t": "rematch", "room": "r1", "humans": [0, 1], "accepted": [0], "declined": [1]}
        )
        await pilot.pause()
        assert "game over · rematch 1/2, 1 declined" in status(watcher)
        watcher.table.show_rematch(
            {"t": "rematch", "room": "r1", "humans": [0, 1], "accepted": [], "declined": [1]}
        )
        await pilot.pause()
        assert "game over · rematch 0/2, 1 declined" in status(watcher)


async def test_the_rematch_key_is_named_one_way_everywhere() -> None:
    """Play-tests 2026-12-03 evening #3: "r: rematch", "R Rematch" and "R: accept" were
    three names of one key; now the dialog, the log and the footer say "R" and "rematch",
    and R works in the dialog as at the table."""
    app = OfflineApp(get_game("artsociety").create(NAMES, seed=5, first=0), seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await played_out(app, "artsociety", pilot)
        dialog = app.screen
        assert isinstance(dialog, ModalScreen) and "R: rematch" in dialog_text(dialog)
        assert "r: rematch" not in dialog_text(dialog)
        app.table.show_rematch(
            {"t": "rematch", "room": "r1", "humans": [0, 1], "accepted": [1], "declined": []}
        )
        await pilot.pause()
        assert "waiting for you · R: rematch, D: decline" in log_text(app)
        assert "R: accept" not in log_text(app)
        await pilot.press("R")
        await until(pilot, lambda: app.screen is app.table)
        assert app.sent[-1] == {"t": "rematch", "room": "r1", "accept": True}


# ------------------------------------------------------------- on a real server


def last_update(client: Any) -> dict[str, Any]:
    return next(m for m in reversed(client.inbox) if m["t"] == "update")


async def play_out(client: Any, seed: int) -> None:
    """A raw client plays its Modern Art seat with a random bot until the game ends (an
    action gone stale is refused, and the next update brings a new choice)."""
    bot = make_bot("random", seed)
    while not (update := last_update(client))["view"]["finished"]:
        if update["view"]["legal"] and (action := bot.choose(update["view"])):
            await client.act(**action)
        async with asyncio.timeout(30):  # as RawClient.wait_for: the next update
            while last_update(client) is update:
                await asyncio.sleep(0.01)


async def table_of_two(raw: Any, chat: str = "") -> tuple[Any, Any, str]:
    """Bob (host) and Cy at a table with a bot, the game started; Bob says `chat` first."""
    bob, cy = await raw("Bob"), await raw("Cy")
    await bob.send("create", seats=3, name="ab-table", options={"shout_window_ms": 100})
    room = (await bob.wait_for("joined"))["room"]
    await cy.send("join", room=room)
    await cy.wait_for("joined")
    if chat:
        await bob.send("chat", text=chat)
        await cy.wait_for("chat", text=chat)
    await bob.send("add_bot")
    await bob.send("start")
    await bob.wait_for("update")
    await cy.wait_for("update")
    return bob, cy, room


async def watch(app: ClientApp, pilot: Any) -> None:
    await until(pilot, lambda: app.lobby is not None and app.lobby.rooms)
    await pilot.press("w")
    await until(pilot, lambda: app.table is not None and app.table.view.get("status"))


async def test_a_spectator_follows_the_players_into_the_rematch(url, raw, tmp_path):
    bob, cy, room = await table_of_two(raw)
    dee = ClientApp(url, "Dee", tokens=TokenStore(tmp_path / "dee.json"))
    async with dee.run_test(size=(120, 30)) as pilot:
        await watch(dee, pilot)
        await asyncio.gather(play_out(bob, 1), play_out(cy, 2))
        await until(pilot, lambda: dee.table.view.get("finished"))
        assert "game over" in status(dee) and dee.screen is dee.table
        await bob.send("rematch", room=room, accept=True)
        await until(
            pilot, lambda: "Rematch: Bob accepted (1 of 2); waiting for Cy" in log_text(dee)
        )
        assert "game over · rematch 1/2" in status(dee)
        await cy.send("rematch", room=room, accept=True)
        new_room = (await bob.wait_for("rematch", accepted=[0, 1]))["new_room"]
        await until(pilot, lambda: dee.room == new_room and dee.table.view.get("room") == new_room)
        assert "The players started a rematch: you watch it too (L leaves)." in log_text(dee)
        assert dee.table.view["status"] == "playing" and dee.table.view["you"] is None
        assert dee.watching == new_room
        await until(pilot, lambda: "room ab-table · rematch" in status(dee))
        assert "watching" in status(dee)


async def app_plays_out(app: ClientApp, pilot: Any, seed: int) -> None:
    """The app's player plays with a random bot (acting as its keys would) until the game
    ends; the round summaries wait in their queue, as for a player away from the keys."""
    bot, last = make_bot("random", seed), None
    async with asyncio.timeout(60):
        while not app.table.view.get("finished"):
            view = app.table.view
            if view is not last and view.get("legal") and (action := bot.choose(view)):
                app.act(action)
            last = view
            await pilot.pause(0.01)


async def test_a_player_answers_the_rematch_in_the_game_over_dialog(url, raw, tmp_path):
    """The real server's `rematch` reaches the open dialog; `r` there starts the rematch."""
    bob = await raw("Bob")
    await bob.send("create", seats=3, name="ab-table", options={"shout_window_ms": 100})
    room = (await bob.wait_for("joined"))["room"]
    app = ClientApp(url, "Ann", tokens=TokenStore(tmp_path / "ann.json"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.lobby is not None and app.lobby.rooms)
        await pilot.press("j")
        await until(pilot, lambda: app.seat == 1)
        await bob.send("add_bot")
        await bob.send("start")
        await until(pilot, lambda: app.table.view.get("status") == "playing")
        await asyncio.gather(play_out(bob, 1), app_plays_out(app, pilot, 2))
        while type(app.screen).__name__ == "RoundSummary":
            await pilot.press("enter")
            await pilot.pause()
        await until(pilot, lambda: type(app.screen).__name__ == "GameOver")
        dialog = app.screen
        assert "R: rematch" in dialog_text(dialog)
        await bob.send("rematch", room=room, accept=True)
        waiting = "Rematch: Bob accepted (1 of 2); waiting for you"
        await until(pilot, lambda: waiting in dialog_text(dialog))
        await pilot.press("r")
        new_room = (await bob.wait_for("rematch", accepted=[0, 1]))["new_room"]
        await until(pilot, lambda: app.room == new_room and app.table.view.get("room") == new_room)
        assert "Rematch: everyone accepted; the new game starts." in log_text(app)
        assert app.table.view["status"] == "playing" and app.table.view["you"] == 1
        assert app.table.room_info["name"] == "ab-table · rematch"
        # The purchases (H) are the rematch's alone: they gathered every game's rounds.
        rows = app.table.ledger.rows(app.table.names)
        assert [row[0] for row in rows] == app.table.names and all(len(r) <= 2 for r in rows)


async def test_a_late_spectator_reads_what_was_said_before(url, raw, tmp_path):
    bob, cy, _ = await table_of_two(raw, chat="good luck, Cy")
    await cy.send("chat", text="thanks, you too")
    await bob.wait_for("chat", text="thanks, you too")
    dee = ClientApp(url, "Dee", tokens=TokenStore(tmp_path / "dee.json"))
    async with dee.run_test(size=(80, 24)) as pilot:
        await watch(dee, pilot)
        await until(pilot, lambda: "<Cy> thanks, you too" in log_text(dee))
        text = log_text(dee)
        assert "Said here before you came in (the last 2):" in text
        assert text.index("<Bob> good luck, Cy") < text.index("<Cy> thanks, you too")
        # Said after Dee came in: once, live.
        await bob.send("chat", text="welcome, Dee")
        await until(pilot, lambda: "<Bob> welcome, Dee" in log_text(dee))
        assert log_text(dee).count("good luck, Cy") == 1
