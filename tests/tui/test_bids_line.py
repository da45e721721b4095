"""Issue 28: the log's "Bids:" line of a long open auction (R12) keeps your own bid in
sight, however many shouts came after it. The real app under `run_test()` against a real
in-process server."""

from __future__ import annotations

from tui_keys import log_text, until
from tui_table import seated_game

from modernart.tui.eventlog import EventLog
from modernart.tui.modernart.log import SHOUTS_SHOWN, shown_shouts


async def test_your_bid_stays_on_the_bids_line_of_a_long_open_auction(url, raw, tmp_path):
    async with seated_game(url, raw, tmp_path, ["lite_metal.open"]) as (app, pilot, bob, cy):
        await pilot.press("enter")  # Ann auctions the open Lite Metal
        await until(pilot, lambda: app.table.view.get("phase") == "open")
        await bob.act(type="bid", amount=2)
        await until(pilot, lambda: (app.table.view.get("high") or {}).get("amount") == 2)
        app.act({"type": "bid", "amount": 3})  # Ann's bid, then a long run of the others'
        await until(pilot, lambda: (app.table.view.get("high") or {}).get("amount") == 3)
        amount = 3
        for _ in range(SHOUTS_SHOWN + 3):
            amount += 1
            await (bob if amount % 2 == 0 else cy).act(type="bid", amount=amount)
            await until(
                pilot, lambda a=amount: (app.table.view.get("high") or {}).get("amount") == a
            )
        last = f"{'Bob' if amount % 2 == 0 else 'Cy'} {amount}"
        await until(pilot, lambda: f", {last}" in log_text(app))
        told = [entry.plain for entry in app.table.query_one(EventLog).entries]
        line = next(line for line in told if line.startswith("Bids:"))
        assert line.startswith("Bids: …, you 3, …, ")  # yours kept, the others left out
        assert line.endswith(last)
        assert line.count(", ") == SHOUTS_SHOWN + 2  # the last twelve, yours and two "…"


def test_the_line_shows_your_latest_bid_once_and_in_its_place():
    others = [f"Bob {n}" for n in range(1, 20)]
    assert shown_shouts(others[:SHOUTS_SHOWN]) == others[:SHOUTS_SHOWN]  # short: all
    assert shown_shouts(others) == ["…", *others[-SHOUTS_SHOWN:]]
    run = ["you 1", *others]  # your first shout, then nineteen others
    assert shown_shouts(run) == ["you 1", "…", *others[-SHOUTS_SHOWN:]]
    run = [*others[:6], "you 9", "you pass"]  # a pass is not a bid: the bid is kept
    run += [f"Cy {n}" for n in range(SHOUTS_SHOWN - 1)]
    assert shown_shouts(run)[:3] == ["…", "you 9", "you pass"]
    assert shown_shouts([*others, "you 30"]) == ["…", *others[-11:], "you 30"]
