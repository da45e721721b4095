"""Events (PROTOCOL.md `update.events`) told in plain language for the event log."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from modernart.engine.modernart.cards import ARTIST_NAMES, ARTIST_OF, CARDS_TO_END_ROUND

from ..words import ordinal
from .style import card_name, lot_name

VIRTUAL = "The virtual player"


def _name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return VIRTUAL if isinstance(seat, int) else "?"


def _payments(names: Sequence[str], payments: list[dict[str, Any]]) -> str:
    parts = []
    for p in payments:
        to = "the bank" if p.get("to") is None else _name(names, p["to"])
        parts.append(f"{p.get('amount')} to {to}")
    return ", ".join(parts)


def narrate(event: dict[str, Any], names: Sequence[str], you: int | None = None) -> str | None:
    """One log line for `event`, or None for events not worth a line.

    Your own moves are told in the second person ("You bid 12").
    """
    if you is not None and 0 <= you < len(names):
        names = [*names[:you], "You", *names[you + 1 :]]
    line = _line(event, names)
    if line is None or you is None:
        return line
    if line.startswith("You "):
        first, _, rest = line[4:].partition(" ")
        line = f"You {SECOND_PERSON.get(first, first)} {rest}".rstrip()
    return line[:1] + YOU_INSIDE.sub("you", line[1:])  # "… from you", "Bob 3, you 9"


YOU_INSIDE = re.compile(r"\bYou\b")

# Verbs that change in the second person: "Ann bids" but "You bid".
SECOND_PERSON = {
    "auctions": "auction",
    "adds": "add",
    "bids": "bid",
    "passes": "pass",
    "has": "have",
    "sets": "set",
    "takes": "take",
    "is": "are",
    "opens": "open",
    "plays": "play",
}


def _line(event: dict[str, Any], names: Sequence[str]) -> str | None:
    kind = event.get("type")
    who = _name(names, event.get("seat"))
    ended = event.get("ends_round")  # set by `mark_round_enders`
    if ended is not None:
        return _round_ender(event, who, ended)
    match kind:
        case "played":
            return f"{who} auctions {card_name(event['card'])}"
        case "turned":
            return f"{VIRTUAL} turns up {card_name(event['card'])}"
        case "added":
            return f"{who} adds {card_name(event['card'])} to the double"
        case "declined":
            return f"{who} adds no second card"
        case "bid":
            return f"{who} bids {event['amount']}"
        case "pass":
            return f"{who} passes"
        case "going":
            return "Going once…" if event.get("stage") == 1 else "Going twice…"
        case "sealed_in":
            return f"{who} has sealed a bid"
        case "reveal":
            bids = ", ".join(f"{_name(names, s)} {b}" for s, b in enumerate(event["bids"]))
            return f"Sealed bids: {bids}"
        case "price":
            return f"{who} sets the price at {event['amount']}"
        case "sold":
            winner = _name(names, event["winner"])
            lot, price = lot_name(event["cards"]), event["price"]
            payments = event.get("payments") or []
            if len(payments) == 1 and payments[0].get("to") is not None:
                return f"{winner} bought {lot} for {price} from {_name(names, payments[0]['to'])}"
            if all(p.get("to") is None for p in payments):
                own = "your" if winner == "You" else "their"
                return f"{winner} bought {own} own {lot} for {price}, paid to the bank"
            return f"{winner} bought {lot} for {price}: {_payments(names, payments)}"
        case "free":
            return f"{who} takes {lot_name(event['cards'])} for free"
        case "round_end":
            tokens = event.get("tokens") or {}
            placed = ", ".join(f"{ARTIST_NAMES[a]} {v}" for a, v in tokens.items())
            return f"Round {event['round']} ends. Tokens: {placed or 'none'}"
        case "round_start":
            first = event.get("auctioneer")
            opener = ""
            if first is not None:
                name = _name(names, first)
                opener = "; you open" if name == "You" else f"; {name} opens"
            return f"Round {event['round']} begins{opener}"
        case "game_end":
            money = event["money"]
            winners = " and ".join(names[s] for s in event["winners"])
            best = max(money) if money else 0
            verb = "win" if len(event["winners"]) > 1 or winners == "You" else "wins"
            return f"Game over: {winners} {verb} with {best}"
    return None


def _round_ender(event: dict[str, Any], who: str, round_no: int) -> str:
    """R18: the 5th card of an artist is not auctioned; it ends the round."""
    card = event["card"]
    artist = ARTIST_NAMES[ARTIST_OF[card]]
    fifth = f"the {ordinal(CARDS_TO_END_ROUND)} {artist}"
    if event.get("type") == "turned":
        return f"{VIRTUAL} turns up {card_name(card)}, {fifth}: it ends round {round_no}"
    if event.get("type") == "added":
        return f"{who} adds {card_name(card)}, {fifth}: round {round_no} ends, the double unsold"
    return f"{who} plays {card_name(card)}, {fifth}: it ends round {round_no}, unsold"


def mark_round_enders(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Copies of `events` where a card that ended the round (R18: it is followed at once
    by `round_end`) carries `ends_round`, so that it is not told as auctioned."""
    out = list(events)
    for i, event in enumerate(events[:-1]):
        after = events[i + 1]
        if event.get("type") in ("played", "added", "turned") and after.get("type") == "round_end":
            counts = after.get("counts") or {}
            artist = ARTIST_OF.get(event.get("card", ""))
            if artist is not None and counts.get(artist, 0) >= CARDS_TO_END_ROUND:
                out[i] = {**event, "ends_round": after.get("round")}
    return out


def action_words(action: dict[str, Any]) -> str | None:
    """A player's action in a few words, cards by name ("auction Krypto (open)"): the
    review's marks (tui/reviewmarks.py). None: no words of the game's for it."""
    card, kind, amount = action.get("card"), action.get("type"), action.get("amount")
    if kind in ("price", "sealed"):
        return f"ask {amount}" if kind == "price" else f"bid {amount} sealed"
    if kind not in ("play", "add") or not isinstance(card, str):
        return None
    try:
        named = card_name(card)
    except KeyError:  # no card of the game: as `modernart review` prints it
        return None
    return f"auction {named}" if kind == "play" else f"add {named}"
