"""Issue 28: keys that arrive in one read (a fast typist, a paste, an SSH link that batches
keys, a browser terminal) all take effect, in the order typed, at every amount entry and in
the chat. `burst` posts the keys to the app at once, as a terminal driver does with one read;
`pilot.press` would wait for each key to be handled and hide the bug."""

from __future__ import annotations

from textual import events
from textual.widgets import Input
from tui_keys import log_text, until
from tui_serengeti import ann_to_act, new_game, offline, play_until
from tui_table import seated_game

from modernart.tui.amount import AmountInput
from modernart.tui.modernart.hand import Hand

CHARACTERS = {"backspace": "\x7f", "enter": "\r", "escape": "\x1b"}


def burst(app, *keys: str) -> None:
    """Post `keys` to the app in one go, as the driver posts the keys of one read."""
    for key in keys:
        app.post_message(events.Key(key, CHARACTERS.get(key, key)))


def played(raw_client, kind: str) -> list[dict]:
    """The events of type `kind` a raw client has been sent so far."""
    updates = [m for m in raw_client.inbox if m["t"] == "update"]
    return [e for m in updates for e in m.get("events", []) if e.get("type") == kind]


async def sold_to_ann(pilot, bob, cy, price: int) -> None:
    """Bob and Cy bid 3 and 4 in the sealed auction; Ann (seat 1) wins it at `price`."""
    await bob.act(type="sealed", amount=3)
    await cy.act(type="sealed", amount=4)
    await until(pilot, lambda: played(bob, "sold"))
    assert played(bob, "sold")[0]["winner"] == 1
    assert played(bob, "sold")[0]["price"] == price


async def test_r13_a_sealed_bid_typed_over_in_one_burst_keeps_every_key(url, raw, tmp_path):
    async with seated_game(url, raw, tmp_path, ["lite_metal.sealed"]) as (app, pilot, bob, cy):
        await pilot.press("enter")
        await until(pilot, lambda: "sealed" in app.table.legal)
        entry = app.table.query_one(AmountInput)
        await until(pilot, lambda: app.focused is entry)
        burst(app, "1", "5")
        await until(pilot, lambda: entry.value == "15")
        burst(app, "backspace", "backspace", "2", "5")
        await until(pilot, lambda: entry.value == "25")
        burst(app, "backspace", "7", "enter")
        await sold_to_ann(pilot, bob, cy, 27)


async def test_r12_a_once_around_bid_typed_over_and_sent_in_one_burst(url, raw, tmp_path):
    """The newcomer's keys: ⌫ ⌫ 5 5 ⏎ over the offered minimum, in one read."""
    deal = ["lite_metal.once_around"]
    async with seated_game(url, raw, tmp_path, deal) as (app, pilot, bob, cy):
        await pilot.press("enter")
        await until(pilot, lambda: app.table.view.get("phase") is not None)
        await cy.act(type="bid", amount=5)
        await bob.act(type="bid", amount=7)
        await until(pilot, lambda: "bid" in app.table.legal)
        entry = app.table.query_one(AmountInput)
        await until(pilot, lambda: app.focused is entry and entry.value == "8")
        burst(app, "backspace", "backspace", "5", "5", "enter")
        await until(pilot, lambda: played(bob, "sold"))
        assert played(bob, "bid")[-1] == {"type": "bid", "seat": 1, "amount": 55}


async def test_r11_digits_typed_before_the_entry_has_the_focus_all_count(url, raw, tmp_path):
    """An open auction's bid typed while the hand still had the focus: the first digit
    moves the focus, the rest of the burst was already on its way to the hand."""
    async with seated_game(url, raw, tmp_path, ["lite_metal.open"]) as (app, pilot, bob, _cy):
        await pilot.press("enter")
        await until(pilot, lambda: app.table.view.get("phase") == "open")
        hand = app.table.query_one(Hand)
        hand.focus()
        await until(pilot, lambda: app.focused is hand)
        burst(app, "3", "2", "enter")
        await until(pilot, lambda: played(bob, "bid"))
        assert played(bob, "bid")[0] == {"type": "bid", "seat": 1, "amount": 32}


async def test_r14_a_fixed_price_typed_over_in_one_burst(url, raw, tmp_path):
    deal = ["lite_metal.fixed_price"]
    async with seated_game(url, raw, tmp_path, deal) as (app, pilot, bob, _cy):
        await pilot.press("enter")
        await until(pilot, lambda: "price" in app.table.legal)
        entry = app.table.query_one(AmountInput)
        await until(pilot, lambda: app.focused is entry)
        burst(app, "9", "9", "backspace", "backspace", "4", "0", "enter")
        await until(pilot, lambda: played(bob, "price"))
        assert played(bob, "price")[0]["amount"] == 40


async def test_a_chat_line_typed_over_in_one_burst(url, raw, tmp_path):
    async with seated_game(url, raw, tmp_path, ["lite_metal.open"]) as (app, pilot, bob, _cy):
        await pilot.press("t")
        chat = app.table.query_one("#chat", Input)
        await until(pilot, lambda: app.focused is chat)
        burst(app, "h", "e", "y", "backspace", "backspace", "i", "left", "o", "enter")
        message = await bob.wait_for("chat", text="hoi")
        assert message["text"] == "hoi"


async def test_s6_a_serengeti_bid_typed_over_and_sent_in_one_burst() -> None:
    game = new_game()
    play_until(game, ann_to_act(7))
    app = offline(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        legal = app.table.view["legal"]["bid"]
        assert isinstance(app.focused, Input) and len(legal) >= 2
        wanted = str(legal[1])
        burst(app, "backspace", "backspace", "backspace", "backspace", *wanted, "enter")
        await until(pilot, lambda: app.sent != [])
        assert app.sent == [{"t": "act", "action": {"type": "bid", "amount": legal[1]}}]


async def test_r13_a_card_and_its_sealed_bid_typed_before_the_question(url, raw, tmp_path):
    """Play-tests 2026-12-03 #1: `Enter 2 7 Enter` in one read played the sealed card and
    lost the bid, its digits ahead of the view that asked for it; they wait for it now."""
    async with seated_game(url, raw, tmp_path, ["lite_metal.sealed"]) as (app, pilot, bob, cy):
        burst(app, "enter", "2", "7", "enter")
        await until(pilot, lambda: app.table.view.get("phase") == "sealed")
        await sold_to_ann(pilot, bob, cy, 27)


async def test_r15_a_fixed_price_typed_with_its_card_and_corrected(url, raw, tmp_path):
    deal = ["lite_metal.fixed_price"]
    async with seated_game(url, raw, tmp_path, deal) as (app, pilot, bob, _cy):
        burst(app, "enter", "4", "5", "backspace", "0", "enter")
        await until(pilot, lambda: played(bob, "price"))
        assert played(bob, "price")[0]["amount"] == 40


async def test_r12_digits_typed_ahead_of_a_view_that_asks_nothing_are_not_sent(url, raw, tmp_path):
    """Ann auctions once around and bids last: the answer to her card asks her nothing, so
    `5 4 ⌫ Enter` typed with it is dropped and said to be, never sent in a later auction."""
    deal = ["lite_metal.once_around"]
    async with seated_game(url, raw, tmp_path, deal) as (app, pilot, bob, cy):
        burst(app, "enter", "5", "4", "backspace", "enter")
        await until(pilot, lambda: app.table.view.get("phase") is not None)
        await until(pilot, lambda: "5 was typed before anything asked for it" in log_text(app))
        await cy.act(type="bid", amount=6)
        await bob.act(type="bid", amount=7)
        entry = app.table.query_one(AmountInput)
        await until(pilot, lambda: app.focused is entry and entry.value == "8")
        assert [e["seat"] for e in played(bob, "bid")] == [2, 0]  # none of Ann's
