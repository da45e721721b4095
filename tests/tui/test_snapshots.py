"""Snapshots of the lobby, each auction panel, the round end and the game end (80×24, 120×40).

The views come from the real engine with a fixed deal (no server, no clocks), so
every picture is exact. Update with `pytest tests/tui --snapshot-update` and look
at the SVGs before committing them.
"""

from __future__ import annotations

from typing import Any

import pytest
from tui_offline import NAMES, OfflineApp, OfflineLobbyApp, hand_deck, play_until

from modernart.engine.modernart import Game

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


def table(hands: list[list[str]], first: int = 0) -> OfflineApp:
    return OfflineApp(Game(NAMES, deck=hand_deck(hands), first_auctioneer=first), seat=0)


def steps(app: OfflineApp, mine: list[dict[str, Any]], *others: dict[str, Any]):
    """A run_before: Ann's actions through the app, then the others' in one update."""

    async def run(pilot: Any) -> None:
        for action in mine:
            app.act(action)
        if others:
            app.others(*others)
        await pilot.pause()

    return run


@pytest.mark.parametrize("size", SIZES)
def test_lobby(snap_compare, size):
    assert snap_compare(OfflineLobbyApp(url="ws://offline/", name="Ann"), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_r12_open_auction(snap_compare, size):
    app = table([["lite_metal.open", "krypto.sealed", "yoko.double"]])
    run = steps(
        app,
        [{"type": "play", "card": "lite_metal.open"}],
        {"seat": 1, "type": "bid", "amount": 5},
        {"seat": 2, "type": "pass"},
        {"seat": 3, "type": "bid", "amount": 8},
    )
    assert snap_compare(app, terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_r13_once_around(snap_compare, size):
    app = table([["lite_metal.once_around"]])
    run = steps(
        app,
        [{"type": "play", "card": "lite_metal.once_around"}],
        {"seat": 1, "type": "bid", "amount": 3},
        {"seat": 2, "type": "pass"},
        {"seat": 3, "type": "bid", "amount": 7},
    )
    assert snap_compare(app, terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_r14_sealed(snap_compare, size):
    app = table([["lite_metal.sealed"]])
    run = steps(
        app,
        [{"type": "play", "card": "lite_metal.sealed"}],
        {"seat": 2, "type": "sealed", "amount": 4},
    )
    assert snap_compare(app, terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_r15_fixed_price_asked_to_buy(snap_compare, size):
    app = table([[], [], [], ["krypto.fixed_price"]], first=3)
    run = steps(
        app,
        [],
        {"seat": 3, "type": "play", "card": "krypto.fixed_price"},
        {"seat": 3, "type": "price", "amount": 12},
    )
    assert snap_compare(app, terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_r16_double_offer(snap_compare, size):
    app = table([["yoko.double", "yoko.sealed", "yoko.open"]])
    run = steps(app, [{"type": "play", "card": "yoko.double"}])
    assert snap_compare(app, terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_round_end_summary(snap_compare, size):
    game = Game(NAMES, deck=hand_deck([]), first_auctioneer=0)
    app = OfflineApp(game, seat=0)

    async def run(pilot: Any) -> None:
        before, events = play_until(game, "round_end")
        app.push_view([], before)  # what each player bought, for the summary
        app.push_view(events)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_game_end(snap_compare, size):
    game = Game(NAMES, deck=hand_deck([]), first_auctioneer=0)
    app = OfflineApp(game, seat=0)

    async def run(pilot: Any) -> None:
        before, events = play_until(game, "game_end")
        app.push_view([], before)
        app.push_view(events)
        await pilot.pause()
        await pilot.press("enter")  # round 4's summary first, then the game end
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_help(snap_compare, size):
    app = table([])
    assert snap_compare(app, terminal_size=size, press=["f1"])


@pytest.mark.parametrize("size", SIZES)
def test_create_room_dialog(snap_compare, size):
    """Issue 8.6: one row per field, every button whole, the focused field visible."""
    app = OfflineLobbyApp(url="ws://offline/", name="Ann")
    assert snap_compare(app, terminal_size=size, press=["c", *"Friday", "tab"])


@pytest.mark.parametrize("size", SIZES)
def test_r18_round_ending_card_marked(snap_compare, size):
    """Issue 8.3: four Krypto played; Ann's Krypto would be the 5th (R18)."""
    app = table(
        [["krypto.open", "krypto.sealed"], ["krypto.open"], ["krypto.open"], ["krypto.open"]]
    )

    async def run(pilot: Any) -> None:
        app.act({"type": "play", "card": "krypto.open"})
        app.act({"type": "pass"})
        app.others(*({"seat": s, "type": "pass"} for s in (1, 2, 3)))
        for seat in (1, 2, 3):
            app.others(
                {"seat": seat, "type": "play", "card": "krypto.open"},
                *({"seat": s, "type": "pass"} for s in (1, 2, 3)),
            )
            app.act({"type": "pass"})
        await pilot.pause()
        await pilot.press("end")
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_leave_asks_first(snap_compare, size):
    """Issue 8.10: L during a running game asks before leaving."""
    app = table([["lite_metal.open"]])
    assert snap_compare(app, terminal_size=size, press=["L"])


@pytest.mark.parametrize("size", SIZES)
def test_purchases_by_round(snap_compare, size):
    """Issue 8.5: who bought what in each round (H), rebuilt from the events."""
    game = Game(NAMES, deck=hand_deck([]), first_auctioneer=0)
    app = OfflineApp(game, seat=0)

    async def run(pilot: Any) -> None:
        earlier: list[dict[str, Any]] = []
        before, events = play_until(game, "round_end", seen=earlier)
        app.push_view(earlier, before)  # the round's sales, for the ledger
        app.push_view(events)
        await pilot.pause()
        await pilot.press("enter", "H")  # close the round's summary, open the purchases
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run)
