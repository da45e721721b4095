"""The event log while the player reads back (playtests #8): news is counted in its
subtitle, PgDn as often as PgUp comes back, and End jumps to the latest line (the
hand's End otherwise). The real table of an offline game under `run_test()`."""

from __future__ import annotations

from tui_offline import NAMES, OfflineApp, hand_deck

from modernart.engine.modernart import Game
from modernart.tui.eventlog import EventLog
from modernart.tui.modernart.hand import Hand

HAND = ["lite_metal.open", "krypto.sealed", "yoko.double", "christin_p.fixed_price"]


async def test_reading_back_counts_news_and_end_jumps_to_the_latest() -> None:
    app = OfflineApp(Game(NAMES, deck=hand_deck([HAND]), first_auctioneer=0), seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        log = app.table.query_one(EventLog)
        hand = app.table.query_one(Hand)
        for n in range(80):
            log.add_note(f"line {n}")
        await pilot.pause()
        assert hand.has_focus and log.is_vertical_scroll_end
        await pilot.press("pageup", "pageup")
        assert not log.following and "End: latest" in str(log.border_subtitle)
        await pilot.press("pagedown", "pagedown")  # as many PgDn as PgUp: the end again
        assert log.following and log.is_vertical_scroll_end
        await pilot.press("pageup")
        log.add_note("Bob bids 12")
        log.add_note("Cy passes")
        await pilot.pause()
        assert not log.following and "2 new lines below" in str(log.border_subtitle)
        cursor = hand.cursor
        await pilot.press("end")  # reading back: End is the log's
        await pilot.pause()
        assert log.following and log.is_vertical_scroll_end and hand.cursor == cursor
        assert str(log.border_subtitle) == "PgUp/PgDn scroll"
        await pilot.press("end")  # following: End is the hand's again (its last card)
        assert cursor != len(hand.cards) - 1 == hand.cursor and log.following
