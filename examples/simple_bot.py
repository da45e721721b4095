"""A complete Modern Art bot in a few lines, over the wire protocol (docs/bots.md).

    python examples/simple_bot.py ws://127.0.0.1:8765/ ROOM_ID

It values a painting at 30 if its artist leads this round, 20 if second,
10 if third (RULES.md R21–R22), plays the card of its best artist, and bids
or buys only below that value.
"""

import asyncio
import sys

from modernart.botkit import BotClient

WORTH = (30, 20, 10)


def decide(view: dict) -> dict | None:
    legal = view["legal"]
    ranked = sorted(view["counts"], key=lambda artist: -view["counts"][artist])
    worth = {artist: WORTH[i] if i < 3 else 0 for i, artist in enumerate(ranked)}
    value = sum(worth[card.split(".")[0]] for card in (view["lot"] or {}).get("cards", []))
    if "play" in legal:  # R8: auction a card of the artist worth most
        return {"type": "play", "card": max(legal["play"], key=lambda c: worth[c.split(".")[0]])}
    if "price" in legal:  # R15: name a fixed price
        low, high = legal["price"]
        return {"type": "price", "amount": max(low, min(high, value // 2))}
    if "sealed" in legal:  # R14: a sealed bid
        return {"type": "sealed", "amount": min(legal["sealed"][1], value // 2)}
    if "bid" in legal and legal["bid"][0] <= value // 2:  # R12, R13
        high = view["high"]
        if high is None or high["seat"] != view["you"]:
            return {"type": "bid", "amount": legal["bid"][0]}
        return None  # already the high bidder: wait for the hammer
    if "buy" in legal and view["price"] <= value // 2:
        return {"type": "buy"}
    for kind in ("pass", "decline"):  # R16: decline to add to a double
        if kind in legal:
            return {"type": kind}
    return None


async def main(url: str, room: str) -> None:
    async with await BotClient.connect(url, "SimpleBot") as bot:
        await bot.join(room)
        final = await bot.play(decide)
        print("final money:", [seat["money"] for seat in final["seats"]])


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
