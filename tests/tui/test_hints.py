"""The hint key (issue 12): `?` says what the hard bot would do from your own view and
why; a room's host may turn hints off for everyone. Real apps under `run_test()`
against a real in-process server."""

from __future__ import annotations

from typing import Any

from tui_keys import log_text, until
from tui_offline import OfflineApp
from tui_serengeti import ann_to_act, offline, play_until
from tui_serengeti import new_game as serengeti_game

from modernart.engine.games import get_game
from modernart.tui.app import ClientApp
from modernart.tui.modernart.style import card_name
from modernart.tui.rowlist import RowList
from modernart.tui.tokens import TokenStore


def footer_keys(app: ClientApp) -> set[str]:
    return {b.key for (_, b, enabled, _) in app.screen.active_bindings.values() if enabled}


async def start_against_bots(app: ClientApp, pilot, **options) -> None:
    """Ann hosts three seats with two hard bots; she auctions first (R7)."""
    await until(pilot, lambda: app.lobby is not None and app.lobby.connection == "connected")
    opts = {"bot_delay_ms": 0, "first_auctioneer": 0, **options}
    app.send({"t": "create", "seats": 3, "options": opts})
    await until(pilot, lambda: app.table is not None and app.table.view.get("host") == 0)
    app.send({"t": "add_bot", "level": "hard"})
    app.send({"t": "add_bot", "level": "hard"})
    await until(pilot, lambda: all(s["name"] != "(free)" for s in app.table.view["seats"]))
    await pilot.press("s")
    await until(pilot, lambda: "play" in (app.table.view.get("legal") or {}))


async def test_hint_key_suggests_a_legal_move_with_its_reason_and_sends_nothing(url, tmp_path):
    app = ClientApp(url, "Ann", tokens=TokenStore(tmp_path / "tokens.json"))
    async with app.run_test(size=(80, 24)) as pilot:
        await start_against_bots(app, pilot)
        assert "question_mark" in footer_keys(app)
        seq, legal = app.table.view.get("seq"), app.table.view["legal"]
        actions = len(app.table.view.get("seats") or [])
        await pilot.press("question_mark")
        await until(pilot, lambda: "Hint: Play" in log_text(app))
        line = next(x for x in log_text(app).splitlines() if "Hint: Play" in x)
        # The suggestion is one of Ann's own legal cards, with a reason in money.
        assert any(card_name(c) in line for c in legal["play"])
        # Issue: the number is the projected end-of-round value, not the board's "now".
        assert "$" in line and "projected end-of-round value of a" in line
        # Only a suggestion: still Ann's turn, nothing was played.
        assert app.table.view["legal"] == legal and app.table.view.get("seq") == seq
        assert len(app.table.view.get("seats") or []) == actions
        assert "played" not in log_text(app)


async def test_host_turns_hints_off_the_key_is_hidden_and_refused(url, tmp_path):
    app = ClientApp(url, "Ann", tokens=TokenStore(tmp_path / "tokens.json"))
    async with app.run_test(size=(120, 40)) as pilot:
        await start_against_bots(app, pilot, hints=False)
        assert "question_mark" not in footer_keys(app)
        legal = app.table.view["legal"]
        await pilot.press("question_mark", "t", *"zebra", "enter")  # then a chat line
        await until(pilot, lambda: "zebra" in log_text(app))
        assert "Hint:" not in log_text(app) and app.table.view["legal"] == legal


async def test_lobby_shows_a_room_without_hints(url, raw, tmp_path):
    app = ClientApp(url, "Ann", tokens=TokenStore(tmp_path / "tokens.json"))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.lobby is not None and app.lobby.connection == "connected")
        bob = await raw("Bob")
        await bob.send("create", seats=3, name="Quiet", options={"hints": False})
        await bob.wait_for("joined")
        await until(pilot, lambda: len(app.lobby.rooms) == 1)
        row = app.lobby.query_one(RowList).cells_at(0)
        assert row[0] == "Quiet" and row[5].endswith("no hints")


async def test_create_dialog_turns_hints_off(url, tmp_path):
    app = ClientApp(url, "Ann", tokens=TokenStore(tmp_path / "tokens.json"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.lobby is not None and app.lobby.connection == "connected")
        await pilot.press("c")
        # game, name, seats, variant, password, turn clock, shout → hints
        await pilot.press(*["tab"] * 7)
        assert app.screen.focused is not None and app.screen.focused.id == "hints"
        await pilot.press("space", "down", "enter", "ctrl+s")
        await until(pilot, lambda: app.table is not None and app.table.room_info.get("options"))
        assert app.table.room_info["options"]["hints"] is False


async def _hint_at_a_table(app: Any) -> tuple[str, dict]:
    """At the player's decision in the offline `app`, `?`: the hint line and `legal`."""
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        legal, view = app.table.legal, app.table.view
        assert legal and "question_mark" in footer_keys(app)  # bound (unlisted in the footer)
        await pilot.press("question_mark")
        await until(pilot, lambda: "Hint:" in log_text(app))
        line = next(x for x in log_text(app).split("Hint:")[1:])
        # Only a suggestion: still the player's decision, nothing was sent.
        assert app.table.view is view and app.sent == []
        return line, legal


async def test_serengeti_hint_names_a_legal_move_and_its_reason():
    game = serengeti_game()
    play_until(game, ann_to_act(2))
    line, legal = await _hint_at_a_table(offline(game))
    words = line.split()
    if words[0] == "Bid":  # one of Ann's legal amounts (S7)
        assert int(words[1].rstrip(":")) in legal["bid"]
    else:
        assert words[0] == "Pass:"
    assert "points" in line and "chips" in line


async def test_artsociety_hint_names_a_legal_move_and_its_reason():
    game = get_game("artsociety").create(["Ann", "Bob", "Cy"], seed=3)
    line, legal = await _hint_at_a_table(OfflineApp(game, seat=0))
    # Art Society begins by hanging the starting painting (A7): the hint says where.
    words = line.split()
    assert words[:5] == ["Hang", "your", "starting", "painting", "at"]
    assert words[5].rstrip(":") in legal["place"][0]["cells"]
    assert "(A7)" in line
