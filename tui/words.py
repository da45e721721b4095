"""Words every table uses: names cut to a width, a capital first letter, ordinals, counts,
who wins, who hosts, a seat's name for the log, a labelled line of a seat's own part."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text


def short_name(name: str, width: int) -> str:
    """A name cut to `width` cells, keeping a trailing number ('Heuristic bot 12' → 'Heuris…12')
    and a last part after " · " ("alice's table · rematch 2" → "alice's… · rematch 2": rooms
    of one table's rematches were all "alice's table · remat…", play-test 2026-12-03)."""
    if len(name) <= width:
        return name
    head, dot, part = name.rpartition(" · ")
    for end in (dot + part, part):  # " · rematch 2" if it fits beside 2 cells, or "rematch 2"
        if head and len(end) <= width - 3:
            return head[: width - len(end) - 1].rstrip() + "…" + end
    head, _, tail = name.rpartition(" ")
    if head and tail.isdigit() and len(tail) < width - 2:
        return name[: width - len(tail) - 1].rstrip() + "…" + tail
    return name[: width - 1] + "…"


def capital(text: str) -> str:
    """'you' at the start of a sentence as 'You'; a name stays as its player typed it
    ('alice' is never 'Alice')."""
    if text == "you" or text.startswith(("you ", "you,", "you:")):
        return "Y" + text[1:]
    return text


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 5th …"""
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n if n < 20 else n % 10, 'th') }"


def count(n: int, word: str, plural: str | None = None) -> str:
    """'1 point', '2 points' ('1 shield', '3 shields'; `plural` where an s will not do)."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


def winners_line(winners: list[str]) -> str:
    """'Ann wins', 'You win', 'Ann and Bob win': the verb agrees with who won."""
    verb = "wins" if len(winners) == 1 and winners[0] not in ("You", "you") else "win"
    return f"{' and '.join(winners)} {verb}"


def host_name(seats: list[dict[str, Any]], host: Any) -> str:
    """The waiting room's host for a guest: "Ann (the host)", or "the host"."""
    if isinstance(host, int) and 0 <= host < len(seats):
        return f"{seats[host].get('name', '?')} (the host)"
    return "the host"


def seat_name(names: Sequence[str], seat: Any, you: int | None) -> str:
    """The name at `seat` as a log line says it: "You" for the reader's own, "?" for a seat
    that is not there."""
    if seat == you and you is not None:
        return "You"
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return "?"


def add_line(text: Text, label: str, value: str) -> None:
    """Append a new line `label: value` to `text`, the label in cyan (tui/<game>/private.py)."""
    text.append(f"\n{label}: ", style="cyan")
    text.append(value)
