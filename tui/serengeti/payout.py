"""The payout grid: for each last digit of a price, whom it would pay (S11–S13)."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text

from .words import compact_name

SHARED = " pl"  # "3 pl": three players would share the price
ALL = "all"  # a price ending in this digit pays everyone else
EVERYONE = "everyone else, shared (no one holds a digit yet)"


def payout_grid(view: dict[str, Any], width: int) -> Table:
    """Two rows: each last digit 0–9, and whom a price ending in it would pay; one phrase
    when every digit pays everyone else (its "all all all …" row puzzled a newcomer)."""
    col = max(4, min(8, (width - 9) // 10))
    pays = pays_row(view, col)
    grid = Table.grid(padding=(0, 0))
    grid.add_column(width=9, no_wrap=True)
    if all(cell.plain == ALL for cell in pays):
        grid.add_column()
        grid.add_row(Text("Ends in", style="dim"), Text("any digit", style="bold"))
        grid.add_row(Text("pays", style="dim"), Text(EVERYONE, style="dim"))
        return grid
    for _ in range(10):
        grid.add_column(width=col, no_wrap=True)
    digits = [Text(str(d), style="bold") for d in range(10)]
    grid.add_row(Text("Ends in", style="dim"), *digits)
    grid.add_row(Text("pays", style="dim"), *pays)
    return grid


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
