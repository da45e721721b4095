"""Serengeti's components (SERENGETI.md S1–S5, S15): cards, lots, chips, tribe scores."""

from __future__ import annotations

# S1 (*Decision* table): each tribe's five digits, all different; each digit on three cards.
TRIBE_DIGITS: dict[str, tuple[int, ...]] = {
    "blue": (0, 3, 5, 8, 9),
    "brown": (1, 2, 4, 6, 7),
    "red": (0, 1, 2, 3, 4),
    "yellow": (5, 6, 7, 8, 9),
    "green": (0, 2, 4, 6, 8),
    "purple": (1, 3, 5, 7, 9),
}
TRIBES: tuple[str, ...] = tuple(TRIBE_DIGITS)

# S1: a card's code is `tribe.digit`; FULL_DECK is the 30 codes in table order.
FULL_DECK: tuple[str, ...] = tuple(f"{t}.{d}" for t, ds in TRIBE_DIGITS.items() for d in ds)
CARD_CODES = frozenset(FULL_DECK)
TRIBE_OF: dict[str, str] = {c: c.split(".")[0] for c in FULL_DECK}
DIGIT_OF: dict[str, int] = {c: int(c.split(".")[1]) for c in FULL_DECK}

PLAYERS = (3, 4, 5)  # S2
STARTING_CHIPS = 10  # S3
AUCTIONS = 15  # S5, S14
EARLY_PASS_BONUS = 2  # S8
MOST_CHIPS_BONUS = 3  # S16


def lot_size(auction: int) -> int:
    """S5: auction k (1-based) turns up 1, 2, 3, 1, 2, 3, … cards."""
    return (auction - 1) % 3 + 1


def tribe_points(count: int) -> int:
    """S15: c cards of one tribe score c·(c+1)/2 (1, 3, 6, 10, 15)."""
    return count * (count + 1) // 2


def is_card(code: object) -> bool:
    return isinstance(code, str) and code in CARD_CODES


def is_deck(deck: object) -> bool:
    """True if `deck` is a permutation of the 30 cards of S1 (any sequence type)."""
    if isinstance(deck, str | bytes) or not hasattr(deck, "__len__"):
        return False
    try:
        return len(deck) == len(FULL_DECK) and sorted(deck) == sorted(FULL_DECK)  # type: ignore[arg-type]
    except TypeError:  # codes that cannot be compared (not all strings)
        return False
