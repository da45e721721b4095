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

Issue 33 closed what the first rules let through: the keys also come from the name
as typed (NFKC turns the lunate sigma `ϲ` into `σ` before the skeleton could see a
`c`), drop combining marks (`alı̇ce`: a dotless ı under a combining dot), and map a
few look-alikes the package's table misses or maps elsewhere (`_EXTRA`). A bot's
mark is refused anywhere in a name, in any brackets (`Otto ❪R❫`, `Otto (R).`), as
are enclosed letters and signs (`®`, `Ⓡ`); so are names that pass for the system
(`Server`, `SYSTEM`, `modernart`: `_RESERVED`, compared by key) and guest names,
which the server gives (`guest_like`). docs/decisions/33-names.md.
"""

from __future__ import annotations

import functools
import json
import random
import re
import unicodedata
from collections.abc import Callable
from importlib.resources import files

ROOM_NAME_MAX = 40  # characters of a room's name (`create`; a rematch's, server/rooms/rematch.py)
MAX_LENGTH = 24
# The version of `name_keys`: a store keyed by another re-keys every held name once
# when it opens (server/store/players.py). Bump it whenever the keys change.
KEYS_VERSION = 2
_random = random.SystemRandom()

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
# A bot's seat shows its level's letter in brackets ("Otto (R)", server/rooms/room.py):
# a player's name may not hold that anywhere, in any bracket that looks like one
# (every opening or closing punctuation, quotation angle or `<>`, read as `(` `)`).
_BOT_MARK = re.compile(r"\(\s*\w\s*\)")
_ANGLES = {"<": "(", ">": ")"}
# Letters and digits in circles or brackets, and signs like them: `Otto ®` passes
# for a bot's mark (®, ©, ℗ and the Enclosed Alphanumerics blocks).
_ENCLOSED_RANGES = (
    (0x00A9, 0x00A9),
    (0x00AE, 0x00AE),
    (0x2117, 0x2117),
    (0x2460, 0x24FF),
    (0x2776, 0x2793),
    (0x3200, 0x32FF),
    (0x1F100, 0x1F1E5),  # the regional indicators after it make flags: allowed
)
# Look-alikes the package's table misses or maps elsewhere (TR39 itself maps the
# palochka to l now; the package's older table says i).
_EXTRA = {
    "\u04cf": "l",  # ӏ Cyrillic small palochka
    "\u04c0": "l",  # Ӏ Cyrillic palochka
    "\u0131": "i",  # ı dotless i (its dot may come as a combining mark)
    "\u0237": "j",  # ȷ dotless j
    "\u03f2": "c",  # ϲ Greek lunate sigma (NFKC makes it σ)
    "\u03f9": "C",  # Ϲ
    "\u03f3": "j",  # ϳ Greek yot
}
# Words a player may not name themselves with, compared by key, so `SYSTEM`,
# `Modern Art`, `m0dernart` and `server: restart` are refused: the server's
# voice, its staff and the guests it names itself.
_RESERVED = (
    "server",
    "system",
    "modernart",
    "admin",
    "administrator",
    "moderator",
    "operator",
    "sysop",
    "staff",
    "official",
)  # not "bot": `modernart bot` plays as "expert-bot"; the server's bots' (R) no name may hold
GUEST = "guest"  # "Guest 1234" (server/doors/web/identity.py): given by the server only


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
    if any(enclosed(c) for c in name + unicodedata.normalize("NFKC", name)):
        return "a name may not hold letters in circles or brackets, nor signs like ®"
    if any(_BOT_MARK.search(_bracketed(text)) for text in (name, skeleton(fold(name)))):
        return "a name may not hold a bot's mark, such as (R)"
    if _words(name) & _reserved_keys():
        return "a name may not pass for the server, its staff or a bot"
    return None


def enclosed(char: str) -> bool:
    code = ord(char)
    return any(lo <= code <= hi for lo, hi in _ENCLOSED_RANGES)


def _bracketed(text: str) -> str:
    """`text` folded, with every bracket-like character read as `(` or `)`."""
    out = []
    for char in fold(text):
        kind = unicodedata.category(char)
        out.append("(" if kind in ("Ps", "Pi") else ")" if kind in ("Pe", "Pf") else char)
    return "".join(_ANGLES.get(c, c) for c in out)


def _words(name: str) -> frozenset[str]:
    """The keys of the name's words (trailing digits dropped: `Guest1234`), and of
    the name without its spaces and punctuation (`Modern Art`)."""
    words = [w.rstrip("0123456789") for w in re.split(r"[\W_]+", fold(name))]
    words = [w for w in words if w]
    return frozenset().union(*(name_keys(w) for w in [*words, "".join(words)] if w))


@functools.cache
def _reserved_keys() -> frozenset[str]:
    return frozenset().union(*(name_keys(w) for w in _RESERVED))


def guest() -> str:
    """A guest name (`Guest 1234`): a new browser's, or a door user name no player may have."""
    return f"Guest {_random.randrange(1000, 10_000)}"


def guest_like(name: str) -> bool:
    """A name like the server's guest names (`Guest 1234`), which players may not pick."""
    return bool(_words(name) & name_keys(GUEST))


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
    """TR39's skeleton: every character replaced by its confusable prototype (our
    `_EXTRA` first)."""
    protos = _prototypes()
    mapped = "".join(_EXTRA.get(c) or protos.get(c, c) for c in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFC", mapped)


def _unmarked(text: str) -> str:
    """`text` without its combining marks (`é` is `e`, `ı̇` is `ı`)."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def _key(text: str) -> str:
    return _unmarked(fold(_unmarked(skeleton(text))))


def name_keys(name: str) -> frozenset[str]:
    """The keys `name` is compared by: its skeleton as typed, after NFKC and after
    case folding (a prototype may be a capital, `0` -> `O`, folding may make a
    letter that has one, `I` -> `i`, and NFKC may turn a look-alike into a letter
    that is none, `ϲ` -> `σ`), each folded and without combining marks. Names
    sharing a key are the same name."""
    variants = (name, unicodedata.normalize("NFKC", name), fold(name))
    return frozenset(_key(v) for v in variants)


# A taken name's suggestion tries a few names in order, then a few at random: a
# bounded number of lookups (one indexed query each) however many look-alikes an
# attacker holds (issue 33).
SUGGEST_IN_ORDER, SUGGEST_AT_RANDOM = 3, 5


def _suffixed(name: str, n: int) -> str:
    suffix = str(n)
    return name[: MAX_LENGTH - len(suffix)].rstrip(" ") + suffix


def suggest(name: str, taken: Callable[[str], bool]) -> str | None:
    """A free name like `name`: `alice2`, `alice3`, `alice4`, then `alice` with a
    random number, at most SUGGEST_IN_ORDER + SUGGEST_AT_RANDOM tries; None if all
    of those are taken."""
    numbers = [*range(2, 2 + SUGGEST_IN_ORDER)]
    numbers += [_random.randrange(10, 100_000) for _ in range(SUGGEST_AT_RANDOM)]
    for n in numbers:
        candidate = _suffixed(name, n)
        if refusal(candidate) is None and not taken(candidate):
            return candidate
    return None


def first_free(name: str, taken: Callable[[str], bool]) -> str:
    """The first of `name2`, `name3`, … that is free: for the store's one-off dedupe
    at start (in memory, without limit), not for a client's request."""
    n = 2
    while taken(_suffixed(name, n)):
        n += 1
    return _suffixed(name, n)
