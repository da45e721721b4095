"""Issue 31: a table's rows keep their places through the game, so that an update, a key
or a clock's tick lays nothing out (a layout is Textual's whole screen arranged and drawn
again). What shows and goes (the amount entry, the clock) keeps its row, blank when unused.

A layout is seen as Textual tells it: each `Screen.screen_layout_refresh_signal`."""

from __future__ import annotations

from typing import Any

from tui_keys import text_of
from tui_offline import NAMES, OfflineApp, hand_deck, server_view

from modernart.engine.games import get_game
from modernart.engine.modernart import Game
from modernart.tui.amount import AmountInput


class Layouts:
    """Counts the layouts of a screen from now on."""

    def __init__(self, app: OfflineApp) -> None:
        self.count = 0
        app.table.screen_layout_refresh_signal.subscribe(app.table, self._seen, immediate=True)

    def _seen(self, screen: Any) -> None:
        self.count += 1


async def log_scrolling(app: OfflineApp, pilot: Any) -> None:
    """Lines enough that the event log scrolls: until then a line may show its scroll bar
    (a layout, once a game)."""
    for i in range(30):
        app.table.note(f"line {i}")
    await pilot.pause()


def regions(app: OfflineApp) -> dict[str, Any]:
    """Where each of the table's widgets with an id is on the screen."""
    return {f"#{w.id}": w.region for w in app.table.query("*") if w.id}


async def test_r14_the_entry_asking_then_not_and_typing_lay_nothing_out() -> None:
    """A sealed auction asks Ann's amount (R14); she types it and bids; the others bid and
    the sale leaves the entry idle: one row throughout, blank and unfocusable when idle."""
    game = Game(NAMES, deck=hand_deck([["krypto.sealed"]]), first_auctioneer=0)
    app = OfflineApp(game, seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await log_scrolling(app, pilot)
        before = regions(app)
        entry = app.table.query_one(AmountInput)
        assert not entry.focusable and text_of(app.table.query_one("#entry-label")) == ""
        layouts = Layouts(app)
        app.act({"type": "play", "card": "krypto.sealed"})
        await pilot.pause()
        assert app.table.focused is entry and entry.asking
        assert "Secret bid 0–100:" in text_of(app.table.query_one("#entry-label"))
        await pilot.press("1", "2", "backspace", "5")  # each key changes the entry's text
        assert entry.value == "15"
        await pilot.press("enter")
        await pilot.pause()
        assert {"t": "act", "action": {"type": "sealed", "amount": 15}} in app.sent
        app.others(*({"seat": s, "type": "sealed", "amount": s} for s in (1, 2, 3)))
        await pilot.pause()
        assert "sold" in [e["type"] for e in app.events]
        assert not entry.focusable and app.table.focused is not entry
        assert text_of(app.table.query_one("#entry-label")) == "" and entry.value == ""
        assert layouts.count == 0
        assert regions(app) == before


async def test_r12_the_hammer_clock_coming_and_going_lays_nothing_out() -> None:
    """The clock's row is there with or without a clock: a decision's clock shown, ticking
    and gone changes its text only."""
    game = get_game("modernart").create(NAMES, seed=5, first=1)
    app = OfflineApp(game, seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await log_scrolling(app, pilot)
        before = regions(app)
        clock = app.table.query_one("#clock")
        layouts = Layouts(app)
        view = server_view(game, 0)
        view["seats"][1]["bot"] = False  # Bob, a person whose clock is told
        app.push_view([], {**view, "deadline_ms": 30_000})
        await pilot.pause()
        assert text_of(clock).startswith("Bob: ") and "left to decide" in text_of(clock)
        app.push_view([], view)
        await pilot.pause()
        assert text_of(clock) == ""
        assert layouts.count == 0
        assert regions(app) == before


async def test_s8_serengeti_your_turn_then_not_lays_nothing_out() -> None:
    """Serengeti's bid row is there on every turn; only yours fills it (S8)."""
    game = get_game("serengeti").create(NAMES, seed=5, first=0)
    app = OfflineApp(game, seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        entry = app.table.query_one("#bid", AmountInput)
        assert "pass" in app.table.legal and entry.focusable
        await log_scrolling(app, pilot)
        before = regions(app)
        layouts = Layouts(app)
        await pilot.press("enter")  # the lowest legal bid, offered
        await pilot.pause()
        assert app.sent[-1]["action"]["type"] == "bid"
        assert "pass" not in app.table.legal and not entry.focusable and entry.value == ""
        assert text_of(app.table.query_one("#sg-entry-label")) == ""
        assert layouts.count == 0
        assert regions(app) == before
