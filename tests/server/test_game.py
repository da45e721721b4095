"""Whole games over the wire: bots to game_end, a scripted fixed-deck auction's payments."""

from __future__ import annotations

import json

from modernart.engine import load_record, replay
from modernart.engine.modernart.cards import FULL_DECK
from modernart.server.store.export import record_of_room

from .conftest import deck_with
from .wsclient import autoplay


async def test_full_game_with_bots_reaches_game_end_and_exports_a_replayable_record(server, player):
    """R19/R25–R27: four bots and a human play to the end; a spectator watches it all."""
    ann, spy = await player("Ann"), await player("Spy")
    await ann.send("create", seats=5, options={"shout_window_ms": 100})
    room = (await ann.expect("joined"))["room"]
    for _ in range(4):
        await ann.send("add_bot")
    await spy.send("watch", room=room)
    await spy.expect("joined")
    await ann.send("start")
    final = await autoplay(ann, seed=1)
    end = [e for e in final["events"] if e["type"] == "game_end"]
    assert end, final["events"]
    view = final["view"]
    assert view["finished"] and view["status"] == "finished"
    assert all(s["money"] is not None for s in view["seats"])  # R27
    assert end[0]["money"] == [s["money"] for s in view["seats"]]
    best = max(end[0]["money"])
    assert end[0]["winners"] == [i for i, m in enumerate(end[0]["money"]) if m == best]  # R26
    spy_final = await spy.until(lambda u: u["view"]["finished"])
    assert spy_final["seq"] == final["seq"]
    record = record_of_room(server.store, room)
    assert record is not None
    result = replay(load_record(json.dumps(record.to_dict())))
    assert result["ok"] and result["finished"] and result["money"] == end[0]["money"]


def scripted_deck() -> list[str]:
    fillers = [c for c in FULL_DECK if c.startswith(("karl_gitter", "christin_p"))]
    ann = ["krypto.open", "lite_metal.fixed_price", *fillers[0:8]]
    bob = ["yoko.double", *fillers[8:17]]
    cy = ["yoko.sealed", *fillers[17:26]]
    return deck_with(ann, bob, cy)


async def test_scripted_auctions_pay_r10_r12_r14_r15_r16_r17(player):
    ann, bob, cy = await player("Ann"), await player("Bob"), await player("Cy")
    await ann.send(
        "create",
        seats=3,
        variant="classic",
        options={"deck": scripted_deck(), "first_auctioneer": 0, "shout_window_ms": 150},
    )
    room = (await ann.expect("joined"))["room"]
    for c in (bob, cy):
        await c.send("join", room=room)
        await c.expect("joined")
    await ann.send("start")
    first = await ann.next_update()
    assert {"krypto.open", "lite_metal.fixed_price"} <= set(first["view"]["hand"])
    assert first["view"]["auctioneer"] == 0

    # R12: an open auction; the hammer falls after the shout window.
    await ann.act(type="play", card="krypto.open")
    await bob.until(lambda u: u["view"]["phase"] == "open")
    await bob.act(type="bid", amount=5)
    await cy.until(lambda u: any(e["type"] == "bid" for e in u["events"]))
    await cy.act(type="bid", amount=7)
    sold = await ann.until(lambda u: any(e["type"] == "sold" for e in u["events"]))
    event = next(e for e in sold["events"] if e["type"] == "sold")
    assert event["winner"] == 2 and event["price"] == 7 and event["cards"] == ["krypto.open"]
    assert event["payments"] == [{"from": 2, "to": 0, "amount": 7}]  # R10

    # R16/R17: Bob's double, declined by Bob, completed by Cy; sealed bids (R14); split.
    await bob.until(lambda u: u["view"]["auctioneer"] == 1 and u["view"]["phase"] == "play")
    await bob.act(type="play", card="yoko.double")
    await bob.until(lambda u: u["view"]["phase"] == "offer")
    await bob.act(type="decline")
    await cy.until(lambda u: u["view"]["legal"].get("add"))
    await cy.act(type="add", card="yoko.sealed")
    for client, amount in ((ann, 10), (bob, 3), (cy, 4)):
        await client.until(lambda u: "sealed" in u["view"]["legal"])
        await client.act(type="sealed", amount=amount)
    sold = await ann.until(lambda u: any(e["type"] == "sold" for e in u["events"]))
    reveal = next(e for e in sold["events"] if e["type"] == "reveal")
    assert reveal["bids"] == [10, 3, 4]
    event = next(e for e in sold["events"] if e["type"] == "sold")
    assert event["winner"] == 0 and event["price"] == 10 and event["seller"] == 2
    assert event["payments"] == [
        {"from": 0, "to": 1, "amount": 5},
        {"from": 0, "to": 2, "amount": 5},
    ]

    # R15: a fixed price nobody buys; the auctioneer pays the bank.
    assert sold["view"]["auctioneer"] == 0 and sold["view"]["phase"] == "play"  # R11
    await ann.act(type="play", card="lite_metal.fixed_price")
    await ann.until(lambda u: u["view"]["phase"] == "price")
    await ann.act(type="price", amount=20)
    for client in (bob, cy):
        await client.until(lambda u: u["view"]["legal"].get("buy"))
        await client.act(type="pass")
    sold = await ann.until(lambda u: any(e["type"] == "sold" for e in u["events"]))
    event = next(e for e in sold["events"] if e["type"] == "sold")
    assert event["winner"] == 0 and event["payments"] == [{"from": 0, "to": None, "amount": 20}]

    # Money is private (R4): each sees only their own, and the sums are as paid.
    assert sold["view"]["money"] == 100 + 7 - 10 - 20
    bob_view = (await bob.until(lambda u: u["seq"] == sold["seq"]))["view"]
    cy_view = (await cy.until(lambda u: u["seq"] == sold["seq"]))["view"]
    assert bob_view["money"] == 100 + 5 and cy_view["money"] == 100 - 7 + 5
    assert [s["money"] for s in bob_view["seats"]] == [None, 105, None]
