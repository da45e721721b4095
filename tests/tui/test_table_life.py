"""Issue 8, the table as a player lives it: identities, typing while others bid, the
round-ending card (R18), the log and its history, the turn clock, leaving. Real apps
under `run_test()` against a real in-process server."""

from __future__ import annotations

from tui_keys import log_text, text_of, until
from tui_table import deck_of, seated_game

from modernart.tui.amount import AmountInput
from modernart.tui.app import ClientApp
from modernart.tui.confirm import Confirm
from modernart.tui.eventlog import EventLog
from modernart.tui.modernart.hand import Hand
from modernart.tui.modernart.ledger import LedgerScreen
from modernart.tui.modernart.players import Players
from modernart.tui.modernart.summary import RoundSummary
from modernart.tui.tokens import TokenStore


def status(app: ClientApp) -> str:
    return text_of(app.screen.query_one("#status"))


def logged(app: ClientApp, line: str) -> bool:
    """`line` is in the log of the app's table (once the table is built)."""
    table = app.table
    return table is not None and table.is_mounted and line in log_text(app)


def footer_keys(app: ClientApp) -> set[str]:
    """The keys the footer offers now."""
    return {b.key for (_, b, enabled, _) in app.screen.active_bindings.values() if enabled}


async def test_two_names_from_one_config_directory_are_two_players(url, tmp_path):
    """Issue 8.1: a token is kept per server *and* name; B never takes over A's seat."""
    store = tmp_path / "config" / "tokens.json"
    ann = ClientApp(url, "Ann", tokens=TokenStore(store))
    bea = ClientApp(url, "Bea", tokens=TokenStore(store))
    async with ann.run_test(size=(80, 24)) as ann_pilot:
        await until(
            ann_pilot, lambda: ann.lobby is not None and ann.lobby.connection == "connected"
        )
        assert "you are Ann" in status(ann)
        ann.send({"t": "create", "seats": 3, "options": {"bot_delay_ms": 0}})
        await until(ann_pilot, lambda: ann.seat == 0 and ann.table.view.get("host") == 0)
        async with bea.run_test(size=(80, 24)) as bea_pilot:
            await until(bea_pilot, lambda: bea.lobby is not None and bea.lobby.rooms)
            assert "you are Bea" in status(bea)
            await bea_pilot.press("j")
            await until(bea_pilot, lambda: bea.seat == 1)
            names = lambda: [s["name"] for s in ann.table.view["seats"]]  # noqa: E731
            await until(ann_pilot, lambda: names()[:2] == ["Ann", "Bea"])
            await until(ann_pilot, lambda: logged(ann, "Bea took a seat"))  # issue 8.13
            await ann_pilot.press("b", "s")  # a bot in the last seat, start
            await until(bea_pilot, lambda: bea.table.view.get("round") == 1)
            await until(ann_pilot, lambda: ann.table.view.get("round") == 1)
            # Both still connected, each in their own seat, for a while of play.
            assert ann.seat == 0 and bea.seat == 1
            assert ann.connection.connected and bea.connection.connected
            assert ann.table.view["hand"] != bea.table.view["hand"]
            assert "Ann" in status(ann) and "Bea" in status(bea)
        kept = TokenStore(store)
        assert [name for _, name in kept.identities()] == ["Ann", "Bea"]
        assert kept.get(url, "Ann") != kept.get(url, "Bea")


async def test_a_bid_arriving_between_key_presses_keeps_what_is_typed(url, raw, tmp_path):
    """Issue 8.2 (R12): a shout never clobbers the player's typing; Enter refuses too low."""
    async with seated_game(url, raw, tmp_path, ["lite_metal.open"]) as (app, pilot, bob, cy):
        await pilot.press("enter")
        await until(pilot, lambda: app.table.view.get("phase") == "open")
        entry = app.table.query_one(AmountInput)
        note = app.table.query_one("#amount-note")
        await pilot.press("2")
        assert entry.value == "2"
        await bob.act(type="bid", amount=5)
        await until(pilot, lambda: (app.table.view.get("high") or {}).get("amount") == 5)
        assert entry.value == "2" and "✗ min 6" in text_of(note)
        await pilot.press("5")
        assert entry.value == "25" and text_of(note).strip() == ""
        await cy.act(type="bid", amount=30)
        await until(pilot, lambda: (app.table.view.get("high") or {}).get("amount") == 30)
        assert entry.value == "25" and "✗ min 31" in text_of(note)
        await pilot.press("enter")  # refused here: nothing is sent
        assert "Bid at least 31" in text_of(app.table.query_one("#error"))
        await pilot.press("backspace", "backspace", "3", "2", "enter")
        await until(pilot, lambda: (app.table.view.get("high") or {}).get("seat") == 1)
        assert app.table.view["high"]["amount"] == 32


async def test_r18_the_round_ending_card_is_marked_in_the_hand_and_told_in_the_log(
    url, raw, tmp_path
):
    """Issue 8.3 (R18): a 5th card is warned about before it is played and logged as ending
    the round, not as auctioned; the round summary shows the next turn's clock (8.7)."""
    deck = deck_of(
        bob=["yoko.open"],
        ann=["krypto.double", "krypto.open", "krypto.sealed", "lite_metal.open"],
        cy=["krypto.double", "krypto.once_around"],
    )
    async with seated_game(url, raw, tmp_path, [], deck=deck, turn_timeout_s=600) as (
        app,
        pilot,
        bob,
        cy,
    ):
        table = app.table

        async def all_pass() -> None:
            await until(pilot, lambda: table.view.get("phase") == "open")
            await pilot.press("p")
            await bob.act(type="pass")
            await cy.act(type="pass")
            await until(pilot, lambda: table.view.get("phase") == "play")

        app.act({"type": "play", "card": "krypto.double"})  # Krypto 1
        await until(pilot, lambda: "add" in table.view.get("legal", {}))
        app.act({"type": "add", "card": "krypto.open"})  # Krypto 2
        await all_pass()
        await cy.act(type="play", card="krypto.double")  # Krypto 3
        await until(pilot, lambda: table.view.get("counts", {}).get("krypto") == 3)
        # Ann could add a 4th: nothing ends yet, so nothing is marked.
        await cy.act(type="add", card="krypto.once_around")  # Krypto 4
        await until(pilot, lambda: table.view.get("phase") == "once_around")
        await bob.act(type="pass")
        await until(pilot, lambda: "pass" in table.view.get("legal", {}))
        await pilot.press("p")
        await cy.act(type="pass")
        await until(pilot, lambda: table.view.get("auctioneer") == 0)
        await bob.act(type="play", card="yoko.open")
        await all_pass()
        # Issue 8.5: this round's purchases as counts per artist, the turn marker kept.
        players = table.query_one(Players)
        shown = players.text
        assert "▶ A Ann" in shown and "KR2" in shown and "YO1" in shown
        # Ann's turn, four Krypto played: her Krypto is marked, the reason under the cursor.
        hand = table.query_one(Hand)
        await until(pilot, lambda: "play" in table.view.get("legal", {}) and hand.has_focus)
        assert set(hand.warnings) == {"krypto.sealed"}
        await pilot.press("end")
        assert hand.cards[hand.cursor] == "krypto.sealed"
        shown = hand.render().plain
        assert "*" in shown and "Krypto (sealed) · * the 5th: ends the round, unsold (R18)" in shown
        cards_row = shown.splitlines()[0].rstrip()
        assert cards_row.endswith("*]") and "[KR" in cards_row  # its mark and its bracket
        await pilot.press("home")
        assert "ends the round" not in hand.render().plain  # only for the card under the cursor
        await pilot.press("end", "enter")
        await until(pilot, lambda: isinstance(app.screen, RoundSummary))
        log = log_text(app)
        assert "You play Krypto (sealed), the 5th Krypto: it ends round 1, unsold" in log
        assert "You auction Krypto (sealed)" not in log
        assert "Round 1 ends" in log
        # The next auctioneer's clock keeps running behind the summary, and shows there.
        clock = app.screen.query_one("#summary-clock")
        await until(pilot, lambda: "s left" in text_of(clock))
        assert "Cy" in text_of(clock)
        # Who bought what in round 1 stays on record (H), with the bank's payments.
        await pilot.press("enter", "H")
        assert isinstance(app.screen, LedgerScreen)
        rows = {row[0]: row[1] for row in app.screen.ledger.rows(app.table.names)}
        assert rows["Ann"].startswith("KR2 +") and rows["Cy"].startswith("KR2 +")
        assert rows["Bob"].startswith("YO1 +")
        await pilot.press("escape")
        assert app.screen is app.table


async def test_log_scrolls_from_the_keyboard_and_holds_its_place(url, raw, tmp_path):
    """Issue 8.4: PgUp/PgDn scroll the log (shown in the footer); new lines do not yank
    a scrolled-back log to the end."""
    async with seated_game(url, raw, tmp_path, ["lite_metal.open"], size=(80, 24)) as (
        app,
        pilot,
        _bob,
        _cy,
    ):
        log = app.table.query_one(EventLog)
        for i in range(60):
            app.table.note(f"line {i}")
        await until(pilot, lambda: log.max_scroll_y > 10 and log.is_vertical_scroll_end)
        assert "pageup" in footer_keys(app)
        bottom = log.scroll_y
        await pilot.press("pageup")
        await until(pilot, lambda: log.scroll_y < bottom)
        back = log.scroll_y
        app.table.note("a new line")
        await pilot.pause()
        assert log.scroll_y == back  # still where the player is reading
        while not log.is_vertical_scroll_end:
            await pilot.press("pagedown")
        assert log.following
        # The log shrinks (a long hand wraps to a second row; here the terminal): new
        # lines still scroll into view.
        await pilot.resize_terminal(80, 22)
        await until(pilot, lambda: log.is_vertical_scroll_end)
        for i in range(40):
            app.table.note(f"a long line that wraps in the narrow log at 80 columns, number {i}")
            if i % 3 == 0:
                await pilot.pause()
        await until(pilot, lambda: log.is_vertical_scroll_end and "number 39" in log_text(app))
        await pilot.pause()
        assert log.is_vertical_scroll_end and log.following


async def test_history_after_a_reconnect_and_for_a_late_spectator(url, raw, tmp_path):
    """Issue 8.4: the room's public events come back on resume and reach a late spectator."""
    async with seated_game(url, raw, tmp_path, ["lite_metal.open"]) as (app, pilot, bob, cy):
        await pilot.press("enter")
        await until(pilot, lambda: app.table.view.get("phase") == "open")
        await bob.act(type="bid", amount=5)
        await until(pilot, lambda: "Bob bids 5" in log_text(app))
        # A dropped connection: Cy bids meanwhile; the log gets it once, after "back".
        await app.connection.drop()
        await cy.act(type="bid", amount=7)
        await until(pilot, lambda: "Cy bids 7" in log_text(app))
        assert log_text(app).count("Cy bids 7") == 1 and log_text(app).count("Bob bids 5") == 1
        dee = ClientApp(url, "Dee", tokens=TokenStore(tmp_path / "dee.json"))
        async with dee.run_test(size=(80, 24)) as dee_pilot:
            await until(dee_pilot, lambda: dee.lobby is not None and dee.lobby.rooms)
            await dee_pilot.press("w")
            await until(dee_pilot, lambda: logged(dee, "Cy bids 7"))
            watched = log_text(dee)
            assert "Ann auctions Lite Metal (open)" in watched and "Bob bids 5" in watched
            assert "watching" in status(dee)
        # A restarted client (same name, same token store) gets the history too.
    again = ClientApp(url, "Ann", tokens=TokenStore(tmp_path / "tokens.json"))
    async with again.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: logged(again, "Cy bids 7"))
        assert "You auction Lite Metal (open)" in log_text(again)


async def test_double_with_no_matching_card_says_so_and_offers_decline(url, raw, tmp_path):
    """Issue 8.8 (R16): no "Enter: add" when there is nothing to add."""
    async with seated_game(url, raw, tmp_path, ["lite_metal.double"]) as (app, pilot, _bob, _cy):
        await pilot.press("enter")
        await until(pilot, lambda: "decline" in app.table.view.get("legal", {}))
        hand = app.table.query_one(Hand)
        assert hand.border_subtitle == "no Lite Metal card to add · d declines"
        assert "enter" not in footer_keys(app) and "d" in footer_keys(app)
        await pilot.press("d")
        await until(pilot, lambda: "decline" not in app.table.view.get("legal", {}))


async def test_leaving_asks_first_and_others_read_left(url, raw, tmp_path):
    """Issue 8.10: L and Ctrl+Q ask during a game; the others are told "left"."""
    async with seated_game(url, raw, tmp_path, ["lite_metal.open"]) as (app, pilot, bob, _cy):
        await pilot.press("ctrl+q")
        assert isinstance(app.screen, Confirm)
        await pilot.press("n")
        assert app.screen is app.table and app.is_running
        await pilot.press("L")
        assert isinstance(app.screen, Confirm)
        await pilot.press("escape")
        assert app.screen is app.table and app.seat == 1
        await pilot.press("L", "y")
        await until(pilot, lambda: app.screen is app.lobby)
        update = await bob.wait_for("update", events=[{"type": "left", "seat": 1}])
        assert update["view"]["seats"][1]["connected"] is False


async def test_turn_clock_is_shown_on_your_turn_and_warns_at_ten_seconds(
    url, raw, tmp_path, monkeypatch
):
    """Issue 8.7: the remaining time when it is your turn, red and a bell at 10 s."""
    rings: list[int] = []
    # Heard from the app's start: on a loaded machine the warning (2 s into a 12 s
    # turn) may come before the table is seated and handed to the test.
    monkeypatch.setattr(ClientApp, "ring", lambda self: rings.append(1))
    async with seated_game(
        url, raw, tmp_path, ["lite_metal.open"], turn_timeout_s=12, size=(80, 24)
    ) as (app, pilot, _bob, _cy):
        clock = app.table.query_one("#clock")
        await until(pilot, lambda: "s left" in text_of(clock))
        # Whole in its row at 80 columns ("…played fo…" was cut, play-test 2026-12-05).
        assert clock.render_line(0).text.rstrip().endswith("s left; then a card is played")
        assert "YOUR TURN" in status(app)
        await until(pilot, lambda: rings, timeout=8)  # the warning at 10 s
        left = int(text_of(clock).split(" ")[0])
        assert left <= 10
        assert "red" in str(clock.content.style)


async def test_create_room_dialog_fits_80x24_and_works_by_keyboard_only(url, tmp_path):
    """Issue 8.6: every field and both buttons inside the screen; Tab, Enter, digits only."""
    from textual.widgets import Button

    from modernart.tui.lobby import CreateRoomDialog

    app = ClientApp(url, "Ann", tokens=TokenStore(tmp_path / "tokens.json"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.lobby and app.lobby.connection == "connected")
        await pilot.press("c")
        dialog = app.screen
        assert isinstance(dialog, CreateRoomDialog)
        await pilot.pause()
        screen = dialog.region
        for widget in dialog.query("Input, Select, Button, Label"):
            region = widget.region
            assert region.height >= 1 and screen.contains_region(region), widget
        assert {str(b.label) for b in dialog.query(Button)} == {"Create", "Cancel"}
        labels = {str(label.content) for label in dialog.query("Label")}
        assert "Shout window" in labels
        assert dialog.focused.id == "game"  # the game first: it decides the other fields
        await pilot.press("tab", *"Ann's", "tab")  # Modern Art; name, then seats
        assert dialog.focused.id == "seats"
        await pilot.press("space", "up", "enter", "tab")  # 4 → 3 seats; variant
        assert dialog.focused.id == "variant"
        await pilot.press("tab", "tab", "tab", "backspace", "8", "tab")  # password, clock; shout 8
        assert dialog.focused.id == "hints"  # beside the shout window (Modern Art's hints)
        await pilot.press("tab")
        assert dialog.focused.id == "create"
        await pilot.press("enter")
        await until(pilot, lambda: app.table is not None and app.table.room_info.get("name"))
        info = app.table.room_info
        assert info["name"] == "Ann's" and info["seats"] == 3
        assert info["options"]["shout_window_ms"] == 8000


async def test_a_stale_error_is_cleared_when_the_game_starts(url, tmp_path):
    """Issue 8.9: "every seat is taken" does not outlive the waiting room."""
    app = ClientApp(url, "Ann", tokens=TokenStore(tmp_path / "tokens.json"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.lobby and app.lobby.connection == "connected")
        app.send({"t": "create", "seats": 3, "options": {"bot_delay_ms": 10_000}})
        await until(pilot, lambda: app.table is not None and app.table.view.get("host") == 0)
        await pilot.press("b", "b")
        await until(pilot, lambda: all(not s.get("free") for s in app.table.view["seats"]))
        app.send({"t": "add_bot"})  # one too many
        error = app.table.query_one("#error")
        await until(pilot, lambda: "every seat is taken" in text_of(error))
        await pilot.press("s")
        await until(pilot, lambda: app.table.view.get("round") == 1)
        assert text_of(error) == ""


async def test_the_same_name_in_a_second_window_stops_the_first_instead_of_a_fight(url, tmp_path):
    """Issue 8.1: one name is one identity; the older window stops (close 4000) and says
    why, rather than reconnecting and throwing the newer one out, for ever."""
    store = tmp_path / "config" / "tokens.json"
    first = ClientApp(url, "Ann", tokens=TokenStore(store))
    second = ClientApp(url, "Ann", tokens=TokenStore(store))
    async with first.run_test(size=(80, 24)) as first_pilot:
        await until(first_pilot, lambda: first.lobby and first.lobby.connection == "connected")
        # The second window must find the first one's token (kept once `welcome` came).
        await until(first_pilot, lambda: TokenStore(store).get(url, "Ann") is not None)
        async with second.run_test(size=(80, 24)) as second_pilot:
            await until(second_pilot, lambda: second.lobby.connection == "connected")
            await until(first_pilot, lambda: first.lobby.connection == "replaced")
            error = text_of(first.lobby.query_one("#error"))
            assert "open in another window" in error and "another name" in error
            # The connection's worker has ended: nothing is left that could reconnect.
            await until(first_pilot, lambda: first.network.is_finished)
            assert first.lobby.connection == "replaced" and not first.connection.connected
            assert second.connection.connected and second.lobby.connection == "connected"
