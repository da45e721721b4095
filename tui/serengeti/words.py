"""Serengeti in words and colours: cards by tribe, bid refusals, who a price pays, and the
events (docs/protocol.md, Serengeti) told in plain language for the log."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from modernart.engine.serengeti.cards import DIGIT_OF, TRIBE_OF, TRIBES

from ..words import seat_name

# ANSI colours only (the app's theme): ANSI "yellow" is the brown of the old palettes.
TRIBE_STYLE = {
    "blue": "bold blue",
    "brown": "yellow",
    "red": "bold red",
    "yellow": "bold bright_yellow",
    "green": "bold green",
    "purple": "bold magenta",
}
TRIBE_SHORT = {
    "blue": "bl",
    "brown": "br",
    "red": "re",
    "yellow": "ye",
    "green": "gr",
    "purple": "pu",
}
TIEBREAK_WORDS = {
    "points": "most points",
    "cards": "equal points; most cards decided (S17)",
    "chips": "equal points and cards; most chips decided (S17)",
    "shared": "equal points, cards and chips: the win is shared (S17)",
}


def compact_name(name: str, width: int) -> str:
    """A name for a narrow column, without a bot's level ("Vera (H)" → "Vera")."""
    base = name.rsplit(" (", 1)[0] if name.endswith(")") else name
    return base if len(base) <= width else base[: width - 1] + "…"


def card_text(code: str) -> Text:
    """One card: its tribe's colour, "Blue 3"."""
    tribe = TRIBE_OF.get(code, "?")
    return Text(f"{tribe.capitalize()} {DIGIT_OF.get(code, '?')}", style=TRIBE_STYLE.get(tribe, ""))


def cards_text(codes: Sequence[str]) -> Text:
    """Several cards, "Blue 3, Red 2"."""
    return Text(", ").join(card_text(c) for c in codes) if codes else Text("—", style="dim")


def digit_list(digits: Sequence[int]) -> str:
    """Digits spaced so they do not read as one number: "0–3 5 7 8" (runs of 3+ as a range)."""
    parts: list[str] = []
    run: list[int] = []
    for d in [*sorted(set(digits)), None]:
        if run and (d is None or d != run[-1] + 1):
            parts.append(f"{run[0]}–{run[-1]}" if len(run) > 2 else " ".join(map(str, run)))
            run = []
        if d is not None:
            run.append(d)
    return " ".join(parts)


def by_tribe(codes: Sequence[str], width: int = 0) -> Text:
    """Owned cards grouped by tribe, short: "bl 0 3 8 · re 2" in the tribes' colours (the
    digits spaced, so "bl 389" does not read as Blue 389). Past `width` (if given) the
    next tribe starts a new line: a tribe's digits are never split ("ye 7" / "9")."""
    text, line = Text(), 0
    for tribe in TRIBES:
        digits = sorted(DIGIT_OF[c] for c in codes if TRIBE_OF.get(c) == tribe)
        if digits:
            group = f"{TRIBE_SHORT[tribe]} {' '.join(map(str, digits))}"
            if text and width and line + 3 + len(group) > width:
                text.append("\n")
                line = 0
            elif text:
                text.append(" · ", "dim")
                line += 3
            text.append(group, TRIBE_STYLE[tribe])
            line += len(group)
    return text


def ranges(amounts: Sequence[int], limit: int = 0) -> str:
    """Ascending amounts in short: "8–9, 11, 14–19"; past `limit` runs (if given), "…"."""
    parts: list[str] = []
    start = prev = None
    for a in [*amounts, None]:
        if start is not None and (a is None or a != prev + 1):  # type: ignore[operator]
            parts.append(str(start) if start == prev else f"{start}–{prev}")
            start = None
        if a is not None and start is None:
            start = a
        prev = a
    if limit and len(parts) > limit:
        parts = [*parts[:limit], "…"]
    return ", ".join(parts)


def refusal(amount: int, view: dict[str, Any]) -> str | None:
    """Why a bid of `amount` would be refused (S7), or None if it is legal."""
    you = view.get("you")
    if you is None or you not in (view.get("to_act") or []) or not view.get("legal"):
        return "it is not your turn"
    high = view.get("high")
    if high is None and amount < 1:
        return "the first bid is at least 1"
    if high is not None and amount <= high["amount"]:
        return f"it must be above the high bid, {high['amount']}"
    chips = view.get("chips")
    if chips is not None and amount > chips:
        return f"you have only {chips} chips"
    digit = amount % 10
    seats = view.get("seats") or []
    if 0 <= you < len(seats) and digit in (seats[you].get("barred") or []):
        return f"you own a card with a {digit}: your bids may not end in {digit}"
    if amount not in ((view.get("legal") or {}).get("bid") or []):
        return "not a legal amount now"
    return None


def payout_words(amount: int, view: dict[str, Any], width: int = 0) -> str:
    """Whom a price of `amount` would pay if you won the lot (the view's payout preview,
    S11, S19): "7 to Bob", "3 each to Bob, Cy; 1 to the bank". Past `width` (if given),
    names are counted instead: "2 each to 3 players, 1 to the bank"."""
    words = _payout_words(amount, view)
    if width and len(words) > width:
        words = _payout_words(amount, view, counted=True)
    return words


def _payout_words(amount: int, view: dict[str, Any], counted: bool = False) -> str:
    preview = view.get("payout_preview") or []
    if len(preview) != 10:
        return ""
    paid = preview[amount % 10]
    if not paid:
        return f"{amount} to the bank"
    names = [s.get("name", "?") for s in view.get("seats") or []]
    who = ", ".join(names[s] if 0 <= s < len(names) else "?" for s in paid)
    share, bank = divmod(amount, len(paid))
    if not share:
        return f"{amount} to the bank (too little to share)"
    if counted and len(paid) > 1:
        who = f"{len(paid)} players"
    elif counted:
        who = compact_name(who, 12)
    words = f"{share} to {who}" if len(paid) == 1 else f"{share} each to {who}"
    return words + (f"; {bank} to the bank" if bank else "")


def lot_gain(view: dict[str, Any], seat: int | None) -> int:
    """The tribe points the lot would add to `seat`'s (S15)."""
    seats = view.get("seats") or []
    if seat is None or not 0 <= seat < len(seats):
        return 0

    def points(codes: Sequence[str]) -> int:
        return sum(
            (n := sum(1 for c in codes if TRIBE_OF.get(c) == t)) * (n + 1) // 2 for t in TRIBES
        )

    owned = list(seats[seat].get("owned") or [])
    return points(owned + list(view.get("lot") or [])) - points(owned)


def payments_words(payments: list[dict[str, Any]], names: Sequence[str], you: int | None) -> str:
    """ "2 each to Bob, Cy; 1 to the bank" from a `sold` event's payments."""
    paid = [p for p in payments if p.get("to") is not None]
    bank = sum(p.get("amount", 0) for p in payments if p.get("to") is None)
    who = ", ".join(seat_name(names, p["to"], you).replace("You", "you") for p in paid)
    amounts = {p.get("amount") for p in paid}
    if len(amounts) == 1:
        each = " each" if len(paid) > 1 else ""
        parts = [f"{amounts.pop()}{each} to {who}"]
    else:
        parts = [f"{p.get('amount')} to {seat_name(names, p['to'], you)}" for p in paid]
    if bank:
        parts.append(f"{bank} to the bank")
    return "; ".join(parts) or "nothing paid"


def narrate(event: dict[str, Any], names: Sequence[str], you: int | None = None) -> Text | None:
    """One log line for a Serengeti event; your own moves in the second person."""
    kind = event.get("type")
    who = seat_name(names, event.get("seat"), you)
    verb_s = "" if who == "You" else "s"
    if kind == "auction":
        starter = seat_name(names, event.get("start"), you)
        return Text.assemble(
            (f"Auction {event.get('number')} of 15: ", "bold"),
            f"{starter} turn{'' if starter == 'You' else 's'} up ",
            cards_text(event.get("cards") or []),
        )
    if kind == "bid":
        return Text(f"{who} bid{verb_s} {event.get('amount')}")
    if kind == "pass":
        if event.get("deferred"):
            return Text(
                f"{who} pass{'' if who == 'You' else 'es'} first (start player: +2 chips "
                "if someone else buys)"
            )
        bonus = event.get("bonus") or 0
        extra = f" (early pass: +{bonus} chips)" if bonus else ""
        return Text(f"{who} pass{'' if who == 'You' else 'es'}{extra}")
    if kind == "sold":
        winner = seat_name(names, event.get("winner"), you)
        digit = event.get("digit")
        holders = event.get("holders") or []
        if holders:
            whose = " and ".join(seat_name(names, h, you).replace("You", "you") for h in holders)
            why = f"ends in {digit}, held by {whose}"
        else:
            why = f"ends in {digit}, which no one else holds: all others share"
        return Text.assemble(
            (f"{winner} buy{'' if winner == 'You' else 's'} ", "bold"),
            cards_text(event.get("cards") or []),
            (f" for {event.get('price')}", "bold"),
            f" · {why}: {payments_words(event.get('payments') or [], names, you)}",
        )
    if kind == "bonus":
        return Text(
            f"{who} get{verb_s} the start player's early-pass bonus: +{event.get('amount')}"
        )
    if kind == "free":
        return Text.assemble(
            (f"Nobody bid: {who} take{verb_s} ", "bold"),
            cards_text(event.get("cards") or []),
            (" free", "bold"),
        )
    if kind == "game_end":
        winners = [seat_name(names, s, you) for s in event.get("winners") or []]
        tie = event.get("tiebreak")
        how = "" if tie in (None, "points") else f" ({TIEBREAK_WORDS.get(tie, tie)})"
        verb = "win" if len(winners) > 1 or winners == ["You"] else "wins"
        return Text(f"Game over: {' and '.join(winners)} {verb}{how}", style="bold yellow")
    return None


def action_words(action: dict[str, Any]) -> str | None:
    """A bid in the game's words for the review's marks (tui/reviewmarks.py)."""
    return f"bid {action.get('amount')} chips" if action.get("type") == "bid" else None
