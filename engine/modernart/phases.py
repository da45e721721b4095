"""The phases of a Modern Art turn and the turn orders around a table (RULES.md R7–R16)."""

from __future__ import annotations

from .cards import DEAL

# Phases of a turn.
PLAY = "play"  # the auctioneer must play a card (R8)
OFFER = "offer"  # a double is on offer for a second card (R16)
OPEN = "open"  # R12
ONCE_AROUND = "once_around"  # R13
SEALED = "sealed"  # R14
PRICE = "price"  # fixed price: the auctioneer names it (R15)
BUY = "buy"  # fixed price: the others buy or pass in turn (R15)
OVER = "over"  # R25

# CLOCKWISE[count][p]: around a table of `count` turn positions, every position
# clockwise from p's left, p itself last. Built once: games only look orders up.
CLOCKWISE: dict[int, tuple[tuple[int, ...], ...]] = {
    count: tuple(tuple((p + i) % count for i in range(1, count + 1)) for p in range(count))
    for count in DEAL
}
