"""How cards, artists and auction types look: 16 ANSI colours and ASCII symbols only.

Everything here must read well over SSH on a 16-colour terminal, so colours
are the standard ANSI names and symbols are single-cell ASCII.
"""

from __future__ import annotations

from rich.text import Text

from modernart.engine.modernart.cards import ARTIST_NAMES, ARTIST_OF, TYPE_OF

# Artist colours in board order (R1), as a card's background; the foreground used on
# top of each.
ARTIST_COLOUR: dict[str, str] = {
    "lite_metal": "yellow",
    "yoko": "green",
    "christin_p": "red",
    "karl_gitter": "blue",
    "krypto": "magenta",
}
# The artist's colour as text on the terminal's dark background: the bright variants,
# since the plain ones are too dark to read there (the browser's blue and magenta) and
# only some terminals brighten bold text (docs/decisions/28-matable.md).
ARTIST_TEXT: dict[str, str] = {artist: f"bright_{c}" for artist, c in ARTIST_COLOUR.items()}
_ON_COLOUR: dict[str, str] = {
    "lite_metal": "black",
    "yoko": "black",
    "christin_p": "bright_white",
    "karl_gitter": "bright_white",
    "krypto": "bright_white",
}
ARTIST_ABBR: dict[str, str] = {
    "lite_metal": "LM",
    "yoko": "YO",
    "christin_p": "CP",
    "karl_gitter": "KG",
    "krypto": "KR",
}
# R2: one ASCII symbol per auction type.
TYPE_SYMBOL: dict[str, str] = {
    "open": "!",
    "once_around": "@",
    "sealed": "?",
    "fixed_price": "$",
    "double": "=",
}
TYPE_NAME: dict[str, str] = {
    "open": "open",
    "once_around": "once around",
    "sealed": "sealed",
    "fixed_price": "fixed price",
    "double": "double",
}
LEGEND = "  ".join(f"{TYPE_SYMBOL[t]} {TYPE_NAME[t]}" for t in TYPE_SYMBOL)


def artist_text(artist: str, width: int = 0) -> Text:
    """The artist's full name in its colour, padded to `width`."""
    return Text().append(ARTIST_NAMES[artist].ljust(width), style=artist_style(artist))


def artist_style(artist: str) -> str:
    """The artist's name as text on the dark background. Give it to a span (`append`),
    never as a `Text`'s own style: a Static (Textual's `Content`) reads that style as
    CSS, where "blue" is #0000ff and "bright_blue" nothing."""
    return f"bold {ARTIST_TEXT[artist]}"


def card_chip(code: str, selected: bool = False, dim: bool = False) -> Text:
    """A card as a 5-cell chip: artist initials and the type symbol on the artist's colour."""
    artist, kind = ARTIST_OF[code], TYPE_OF[code]
    label = f"{ARTIST_ABBR[artist]}{TYPE_SYMBOL[kind]}"
    on_card = f"bold {_ON_COLOUR[artist]} on {ARTIST_COLOUR[artist]}"
    style = ARTIST_TEXT[artist] if dim else on_card
    if selected:
        return Text.assemble(("[", "bold reverse"), (label, style), ("]", "bold reverse"))
    return Text.assemble(" ", (label, style), " ")


def card_name(code: str) -> str:
    """'Krypto (sealed)': a card in words."""
    return f"{ARTIST_NAMES[ARTIST_OF[code]]} ({TYPE_NAME[TYPE_OF[code]]})"


def lot_name(cards: list[str]) -> str:
    """'Krypto' or 'Krypto ×2': what a lot is, for the event log."""
    if not cards:
        return "nothing"
    name = ARTIST_NAMES[ARTIST_OF[cards[0]]]
    return f"{name} ×{len(cards)}" if len(cards) > 1 else name


def paintings(codes: list[str]) -> Text:
    """Purchased paintings as coloured initials and counts by artist, e.g. 'LM2 KR1'."""
    text = Text()
    for artist in ARTIST_COLOUR:
        n = sum(1 for c in codes if ARTIST_OF[c] == artist)
        if not n:
            continue
        if text:
            text.append(" ")
        text.append(f"{ARTIST_ABBR[artist]}{n}", style=artist_style(artist))
    return text
