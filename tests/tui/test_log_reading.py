"""The event log while the player reads back (playtests #8): news is counted in its
subtitle, PgDn as often as PgUp comes back, and End jumps to the latest line (the
hand's End otherwise). The real table of an offline game under `run_test()`."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.geometry import Region
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


async def test_a_shout_run_redrawn_in_place_repaints_only_its_rows() -> None:
    """Modern Art's run of shouts is the log's last line, redrawn with each shout
    (`replace_last`): at the foot of a log that scrolls, with as many rows as before, only
    those rows are repainted (every row was, issue 31); a run that grows a row repaints
    the log. What the screen shows either way: tests/tui/test_cached_drawing.py."""
    app = OfflineApp(Game(NAMES, deck=hand_deck([HAND]), first_auctioneer=0), seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        log = app.table.query_one(EventLog)
        for n in range(40):
            log.add_note(f"line {n}: Ann plays an open auction")  # wider than the run
        log.add_note("Bids: Bob 12")
        await pilot.pause()
        assert log.max_scroll_y > 0 and log.is_vertical_scroll_end
        shown = log.scrollable_content_region.height
        asked: list[Region | None] = []
        refresh = log.refresh

        def noted(*regions: Region, **kwargs: Any) -> Any:
            asked.extend(regions or [None])
            return refresh(*regions, **kwargs)

        log.refresh = noted  # type: ignore[method-assign]
        log.replace_last(Text("Bids: Bob 12, Cy 14"))
        assert [(r.y, r.height) if r else r for r in asked] == [(shown - 1, 1)]
        await pilot.pause()
        assert log.render_line(shown - 1).text.strip() == "Bids: Bob 12, Cy 14"
        asked.clear()
        log.replace_last(Text("Bids: " + ", ".join(f"Bob {n}" for n in range(20))))
        assert None in asked  # two rows now: the rows above moved up
        await pilot.pause()
        assert log.render_line(shown - 1).text.strip().endswith("Bob 19")
