"""Issue 28 (a README test that stood still for a newcomer): the focus stays on the entry
that asks for the player's amount whatever order Textual's news of hiding comes in."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from textual import events
from tui_keys import log_text, until
from tui_offline import NAMES, OfflineApp, hand_deck

from modernart.engine.modernart import Game
from modernart.tui.amount import AmountInput


@asynccontextmanager
async def auctioning(card: str) -> AsyncIterator[tuple[OfflineApp, Any]]:
    """Ann (seat 0, 80×24) has put `card` up for auction, the first of the game."""
    game = Game(NAMES, deck=hand_deck([[card]]), first_auctioneer=0)
    app = OfflineApp(game, seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.act({"type": "play", "card": card})
        await pilot.pause()
        yield app, pilot


async def test_r14_a_late_hide_of_the_shown_entry_leaves_it_the_focus():
    """A sale hid the entry, the next update (your sealed bid) showed it and focused it,
    then Textual's Hide from the refresh between came: the entry kept the focus, so ↑ and
    Enter bid (before: the focus went to the hand, and they did nothing)."""
    async with auctioning("krypto.sealed") as (app, pilot):  # R14: a sealed auction
        entry = app.table.query_one(AmountInput)
        assert app.table.focused is entry
        entry.post_message(events.Hide())  # the late news of a hide already undone
        await pilot.pause()
        assert app.table.focused is entry
        await pilot.press("up", "enter")  # the lowest allowed: 0
        await pilot.pause()
        assert {"t": "act", "action": {"type": "sealed", "amount": 0}} in app.sent


async def test_an_entry_really_hidden_gives_its_focus_away():
    async with auctioning("krypto.sealed") as (app, pilot):
        entry = app.table.query_one(AmountInput)
        assert app.table.focused is entry
        app.table.query_one("#entry").display = False
        await pilot.pause()
        assert app.table.focused is not entry


async def test_r12_a_digit_typed_over_the_same_suggestion_survives_a_shout():
    """Play-test (2026-12-03, late): "5" typed over an offered 5, then a bot's bid made the
    minimum 10: the entry showed 10 and the next "0" made a bid of 0. What the player typed
    stays, however it compares with what was offered."""
    deck = hand_deck([[], ["krypto.open"]])
    game = Game(NAMES, deck=deck, first_auctioneer=1)
    app = OfflineApp(game, seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.others({"seat": 1, "type": "play", "card": "krypto.open"})
        await pilot.pause()
        entry = app.table.query_one(AmountInput)
        assert app.table.focused is entry and entry.value == "1"  # R12: offered, selected
        await pilot.press("1")  # the same digit as the offer, typed over it
        app.others({"seat": 2, "type": "bid", "amount": 9})
        await pilot.pause()
        assert entry.value == "1"
        await pilot.press("5", "enter")
        await pilot.pause()
        assert {"t": "act", "action": {"type": "bid", "amount": 15}} in app.sent


async def test_r11_an_amount_typed_when_the_hammer_falls_is_said_not_sent():
    """Play-tests 2026-12-03 (late) #5: a bid typed as the hammer fell vanished without a
    word; the log says it was not sent (and nothing is)."""
    async with auctioning("krypto.open") as (app, pilot):  # R11: everyone may shout
        await pilot.press("1", "2")
        await until(pilot, lambda: app.table.query_one(AmountInput).value == "12")
        app.others({"type": "close"})  # the hammer, before any Enter
        await until(pilot, lambda: "12 was not sent" in log_text(app))
        assert not any(m["action"]["type"] == "bid" for m in app.sent if m["t"] == "act")
        app.others()  # the next news says it no more
        await pilot.pause()
        assert log_text(app).count("12 was not sent") == 1
