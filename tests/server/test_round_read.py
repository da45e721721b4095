"""Issue 28 (play-tests: "a round's summary eats the next player's turn clock"): after an
act that ends a round, the summary covers the table a while; the next decisions' turn
clocks start after the server's reading time (`round_read_s`), not at once."""

from __future__ import annotations

import asyncio
from itertools import cycle

from modernart.engine.modernart.cards import DEAL, FULL_DECK

from .test_realtime import table
from .wsclient import Client

TIMEOUT_S = 60
# Four open Krypto auctions (seats 0, 1, 2, 0), then seat 1's fifth Krypto ends round 1
# (R18); seat 2 is the next auctioneer and opens a sealed bid (R14) for everyone.
HANDS = [
    ["krypto.open", "krypto.open"],
    ["krypto.open", "krypto.sealed"],
    ["krypto.open", "yoko.sealed"],
]
OTHERS = [c for c in FULL_DECK if not c.startswith(("krypto", "yoko.sealed"))]


def round_deck() -> list[str]:
    """A deck dealing HANDS, each filled up to R6's 10 cards with other cards."""
    spare, front = iter(OTHERS), []
    for hand in HANDS:
        front += hand + [next(spare) for _ in range(DEAL[3][0] - len(hand))]
    rest = list(FULL_DECK)
    for card in front:
        rest.remove(card)
    return front + rest


async def passed_round(clients: list[Client]) -> None:
    """Four open auctions nobody bids in (the auctioneer keeps the painting, R12)."""
    seats = cycle(range(3))
    for _ in range(4):
        auctioneer = next(seats)
        await clients[auctioneer].act(type="play", card="krypto.open")
        for c in clients:
            await c.until(lambda u: u["view"]["phase"] == "open")
        for i in [*range(auctioneer + 1, 3), *range(auctioneer + 1)]:
            await clients[i].act(type="pass")
        await clients[0].until(lambda u: any(e["type"] == "free" for e in u["events"]))


async def test_a_rounds_end_gives_the_next_decisions_the_reading_time(player, server):
    clients = await table(
        player, 3, deck=round_deck(), turn_timeout_s=TIMEOUT_S, shout_window_ms=60000
    )
    room = server.hub.rooms[clients[0].room]
    read = server.hub.limits.round_read_s
    assert read >= 10
    await passed_round(clients)
    before = asyncio.get_running_loop().time()
    await clients[1].act(type="play", card="krypto.sealed")  # the fifth Krypto: R18
    ended = await clients[2].until(lambda u: any(e["type"] == "round_end" for e in u["events"]))
    # The summary's "Your turn next" counts the reading time and the whole clock.
    assert ended["view"]["to_act"] == [2]
    assert ended["view"]["deadline_ms"] > TIMEOUT_S * 1000
    assert room.deadline() >= before + read + TIMEOUT_S
    # A decision that comes while the others may still read starts after it too.
    await clients[2].act(type="play", card="yoko.sealed")
    nxt = await clients[0].until(lambda u: u["view"]["phase"] == "sealed")
    assert nxt["view"]["deadline_ms"] > TIMEOUT_S * 1000
    assert room.deadline() >= before + read + TIMEOUT_S
