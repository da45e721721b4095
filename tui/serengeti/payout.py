"""The payout grid: for each last digit of a price, whom it would pay (S11–S13)."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from ..lines import columns
from .words import compact_name

SHARED = " pl"  # "3 pl": three players would share the price
ALL = "all"  # a price ending in this digit pays everyone else
EVERYONE = "everyone else, shared (no one holds a digit yet)"
LABEL = 9  # the labels' column ("Ends in", "pays"), before the digits' columns


def payout_lines(view: dict[str, Any], width: int) -> list[Text]:
    """Two rows: each last digit 0–9, and whom a price ending in it would pay; one phrase
    when every digit pays everyone else (its "all all all …" row puzzled a newcomer).

    The columns touch (no space between them): each is given one cell less than its
    width, and `columns()` puts the missing cell, a space, after it."""
    col = max(4, min(8, (width - LABEL) // 10))
    pays = pays_row(view, col)
    if all(cell.plain == ALL for cell in pays):
        return [
            columns(
                (Text("Ends in", style="dim"), LABEL - 1, "left"),
                (Text("any digit", style="bold"), 0, "left"),
            ),
            columns(
                (Text("pays", style="dim"), LABEL - 1, "left"),
                (Text(EVERYONE, style="dim"), 0, "left"),
            ),
        ]
    digits = [Text(str(d), style="bold") for d in range(10)]
    return [
        columns((Text(label, style="dim"), LABEL - 1, "left"), *((c, col - 1, "left") for c in row))
        for label, row in (("Ends in", digits), ("pays", pays))
    ]


def legend(view: dict[str, Any]) -> str:
    """What the grid's short form means where it shows one: "2 pl = 2 players share"
    ("n pl = n players share" for several)."""
    shared = {t.plain.removesuffix(SHARED) for t in pays_row(view, 4) if t.plain.endswith(SHARED)}
    if not shared:
        return ""
    n = shared.pop() if len(shared) == 1 else "n"
    return f"{n}{SHARED} = {n} players share"


def pays_row(view: dict[str, Any], col: int) -> list[Text]:
    """Per last digit: you may not bid it (✗), nobody, everyone else, a name, or `3 pl`."""
    seats = view.get("seats") or []
    you = view.get("you")
    barred = set(seats[you].get("barred") or []) if you is not None and you < len(seats) else set()
    preview = view.get("payout_preview") or []
    pays: list[Text] = []
    everyone_else = len(seats) - 1
    for d in range(10):
        paid = preview[d] if d < len(preview) else []
        if d in barred and you is not None:
            pays.append(Text("✗", style="bold red"))
        elif not paid:
            pays.append(Text("·", style="dim"))
        elif len(paid) == everyone_else and not any(d in (s.get("barred") or []) for s in seats):
            pays.append(Text(ALL, style="dim"))
        elif len(paid) == 1:
            pays.append(Text(compact_name(seats[paid[0]].get("name", "?"), col - 1)))
        else:
            pays.append(Text(f"{len(paid)}{SHARED}", style="italic"))
    return pays
