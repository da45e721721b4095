"""Issue 19, the rest of the newcomer's play-test, one test per finding: the create dialog,
small terminals and the log's wrapping, watching a locked room, connecting to nothing,
words, Art Society's bid cards (A10, A11), a run of shouts in one line (R12). The real
app under `run_test()` against a real in-process server, or the real engine offline."""

from __future__ import annotations

import contextlib
import socket

from artsociety_offline import NAMES, ArtSocietyOffline
from rich.text import Text
from textual.widgets import Select, Static
from tui_keys import log_text, text_of, until
from tui_table import seated_game

from modernart.engine.artsociety.state import ArtSociety
from modernart.engine.games import GAME_NAMES, get_game
from modernart.tui.app import ClientApp
from modernart.tui.artsociety import ArtSocietyTable
from modernart.tui.artsociety.narrate import narrate as art_narrate
from modernart.tui.botpick import bot_choices
from modernart.tui.confirm import Confirm
from modernart.tui.eventlog import EventLog
from modernart.tui.games import client_game, lobby_help
from modernart.tui.help import HelpScreen
from modernart.tui.lobby import CreateRoomDialog, PasswordDialog
from modernart.tui.local import LocalGame
from modernart.tui.minsize import SizeNotice
from modernart.tui.tokens import TokenStore
from modernart.tui.words import capital


def lobby_app(url: str, tmp_path, name: str = "Ann") -> ClientApp:
    return ClientApp(url, name, tokens=TokenStore(tmp_path / "tokens.json"))


# ------------------------------------------------------------------ create dialog


async def test_create_dialog_enter_on_game_creates_and_every_word_is_readable(url, tmp_path):
    """Enter on the Game field creates (as the hint says), not opens the list; "Hints"
    and its "on" apart; Art Society's `*` explained in the dialog; no file named in a
    preset's help; the turn clock's default said and sent, a private room's too."""
    app = lobby_app(url, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.lobby and app.lobby.connection == "connected")
        await pilot.press("c")
        dialog = app.screen
        assert isinstance(dialog, CreateRoomDialog)
        await pilot.pause()
        label, hints = dialog.query_one("#hints-label"), dialog.query_one("#hints", Select)
        assert label.region.right + 1 <= hints.region.x + 1 and str(label.content) == "Hints"
        assert text_of(label).strip() == "Hints" and label.region.width > len("  Hints")
        # Under Modern Art the star is an aside about the list (play-test 2026-12-05: as
        # "*Art Society: …" it read as Modern Art's caveat); Art Society chosen, its own.
        caveat = text_of(dialog.query_one("#caveats", Static))
        assert caveat == f"(Art Society*: {get_game('artsociety').caveat})", caveat
        dialog.query_one("#game", Select).value = "artsociety"
        await until(pilot, lambda: text_of(dialog.query_one("#caveats", Static))[0] == "*")
        caveat = text_of(dialog.query_one("#caveats", Static))
        assert caveat == f"*Art Society: {get_game('artsociety').caveat}", caveat
        dialog.query_one("#game", Select).value = "modernart"
        await until(pilot, lambda: text_of(dialog.query_one("#caveats", Static))[0] == "(")
        assert "default 90" in str(dialog.query_one("#clock-unit").content)
        for widget in dialog.query("Input, Select, Button, Label, Static"):
            assert dialog.region.contains_region(widget.region) or not widget.display, widget
        await pilot.press("tab", "tab", "tab", "tab", *"tulip", "shift+tab", "shift+tab")
        await pilot.press("shift+tab", "shift+tab")
        assert dialog.focused.id == "game"
        await pilot.press("enter")
        await until(pilot, lambda: app.table is not None and app.table.room_info.get("id"))
        assert app.table.room_info["locked"] is True
        assert app.table.room_info["options"]["turn_timeout_s"] == 90


def test_no_preset_help_names_a_file_the_players_do_not_have():
    for name in GAME_NAMES:
        for line in get_game(name).preset_help.values():
            assert ".md" not in line, line


# ------------------------------------------------------------------ small terminals


async def test_below_80x24_the_screen_says_what_size_it_needs_and_comes_back(url, raw, tmp_path):
    async with seated_game(url, raw, tmp_path, ["lite_metal.open"], size=(60, 20)) as (
        app,
        pilot,
        _bob,
        _cy,
    ):
        notice = app.table.query_one(SizeNotice)
        assert notice.display
        words = text_of(notice)
        assert "at least 80×24" in words and "60×20" in words
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: not notice.display)


async def test_the_log_wraps_again_after_a_resize(url, raw, tmp_path):
    async with seated_game(url, raw, tmp_path, ["lite_metal.open"], size=(80, 24)) as (
        app,
        pilot,
        _bob,
        _cy,
    ):
        log = app.table.query_one(EventLog)
        long = "word " * 40
        log.add_note(long.strip())
        await pilot.pause()
        narrow = len(log.lines)
        await pilot.resize_terminal(140, 30)
        await until(pilot, lambda: len(log.lines) < narrow)
        width = log.scrollable_content_region.width
        assert all(strip.cell_length <= width for strip in log.lines)
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: len(log.lines) == narrow)


# ------------------------------------------------------------------ spectators


async def test_w_on_a_locked_room_asks_the_password_and_a_wrong_one_says_so(url, raw, tmp_path):
    bob = await raw("Bob")
    await bob.send("create", seats=3, name="Locked", password="tulip")
    await bob.wait_for("joined")
    app = lobby_app(url, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.lobby is not None and app.lobby.rooms)
        await pilot.press("w")
        assert isinstance(app.screen, PasswordDialog)
        await pilot.press(*"tulpi", "enter")
        error = app.lobby.query_one("#error")
        await until(pilot, lambda: "wrong password" in text_of(error))
        await pilot.press("w")
        await pilot.press(*"tulip", "enter")
        await until(pilot, lambda: app.table is not None and app.seat is None)


# ------------------------------------------------------------------ connecting


async def test_connecting_to_a_closed_port_says_so_and_how_to_fix_it(tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = lobby_app(f"ws://127.0.0.1:{port}/", tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        error = app.lobby.query_one("#error")
        await until(pilot, lambda: "nothing answers" in text_of(error))
        words = text_of(error)
        assert f"127.0.0.1:{port}" in words and f"modernart-server --port {port}" in words
        assert "Connect call failed" not in words
        hint = text_of(app.lobby.query_one("#lobby-hint"))
        assert "No rooms yet" not in hint and "Not connected" in hint


# ------------------------------------------------------------------ words


def test_names_keep_the_case_their_players_typed():
    assert capital("alice") == "alice"
    assert capital("you") == "You" and capital("you, alice") == "You, alice"


def test_a_local_game_is_not_named_after_the_default_name():
    for name in GAME_NAMES:
        msg = LocalGame(3 if name != "modernart" else 4, None, None, game=name).create_message()
        assert msg["name"] == f"{get_game(name).title} against bots"


def test_the_footers_quick_raise_says_what_the_help_says():
    from modernart.tui.modernart.table import TableScreen

    label = next(b.description for b in TableScreen.BINDINGS if b.key == "greater_than_sign")
    assert label == "Min+4"
    assert "Min+4" in client_game("modernart").rules_text()


def test_the_bot_level_picker_is_in_level_order_random_last():
    levels = [level for level, _ in bot_choices(get_game("modernart"))]
    assert levels == ["easy", "normal", "hard", "expert", "random"]


def test_help_lists_every_games_presets_and_bot_levels(capsys):
    from modernart.cli import main

    with contextlib.suppress(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for name in GAME_NAMES:
        info = get_game(name)
        assert info.title in out
        for preset in info.presets:
            assert preset in out
        for level in info.bots:
            assert level in out


def test_f1_offers_only_the_options_that_work_where_the_player_is():
    game = client_game("artsociety")
    assert "--bot-delay" in game.rules_text(where="local")
    online = game.rules_text(where="online")
    assert "--bot-delay" not in online and "modernart identities" in online
    ssh = game.rules_text(where="ssh")
    assert "--bot-delay" not in ssh and "identities" not in ssh


async def test_f1_in_the_lobby_offers_every_games_rules(url, tmp_path):
    app = lobby_app(url, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.lobby and app.lobby.connection == "connected")
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
    text = lobby_help("online")
    for name in GAME_NAMES:
        assert get_game(name).rules.partition("\n")[0] in text


# ------------------------------------------------------------------ Art Society bids


def bidding(table: ArtSocietyTable) -> bool:
    return "bid" in table.legal


async def test_a10_bid_cards_go_round_at_the_ends_and_only_an_unchosen_far_card_asks() -> None:
    """The cursor goes round at the ends; Home and End jump there (issue 28). A far card
    moved to on purpose is bid at once; Enter on the card the cursor starts on (your
    lowest) or went round to, far from the card chosen last, asks first
    (docs/decisions/28-artsoc.md, 28-tui.md)."""
    from test_artsociety_screens import play_until

    app = ArtSocietyOffline(ArtSociety(NAMES, seed=3))

    def bids() -> list[dict]:
        return [m for m in app.sent if m.get("t") == "act" and m["action"]["type"] == "bid"]

    async with app.run_test(size=(80, 24)) as pilot:
        table = await play_until(pilot, app, bidding)
        cards = table.legal["bid"]
        # At the lowest card ← goes round to the highest, as every list does (play-tests
        # 2026-12-03 evening #9); reached by going round, a far card asks first.
        await pilot.press("left")
        assert cards[table.pointer] == cards[-1]
        await pilot.press("enter")
        assert isinstance(app.screen, Confirm)
        await pilot.press("n")
        assert not bids()
        await pilot.press("right")  # and → at the highest round to the lowest
        assert cards[table.pointer] == cards[0]
        await pilot.press("end")
        assert cards[table.pointer] == cards[-1]
        await pilot.press("home")
        assert cards[table.pointer] == cards[0]
        for _ in range(len(cards) - 1):
            await pilot.press("right")
        assert cards[table.pointer] == cards[-1]
        await pilot.press("enter")  # the highest card, moved to on purpose: no question
        assert not isinstance(app.screen, Confirm)
        assert [b["action"]["card"] for b in bids()] == [cards[-1]]
        table = await play_until(pilot, app, bidding)
        low = table.legal["bid"][table.pointer]
        assert low == min(table.legal["bid"]) and cards[-1] - low >= 8
        await pilot.press("enter")  # the starting card, far from the last chosen: asked
        assert isinstance(app.screen, Confirm)
        await pilot.press("n")
        assert "bid" in table.legal and len(bids()) == 1
        await pilot.press("enter", "y")
        assert [b["action"]["card"] for b in bids()] == [cards[-1], low]


def test_a11_the_reveal_tells_the_tie_rule_when_bids_are_equal():
    names = ["Ann", "Bob", "Cy"]
    tied = {"type": "reveal", "bids": [7, 7, 3], "order": [1, 0, 2]}
    assert "cards beneath decide" in art_narrate(tied, names, 0)
    assert "white cards (A11)" in art_narrate(tied, names, 0)
    plain = {"type": "reveal", "bids": [7, 5, 3], "order": [0, 1, 2]}
    assert "A11" not in art_narrate(plain, names, 0)


# ------------------------------------------------------------------ a run of shouts


async def test_r12_a_run_of_shouts_is_one_line_that_grows(url, raw, tmp_path):
    async with seated_game(url, raw, tmp_path, ["lite_metal.open"]) as (app, pilot, bob, cy):
        await pilot.press("enter")  # Ann auctions the open Lite Metal
        await until(pilot, lambda: app.table.view.get("phase") == "open")
        for amount, who in ((2, bob), (3, cy), (4, bob), (5, cy)):
            await who.act(type="bid", amount=amount)
            await until(
                pilot, lambda a=amount: (app.table.view.get("high") or {}).get("amount") == a
            )
        await until(pilot, lambda: "Bids: Bob 2, Cy 3, Bob 4, Cy 5" in log_text(app))
        await bob.act(type="pass")
        await until(pilot, lambda: "Bids: Bob 2, Cy 3, Bob 4, Cy 5, Bob passes" in log_text(app))
        log = app.table.query_one(EventLog)
        told = [str(e) for e in log.entries]
        assert sum("Bob bids" in line or "Bids:" in line for line in told) == 1
        assert isinstance(log.entries[-1], Text)
        for n in range(80):  # PgUp, typing an amount or not, goes back a whole page
            log.add_note(f"line {n}")
        await pilot.pause()
        end = log.max_scroll_y
        await pilot.press("pageup")
        await until(pilot, lambda: log.scroll_y <= end - (log.scrollable_content_region.height - 1))
        assert not log.following


# ------------------------------------------------------------------ cut at 80 columns


def screen_rows(app) -> list[str]:
    """The terminal's rows as the compositor draws them (what the player sees)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


async def test_art_societys_waiting_room_footer_keeps_quit_and_help_at_80(url, tmp_path):
    app = lobby_app(url, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.lobby and app.lobby.connection == "connected")
        app.room_game = "artsociety"
        app.send({"t": "create", "game": "artsociety", "seats": 3})
        await until(
            pilot, lambda: app.table is not None and app.table.view.get("host") == 0, timeout=30
        )
        await pilot.pause()
        footer = screen_rows(app)[-1]
        assert "^q Quit" in footer and "f1 Help" in footer, footer
        assert "Move" not in footer and "Walls" not in footer


def test_the_lobby_lists_whole_names_and_counts_the_rest():
    from modernart.tui.roomrows import fit_names

    assert fit_names(["alice", "bob", "Hugo (H)"], 14) == "alice, bob +1"
    assert fit_names(["alice", "bob"], 14) == "alice, bob"
    assert len(fit_names(["Bartholomew the Great", "bob"], 14)) <= 14


async def test_other_walls_show_whole_bot_names_and_scores_apart() -> None:
    app = ArtSocietyOffline(ArtSociety(["Ann", "Vera (H)", "Hugo (H)"], seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        rows = screen_rows(app)
        assert any("Vera (H)" in row and "Hugo (H)" in row for row in rows), rows
        assert any(row.count(" pts") >= 2 for row in rows), rows


async def test_a_sealed_bid_over_the_maximum_says_the_maximum_in_full_at_80(url, raw, tmp_path):
    async with seated_game(url, raw, tmp_path, ["lite_metal.sealed"], size=(80, 24)) as (
        app,
        pilot,
        _bob,
        _cy,
    ):
        await pilot.press("enter")  # Ann auctions the sealed Lite Metal: everyone bids
        await until(pilot, lambda: "sealed" in app.table.legal)
        high = app.table.legal["sealed"][1]
        await pilot.press("backspace", "backspace", "backspace", *"999")
        await until(pilot, lambda: any(f"✗ max {high}" in row for row in screen_rows(app)))


async def test_coming_back_to_your_seat_in_a_locked_room_asks_no_password(url, raw, tmp_path):
    app = lobby_app(url, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.lobby and app.lobby.connection == "connected")
        app.send({"t": "create", "seats": 3, "password": "tulip", "options": {"takeover_s": 0}})
        await until(pilot, lambda: app.table is not None and app.table.view.get("host") == 0)
        for _ in range(2):
            await pilot.press("b")
        await pilot.press("s")
        await until(pilot, lambda: app.table.view.get("status") == "playing")
        await pilot.press("L", "y")
        await until(pilot, lambda: app.screen is app.lobby and app.lobby.rooms)
        await pilot.press("j")
        assert not isinstance(app.screen, PasswordDialog)
        await until(pilot, lambda: app.table is not None and app.seat == 0)
