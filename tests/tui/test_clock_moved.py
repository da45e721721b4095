"""Play-test 2026-12-05 (major): a key pressed for one question answered the next. Ann
chose a card with →→→ Enter as her turn clock ran out; the server played her highlighted
card (an open auction, R11) and her Enter bid the offered minimum in it, so she bought her
own painting (R13). The first action after the clock moved for you is not sent: the log
says why, and the same key again sends it (tui/gametable.py `act`); the log tells the
clock's move as the clock's (tui/tablehistory.py)."""

from __future__ import annotations

from tui_keys import log_text, shown, text_of, until
from tui_offline import NAMES, OfflineApp, hand_deck, play_until

from modernart.engine.modernart import Game
from modernart.tui.amount import AmountInput
from modernart.tui.gametable import CLOCK_MOVED
from modernart.tui.lines import LinePanel
from modernart.tui.modernart.summary import RoundSummary

CARDS = ["lite_metal.open", "christin_p.sealed"]


def acts(app: OfflineApp) -> list[dict]:
    return [m["action"] for m in app.sent if m["t"] == "act"]


async def test_r11_an_enter_after_the_clock_played_your_card_bids_only_when_pressed_again():
    game = Game(NAMES, deck=hand_deck([CARDS]), first_auctioneer=0)
    app = OfflineApp(game, seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        # The server's clock plays Ann's highlighted card for her (PROTOCOL: `timeout`, then
        # the move made for that seat), while her Enter for another card is on its way.
        moved = game.apply({"type": "play", "card": "lite_metal.open", "seat": 0})
        app.push_view([{"type": "timeout", "seat": 0}, *moved])
        entry = app.table.query_one(AmountInput)
        await until(pilot, lambda: app.table.focused is entry and entry.value)
        offered = int(entry.value)
        await pilot.press("enter")
        await until(pilot, lambda: CLOCK_MOVED in log_text(app))
        assert acts(app) == []  # nothing bid
        # The move is told as the clock's (it read as Ann's own: "You auction …").
        assert "Time ran out for you" in log_text(app)
        assert "The clock auctions Lite Metal (open) for you" in log_text(app)
        assert entry.value == str(offered)  # the amount stays, to be looked at
        await pilot.press("enter")  # pressed again: sent
        await until(pilot, lambda: acts(app))
        assert acts(app) == [{"type": "bid", "amount": offered}]
        assert log_text(app).count(CLOCK_MOVED) == 1


async def test_another_player_s_clock_holds_back_nothing_of_yours():
    game = Game(NAMES, deck=hand_deck([CARDS]), first_auctioneer=0)
    app = OfflineApp(game, seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_view([{"type": "timeout", "seat": 1}])  # Bob's clock, told to everyone
        await pilot.pause()
        await pilot.press("enter")  # the hand's first card
        await until(pilot, lambda: acts(app))
        assert acts(app) == [{"type": "play", "card": CARDS[0]}]
        assert CLOCK_MOVED not in log_text(app)


async def test_r19_the_round_s_summary_says_the_clock_played_for_you_behind_it():
    """Play-test 2026-12-05: behind round 1's summary the clock ran out for Ann, and its line
    went on to name her next decision without a word of the move made for her."""
    game = Game(NAMES, deck=hand_deck([]), first_auctioneer=0)
    app = OfflineApp(game, seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        before, events = play_until(game, "round_end")
        app.push_view([], before)
        await pilot.pause()
        # The round's last move, made by the server for Ann as her clock ran out.
        app.push_view([{"type": "timeout", "seat": 0}, *events])
        await until(pilot, lambda: shown(app, RoundSummary))
        clock = app.screen.query_one("#summary-clock", LinePanel)
        await until(pilot, lambda: "The clock has played for you" in text_of(clock))
        assert clock.display
