"""Static game facts: artists, auction types, the deck (RULES.md R1–R3, R6)."""

from __future__ import annotations

from collections import Counter

# R1: board order; it breaks ranking ties (R21).
ARTISTS: tuple[str, ...] = ("lite_metal", "yoko", "christin_p", "karl_gitter", "krypto")
ARTIST_NAMES: dict[str, str] = {
    "lite_metal": "Lite Metal",
    "yoko": "Yoko",
    "christin_p": "Christin P.",
    "karl_gitter": "Karl Gitter",
    "krypto": "Krypto",
}

# R2
AUCTION_TYPES: tuple[str, ...] = ("open", "once_around", "sealed", "fixed_price", "double")

# R3: copies of each (artist, type) card, in AUCTION_TYPES order.
_COPIES: dict[str, tuple[int, int, int, int, int]] = {
    "lite_metal": (3, 3, 2, 2, 2),
    "yoko": (3, 2, 3, 3, 2),
    "christin_p": (3, 3, 3, 3, 2),
    "karl_gitter": (3, 3, 3, 3, 3),
    "krypto": (4, 3, 3, 3, 3),
}

CARD_CODES: tuple[str, ...] = tuple(f"{a}.{t}" for a in ARTISTS for t in AUCTION_TYPES)
COPIES: dict[str, int] = dict(
    zip(CARD_CODES, (n for a in ARTISTS for n in _COPIES[a]), strict=True)
)
# Each card code to its one string object, which every table here holds: a game's
# cards are these objects, so comparing them in hands is an identity check, not a
# comparison of characters (a record's cards arrive as strings of their own).
CARD: dict[str, str] = {code: code for code in CARD_CODES}
# The 70 cards in a canonical order (a deck before shuffling).
FULL_DECK: tuple[str, ...] = tuple(code for code in CARD_CODES for _ in range(COPIES[code]))
DECK_SIZE = 70

ARTIST_OF: dict[str, str] = {code: code.split(".")[0] for code in CARD_CODES}
TYPE_OF: dict[str, str] = {code: code.split(".")[1] for code in CARD_CODES}
# Sort key for showing a hand: artist in board order, then auction type.
CARD_ORDER: dict[str, int] = {code: i for i, code in enumerate(CARD_CODES)}

# R6: cards dealt to each hand before rounds 1..4, by number of hands.
DEAL: dict[int, tuple[int, int, int, int]] = {
    3: (10, 6, 6, 0),
    4: (9, 4, 4, 0),
    5: (8, 3, 3, 0),
}

# R22: value tokens for the 1st, 2nd and 3rd artist of a round.
TOKENS: tuple[int, int, int] = (30, 20, 10)

STARTING_MONEY = 100  # R4
ROUNDS = 4  # R19
CARDS_TO_END_ROUND = 5  # R18


def is_card(code: object) -> bool:
    """True for a card code of R3 (`artist.type`)."""
    return isinstance(code, str) and code in COPIES


def is_deck(deck: object) -> bool:
    """True when `deck` is a permutation of the 70 cards of R3 (counted in C: every
    replay of a record checks its deck)."""
    if not isinstance(deck, list | tuple) or len(deck) != DECK_SIZE:
        return False
    try:
        seen = Counter(deck)
    except TypeError:  # an unhashable entry is no card
        return False
    return dict(seen) == COPIES and all(isinstance(code, str) for code in seen)
