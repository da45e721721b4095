"""Players' names: which names may be worn, and when two names are the same name.

One name, one player (issue 18): two names are the same when they look alike to
a reader. They are compared by keys: Unicode NFKC, case folding and the
confusable skeleton of Unicode TR39 (its confusables table, through the
`confusable-homoglyphs` package), so `аlice` with a Cyrillic а is `alice`, and
`B0B` is `bob`. Two names clash when they share a key (`name_keys`).

Refused outright (`refusal`), beyond the control, format and bidirectional
characters that `str.isprintable` already keeps out: characters that show
nothing (Hangul fillers U+3164, U+115F, U+1160, U+FFA0, Braille blank U+2800,
every default-ignorable code point), spaces other than U+0020, a space at
either end or two in a row, more than two combining marks on one letter, a
name without a single visible letter, digit or symbol, and a name that ends
like a bot's level mark (`Otto (R)`).
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections.abc import Callable
from importlib.resources import files

MAX_LENGTH = 24

# Code points that render as nothing, or as blank space, in common terminals:
# Unicode's Default_Ignorable_Code_Point ranges plus the blank-looking letters and
# symbols (Hangul fillers, Braille pattern blank, Khmer inherent vowels).
_INVISIBLE_RANGES = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x2800, 0x2800),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
MAX_COMBINING = 2  # marks on one base character; more is a "stack" (zalgo text)
# A bot's seat shows its level's letter in brackets ("Otto (R)", server/room.py):
# a player's name may not end like that, in any bracket that looks like one.
_BOT_MARK = re.compile(r"[(\[{]\s*\w\s*[)\]}]\s*$")


def invisible(char: str) -> bool:
    code = ord(char)
    return any(lo <= code <= hi for lo, hi in _INVISIBLE_RANGES)


def refusal(name: str) -> str | None:
    """Why `name` may not be a player's name, or None if it may."""
    if not 1 <= len(name) <= MAX_LENGTH:
        return f"a name has 1 to {MAX_LENGTH} characters"
    if not name.isprintable():
        return "a name may hold printable characters only"
    if any(invisible(c) for c in name):
        return "a name may not hold invisible characters"
    if any(c.isspace() and c != " " for c in name):
        return "the only space a name may hold is the plain one"
    if name != name.strip(" ") or "  " in name:
        return "a name may not start or end with a space, nor hold two in a row"
    marks = 0
    for char in name:
        marks = marks + 1 if unicodedata.combining(char) else 0
        if marks > MAX_COMBINING:
            return f"a name may not stack more than {MAX_COMBINING} accents on a letter"
    if not any(unicodedata.category(c)[0] in "LNPS" for c in name):
        return "a name needs a letter, a digit, a punctuation mark or a symbol"
    if _BOT_MARK.search(skeleton(fold(name))):
        return "a name may not end like a bot's mark, such as (R)"
    return None


def fold(text: str) -> str:
    """NFKC with case folding (Unicode's NFKC_Casefold, near enough)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


@functools.cache
def _prototypes() -> dict[str, str]:
    """TR39's confusables as character -> prototype. The package's table lists every
    confusable pair both ways; a character with a single partner maps to it, and a
    pair that only knows each other maps to the smaller of the two, so that both
    sides of every pair reach one prototype."""
    table = json.loads(
        files("confusable_homoglyphs").joinpath("confusables.json").read_text(encoding="utf-8")
    )
    out: dict[str, str] = {}
    for char, homoglyphs in table.items():
        if len(char) != 1 or len(homoglyphs) != 1:
            continue
        partner = homoglyphs[0]["c"].strip("\u200e")  # bidi marks around RTL glyphs
        partners_of_partner = table.get(partner, [])
        if len(partners_of_partner) == 1 and partner > char:
            continue  # a lone pair: the smaller one is the prototype
        out[char] = partner
    return out


def skeleton(text: str) -> str:
    """TR39's skeleton: every character replaced by its confusable prototype."""
    protos = _prototypes()
    mapped = "".join(protos.get(c, c) for c in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFC", mapped)


def name_keys(name: str) -> frozenset[str]:
    """The keys `name` is compared by: its skeleton before and after case folding
    (a prototype may be a capital, `0` -> `O`, and folding may make a letter that
    has one, `I` -> `i`), each folded. Names sharing a key are the same name."""
    folded = fold(name)
    return frozenset({fold(skeleton(folded)), fold(skeleton(unicodedata.normalize("NFKC", name)))})


def suggest(name: str, taken: Callable[[str], bool]) -> str:
    """A free name like `name`: `alice2`, `alice3`, … (shortened to fit 24 characters)."""
    for n in range(2, 10_000):
        suffix = str(n)
        candidate = name[: MAX_LENGTH - len(suffix)].rstrip(" ") + suffix
        if refusal(candidate) is None and not taken(candidate):
            return candidate
    raise RuntimeError("no free name")  # 10,000 players of one name: not in this world
