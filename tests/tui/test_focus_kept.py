"""Issue 28 (a README test that stood still for a newcomer): the focus stays on the entry
that asks for the player's amount whatever order Textual's news of hiding comes in."""

from __future__ import annotations

from textual import events
from tui_offline import NAMES, OfflineApp, hand_deck

from modernart.engine.modernart import Game
from modernart.tui.amount import AmountInput


async def test_r14_a_late_hide_of_the_shown_entry_leaves_it_the_focus():
    """A sale hid the entry, the next update (your sealed bid) showed it and focused it,
    then Textual's Hide from the refresh between came: the entry kept the focus, so ↑ and
    Enter bid (before: the focus went to the hand, and they did nothing)."""
    game = Game(NAMES, deck=hand_deck([["krypto.sealed"]]), first_auctioneer=0)
    app = OfflineApp(game, seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.act({"type": "play", "card": "krypto.sealed"})  # R14: a sealed auction
        await pilot.pause()
        entry = app.table.query_one(AmountInput)
        assert app.table.focused is entry
        entry.post_message(events.Hide())  # the late news of a hide already undone
        await pilot.pause()
        assert app.table.focused is entry
        await pilot.press("up", "enter")  # the lowest allowed: 0
        await pilot.pause()
        assert {"t": "act", "action": {"type": "sealed", "amount": 0}} in app.sent


async def test_an_entry_really_hidden_gives_its_focus_away():
    game = Game(NAMES, deck=hand_deck([["krypto.sealed"]]), first_auctioneer=0)
    app = OfflineApp(game, seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.act({"type": "play", "card": "krypto.sealed"})
        await pilot.pause()
        entry = app.table.query_one(AmountInput)
        assert app.table.focused is entry
        app.table.query_one("#entry").display = False
        await pilot.pause()
        assert app.table.focused is not entry
