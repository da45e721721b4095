"""Real time: concurrent shouts (R12), the hammer, turn timeouts, reconnection, takeover."""

from __future__ import annotations

import asyncio

from .conftest import deck_with
from .vclock import ManualClock
from .wsclient import Client

OPEN_FIRST = deck_with(["krypto.open", "krypto.open", "yoko.open"])


class SteppedClock:
    """The loop's timers on a clock the test moves on (`step`): a later decision's
    clock is later whatever the resolution of the machine's clock."""

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.ahead = 0.0

    def step(self, seconds: float) -> None:
        self.ahead += seconds

    def time(self) -> float:
        return self.loop.time() + self.ahead

    def call_at(self, when: float, callback, *args) -> asyncio.TimerHandle:
        return self.loop.call_at(when - self.ahead, callback, *args)

    def call_later(self, delay: float, callback, *args) -> asyncio.TimerHandle:
        return self.loop.call_later(delay, callback, *args)


async def table(player, n: int, **options) -> list[Client]:
    """n players seated in a started room; seat 0 is the first auctioneer."""
    clients = [await player(f"P{i}") for i in range(n)]
    opts = {"deck": OPEN_FIRST, "first_auctioneer": 0, "turn_timeout_s": 0, **options}
    await clients[0].send("create", seats=n, options=opts)
    room = (await clients[0].expect("joined"))["room"]
    for c in clients[1:]:
        await c.send("join", room=room)
        await c.expect("joined")
    await clients[0].send("start")
    for c in clients:
        await c.next_update()
    return clients


def events_of(client: Client, kinds: set[str]) -> list[tuple[int, dict]]:
    return [
        (m["seq"], e)
        for m in client.received
        if m["t"] == "update"
        for e in m["events"]
        if e["type"] in kinds
    ]


async def open_auction(clients: list[Client]) -> None:
    await clients[0].act(type="play", card="krypto.open")
    for c in clients:
        await c.until(lambda u: u["view"]["phase"] == "open")


async def test_r12_concurrent_shouts_are_seen_in_the_same_order_by_all(player):
    clients = await table(player, 4, shout_window_ms=60000)
    await open_auction(clients)
    # Every player shouts several bids at once, interleaved on the wire.
    await asyncio.gather(
        *(c.act(type="bid", amount=a) for a in range(3, 40, 4) for c in clients[1:]),
        *(clients[0].act(type="bid", amount=a) for a in (2, 10, 30)),
    )
    # Each connection's frames are handled in order: once every client's first
    # sync is answered every bid was handled, and once the second ones are, every
    # client has read all the updates those bids sent.
    for _ in range(2):
        for c in clients:
            await c.expect_reply(await c.send("sync"))
    orders = [events_of(c, {"bid"}) for c in clients]
    assert orders[0] and all(o == orders[0] for o in orders)
    amounts = [e["amount"] for _, e in orders[0]]
    assert amounts == sorted(amounts) and len(set(amounts)) == len(amounts)
    seqs = [s for s, _ in orders[0]]
    assert seqs == sorted(seqs)
    # Every refused shout was answered too_low (it was no longer higher).
    for c in clients:
        errors = [m for m in c.received if m["t"] == "error"]
        assert all(e["code"] == "too_low" for e in errors)


async def test_r12_hammer_going_once_twice_then_sold(player, server):
    server.hub.clock = clock = ManualClock()
    clients = await table(player, 3, shout_window_ms=3000)
    await open_auction(clients)
    await clients[1].act(type="bid", amount=4)
    await clients[2].until(lambda u: u["view"]["high"] is not None)
    clock.advance(3)
    final = await clients[2].until(lambda u: any(e["type"] == "sold" for e in u["events"]))
    sold = next(e for e in final["events"] if e["type"] == "sold")
    assert sold["winner"] == 1 and sold["price"] == 4
    kinds = [
        (e["type"], e.get("stage"))
        for _, e in events_of(clients[2], {"bid", "going", "sold", "free"})
    ]
    assert kinds == [("bid", None), ("going", 1), ("going", 2), ("sold", None)]
    goings = [e for _, e in events_of(clients[2], {"going"})]
    assert all(0 <= g["deadline_ms"] <= 3000 for g in goings)
    assert goings[0]["deadline_ms"] >= goings[1]["deadline_ms"]


async def test_r12_a_new_bid_restarts_the_hammer(player, server):
    # The second bid comes after "going once" and before the hammer.
    server.hub.clock = clock = ManualClock()
    clients = await table(player, 3, shout_window_ms=3000)
    await open_auction(clients)
    await clients[1].act(type="bid", amount=4)
    await clients[2].until(lambda u: u["view"]["high"] is not None)
    assert clock.next() == 1  # going once, a third of the window after the bid
    await clients[2].until(lambda u: any(e["type"] == "going" for e in u["events"]))
    await clients[2].act(type="bid", amount=6)
    await clients[0].until(lambda u: u["view"]["high"] == {"amount": 6, "seat": 2})
    clock.advance(3)
    await clients[0].until(lambda u: any(e["type"] == "sold" for e in u["events"]))
    kinds = [
        (e["type"], e.get("stage")) for _, e in events_of(clients[0], {"bid", "going", "sold"})
    ]
    assert kinds[:2] == [("bid", None), ("going", 1)]
    assert kinds[-4:] == [("bid", None), ("going", 1), ("going", 2), ("sold", None)]
    sold = events_of(clients[0], {"sold"})[0][1]
    assert sold["winner"] == 2 and sold["payments"] == [{"from": 2, "to": 0, "amount": 6}]


async def test_r12_nobody_bidding_gives_the_lot_to_the_auctioneer_at_the_hammer(player, server):
    server.hub.clock = clock = ManualClock()
    clients = await table(player, 3, shout_window_ms=120)
    await open_auction(clients)
    clock.advance(0.12)
    final = await clients[0].until(lambda u: any(e["type"] == "free" for e in u["events"]))
    free = next(e for e in final["events"] if e["type"] == "free")
    assert free == {"type": "free", "seat": 0, "cards": ["krypto.open"]}


async def test_r12_everyone_else_passing_closes_at_once(player):
    clients = await table(player, 3, shout_window_ms=60000)
    await open_auction(clients)
    await clients[0].act(type="bid", amount=3)
    await clients[1].until(lambda u: u["view"]["high"] is not None)
    await clients[1].act(type="pass")
    await clients[2].act(type="pass")
    final = await clients[0].until(lambda u: any(e["type"] == "sold" for e in u["events"]))
    assert final["view"]["phase"] == "play" and final["view"]["deadline_ms"] is None
    assert not events_of(clients[0], {"going"})  # no hammer was needed


async def test_view_deadline_counts_down_the_shout_window(player):
    clients = await table(player, 3, shout_window_ms=5000)
    await open_auction(clients)
    view = clients[1].view
    assert view is not None and 0 < view["deadline_ms"] <= 5000


async def test_reconnection_mid_auction_restores_seat_and_full_view(player, url):
    clients = await table(player, 3, shout_window_ms=60000)
    await open_auction(clients)
    await clients[1].act(type="bid", amount=9)
    before = await clients[1].until(lambda u: u["view"]["high"] is not None)
    token = clients[1].token
    await clients[1].close()
    gone = await clients[0].until(lambda u: {"type": "disconnected", "seat": 1} in u["events"])
    assert gone["view"]["seats"][1]["connected"] is False
    back = await Client.hello(url, "P1", token)
    joined = await back.expect("joined")
    assert joined["seat"] == 1
    resync = await back.next_update()
    assert resync["events"] == [] and resync["seq"] == gone["seq"]
    view = resync["view"]
    assert view["you"] == 1 and view["high"] == {"amount": 9, "seat": 1}
    assert view["hand"] == before["view"]["hand"] and view["money"] == before["view"]["money"]
    again = await clients[0].until(lambda u: {"type": "connected", "seat": 1} in u["events"])
    assert again["view"]["seats"][1]["connected"] is True
    await clients[2].act(type="bid", amount=10)  # the auction carries on
    await back.until(lambda u: u["view"]["high"] == {"amount": 10, "seat": 2})
    await back.close()


async def test_turn_timeout_takes_the_safe_default(player, server):
    """Issue: turn timeouts — a sealed bid (R14) nobody sends becomes 0."""
    server.hub.clock = clock = ManualClock()
    deck = deck_with(["krypto.sealed"])
    clients = [await player(f"P{i}") for i in range(3)]
    await clients[0].send(
        "create",
        seats=3,
        options={"deck": deck, "first_auctioneer": 0, "turn_timeout_s": 2},
    )
    room = (await clients[0].expect("joined"))["room"]
    for c in clients[1:]:
        await c.send("join", room=room)
        await c.expect("joined")
    await clients[0].send("start")
    start = await clients[0].next_update()
    assert 0 < start["view"]["deadline_ms"] <= 2000
    await clients[0].act(type="play", card="krypto.sealed")
    await clients[1].until(lambda u: u["view"]["phase"] == "sealed")
    await clients[1].act(type="sealed", amount=5)
    await clients[1].until(lambda u: {"type": "sealed_in", "seat": 1} in u["events"])
    clock.advance(2)
    final = await clients[1].until(lambda u: any(e["type"] == "reveal" for e in u["events"]))
    reveal = next(e for e in final["events"] if e["type"] == "reveal")
    assert reveal["bids"] == [0, 5, 0]


async def test_an_absent_players_seat_is_played_by_a_bot_until_they_return(player, url, server):
    server.hub.clock = clock = ManualClock()
    clients = await table(player, 3, takeover_s=1, shout_window_ms=60000)
    token = clients[0].token
    await clients[0].close()  # seat 0 must play the first card
    await clients[1].until(lambda u: {"type": "disconnected", "seat": 0} in u["events"])
    clock.advance(1)
    update = await clients[1].until(lambda u: {"type": "autopilot", "seat": 0} in u["events"])
    assert update["view"]["seats"][0]["bot"] is True
    assert update["view"]["seats"][0]["autopilot"] is True
    clock.advance(3)  # the bot's pause (bot_delay_ms 1500, jittered ±50 %)
    played = await clients[1].until(lambda u: any(e["type"] == "played" for e in u["events"]))
    assert next(e for e in played["events"] if e["type"] == "played")["seat"] == 0
    back = await Client.hello(url, "P0", token)
    resync = await back.next_update()
    assert resync["view"]["seats"][0]["autopilot"] is False
    assert resync["view"]["seats"][0]["bot"] is False
    await back.close()


async def test_r14_another_players_sealed_bid_leaves_your_clock_running(player, server):
    """Issue 28 (play-test #1): the turn clock times a decision, not the room's last act:
    a sealed bid sent by one player leaves the others' deadline where it was, and the
    view each of them gets says so; the next decision gets a fresh clock."""
    deck = deck_with(["krypto.sealed", "krypto.open"])
    server.hub.clock = clock = SteppedClock()
    clients = [await player(f"P{i}") for i in range(3)]
    options = {"deck": deck, "first_auctioneer": 0, "turn_timeout_s": 600}
    await clients[0].send("create", seats=3, options=options)
    room_id = (await clients[0].expect("joined"))["room"]
    for c in clients[1:]:
        await c.send("join", room=room_id)
        await c.expect("joined")
    await clients[0].send("start")
    await clients[0].next_update()
    room = server.hub.rooms[room_id]
    await clients[0].act(type="play", card="krypto.sealed")
    start = await clients[2].until(lambda u: u["view"]["phase"] == "sealed")
    sealed_deadline = room.deadline()
    await clients[1].act(type="sealed", amount=5)
    seen = await clients[2].until(lambda u: {"type": "sealed_in", "seat": 1} in u["events"])
    assert room.deadline() == sealed_deadline
    assert seen["view"]["deadline_ms"] <= start["view"]["deadline_ms"]
    clock.step(1)
    await clients[0].act(type="sealed", amount=1)
    await clients[2].act(type="sealed", amount=2)
    await clients[0].until(lambda u: any(e["type"] == "reveal" for e in u["events"]))
    assert room.deadline() is not None and room.deadline() >= sealed_deadline + 1


async def test_r15_a_dropped_auctioneers_timed_out_price_does_not_give_the_painting_away(
    player, server
):
    """Issue 28 (play-test #5): the auctioneer of a fixed-price card loses the
    connection; when the turn clock runs out the server names the heuristic's price
    for them, not 1 (at which the next player could take the painting)."""
    server.hub.clock = clock = ManualClock()
    deck = deck_with(["karl_gitter.fixed_price"])
    clients = await table(player, 3, deck=deck, turn_timeout_s=1)
    await clients[0].act(type="play", card="karl_gitter.fixed_price")
    await clients[1].until(lambda u: u["view"]["phase"] == "price")
    await clients[0].close()
    await clients[1].until(lambda u: {"type": "disconnected", "seat": 0} in u["events"])
    clock.advance(1)
    named = await clients[1].until(lambda u: any(e["type"] == "price" for e in u["events"]))
    assert named["events"][0] == {"type": "timeout", "seat": 0}
    price = next(e for e in named["events"] if e["type"] == "price")
    assert price["seat"] == 0 and price["amount"] > 1
