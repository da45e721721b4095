"""Each auction type's panel, driven by keys against a real server (R12–R16)."""

from __future__ import annotations

import pathlib

from tui_keys import log_text, text_of, until
from tui_table import seated_game

from modernart.tui.amount import AmountInput
from modernart.tui.modernart.auction import AuctionPanel
from modernart.tui.modernart.hand import Hand

ANN_SEAT = 1


def panel_text(app) -> str:
    panel = app.table.query_one(AuctionPanel)
    return text_of(panel.query_one("#state"))  # the lot's line, then its auction's


def entry(app) -> AmountInput:
    return app.table.query_one(AmountInput)


def entry_shown(app) -> bool:
    """The entry asks for an amount: its row is always there, blank and not focusable
    when it does not (issue 31: a row shown or hidden lays the screen out)."""
    return app.table.query_one("#entry").display and entry(app).asking


async def test_r12_open_auction_shout_quick_raise_and_hammer_clock(url, raw, tmp_path):
    async with seated_game(url, raw, tmp_path, ["lite_metal.open"]) as (app, pilot, bob, cy):
        await pilot.press("enter")  # the hand's cursor starts on the first playable card
        await until(pilot, lambda: app.table.view.get("phase") == "open")
        assert "Lite Metal · open · by you" in panel_text(app)
        assert entry_shown(app) and entry(app).has_focus and entry(app).value == "1"
        await bob.act(type="bid", amount=5)
        await until(pilot, lambda: "High bid: 5 by Bob" in panel_text(app))
        # The hammer runs after a shout: the clock is shown and ticks.
        clock = app.table.query_one("#clock")
        await until(pilot, lambda: "hammer in" in text_of(clock))
        assert entry(app).value == "6"  # the entry follows the minimum raise
        # The footer names both quick raises (+ and >) and H while they work; the players
        # box says what its A column is.
        shown = {b.key for (_, b, on, _) in app.screen.active_bindings.values() if on}
        assert {"plus", "greater_than_sign", "H"} <= shown
        assert "A auctioneer" in str(app.table.query_one("#players").border_subtitle)
        # Bounds are checked before anything is sent.
        await pilot.press("backspace", "3", "enter")
        assert "Bid at least 6" in text_of(app.table.query_one("#error"))
        # An error from the server is shown next to the entry.
        app.act({"type": "bid", "amount": 2})
        await until(pilot, lambda: "at least 6" in text_of(app.table.query_one("#error")))
        await pilot.press("plus")  # quick raise: the minimum, at once
        await until(pilot, lambda: "High bid: 6 by you" in panel_text(app))
        await bob.act(type="pass")
        await cy.act(type="pass")
        await until(pilot, lambda: app.table.view.get("phase") == "play")
        shown = {b.key for (_, b, on, _) in app.screen.active_bindings.values() if on}
        assert "greater_than_sign" not in shown  # no auction open: no raise in the footer
        assert "You bought your own Lite Metal for 6, paid to the bank" in log_text(app)
        assert app.table.view["money"] == 94


async def test_r13_once_around_turn_order_and_bid(url, raw, tmp_path: pathlib.Path):
    async with seated_game(url, raw, tmp_path, ["lite_metal.once_around"]) as (app, pilot, bob, cy):
        await pilot.press("enter")
        await until(pilot, lambda: app.table.view.get("phase") == "once_around")
        assert "Turn: Cy → Bob → you" in panel_text(app)
        assert not entry_shown(app)  # not Ann's turn yet
        await cy.act(type="bid", amount=3)
        await bob.act(type="pass")
        await until(pilot, lambda: "bid" in app.table.view.get("legal", {}))
        assert "Your turn" in panel_text(app) and entry(app).value == "4"
        await pilot.press("up", "enter")  # 4 + 1
        await until(pilot, lambda: app.table.view.get("phase") == "play")
        # The round of bids is one line (issue 19: a run of shouts, passes in it).
        assert "Bids: Cy 3, Bob passes, you 5" in log_text(app)
        assert "You bought your own Lite Metal for 5" in log_text(app)


async def test_r14_sealed_bid_is_secret_until_reveal(url, raw, tmp_path: pathlib.Path):
    async with seated_game(url, raw, tmp_path, ["lite_metal.sealed"]) as (app, pilot, bob, cy):
        await pilot.press("enter")
        await until(pilot, lambda: app.table.view.get("phase") == "sealed")
        assert entry(app).value == "" and entry(app).has_focus
        await pilot.press("9", "enter")
        await until(pilot, lambda: "Your secret bid: 9" in panel_text(app))
        await bob.act(type="sealed", amount=3)
        await until(pilot, lambda: "Bids in: 2/3; waiting for Cy" in panel_text(app))
        assert "Bob has sealed a bid" in log_text(app)
        await cy.act(type="sealed", amount=12)
        await until(pilot, lambda: app.table.view.get("phase") == "play")
        assert "Sealed bids: Bob 3, you 9, Cy 12" in log_text(app)
        assert "Cy bought Lite Metal for 12 from you" in log_text(app)


async def test_r15_fixed_price_set_then_buy_or_pass_in_turn(url, raw, tmp_path: pathlib.Path):
    async with seated_game(url, raw, tmp_path, ["lite_metal.fixed_price"]) as (app, pilot, bob, cy):
        await pilot.press("enter")
        await until(pilot, lambda: app.table.view.get("phase") == "price")
        assert "Name the fixed price" in panel_text(app)
        # Too much is refused beside the entry, in words that fit at 80 columns.
        note = app.table.query_one("#amount-note")
        await pilot.press("2", "0", "0")
        shown = text_of(note).strip()
        assert shown.endswith(str(entry(app).bounds[1])) and "max" in shown
        assert len(text_of(note).rstrip()) <= note.content_size.width
        await pilot.press("backspace", "backspace", "backspace", "1", "5", "enter")
        await until(pilot, lambda: app.table.view.get("phase") == "buy")
        assert "Price: 15" in panel_text(app) and "Asked: Cy → Bob" in panel_text(app)
        await cy.act(type="pass")
        await bob.act(type="buy")
        await until(pilot, lambda: app.table.view.get("phase") == "play")
        assert "You set the price at 15" in log_text(app)
        assert "Bob bought Lite Metal for 15 from you" in log_text(app)


async def test_r16_double_declined_then_added_by_another(url, raw, tmp_path: pathlib.Path):
    hand = ["lite_metal.open", "lite_metal.double"]
    async with seated_game(url, raw, tmp_path, hand) as (app, pilot, _bob, cy):
        await pilot.press("right", "enter")  # the double, second in the sorted hand
        await until(pilot, lambda: app.table.view.get("phase") == "offer")
        assert "Double Lite Metal" in panel_text(app)
        assert "Enter adds the chosen card; d declines" in panel_text(app)
        await pilot.press("d")
        await until(pilot, lambda: "add" not in app.table.view.get("legal", {}))
        assert "Offer: you → Cy → Bob" in panel_text(app)
        await cy.act(type="add", card="lite_metal.sealed")
        await until(pilot, lambda: app.table.view.get("phase") == "sealed")
        assert "Lite Metal ×2 · sealed · by Cy (with you)" in panel_text(app)
        assert "Cy adds Lite Metal (sealed) to the double" in log_text(app)


async def test_r14_digits_typed_before_the_focus_moves_start_the_bid(url, raw, tmp_path):
    """Keys typed the instant the sealed auction appears, while the hand still has the
    focus, are the bid's first digits: nothing typed is lost."""
    async with seated_game(url, raw, tmp_path, ["lite_metal.sealed"]) as (app, pilot, _bob, _cy):
        await pilot.press("enter")
        await until(pilot, lambda: app.table.view.get("phase") == "sealed")
        app.table.query_one(Hand).focus()  # as if the focus had not moved yet
        await pilot.pause()
        assert not entry(app).has_focus
        await pilot.press("1", "2")
        assert entry(app).has_focus and entry(app).value == "12"
        await pilot.press("enter")
        await until(pilot, lambda: "Your secret bid: 12" in panel_text(app))
