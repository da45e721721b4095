"""Reading a client's `act`: a RECORD.md action without `seat`, checked strictly."""

from __future__ import annotations

from typing import Any

from modernart.engine.cards import is_card

from .codec import BadMessage
from .fields import get_int, get_str

CARD_ACTIONS = ("play", "add")
AMOUNT_ACTIONS = ("bid", "sealed", "price")
BARE_ACTIONS = ("decline", "pass", "buy")
MAX_AMOUNT = 1_000_000  # far above any purse; larger numbers are malformed


class CloseNotAllowed(Exception):
    """Only the server's hammer may send `close` (PROTOCOL.md: not_allowed)."""


def parse_action(msg: dict[str, Any]) -> dict[str, Any]:
    """The action of an `act`, rebuilt from checked fields only (a sent `seat` is ignored)."""
    raw = msg.get("action")
    if not isinstance(raw, dict):
        raise BadMessage("`action` must be a map")
    kind = raw.get("type")
    if not isinstance(kind, str):
        raise BadMessage("`action.type` must be a string")
    if kind == "close":
        raise CloseNotAllowed("only the server closes an open auction (R12)")
    if kind in CARD_ACTIONS:
        card = get_str(raw, "card", 1, 40)
        if not is_card(card):
            raise BadMessage(f"{card!r} is not a card code (R3)")
        return {"type": kind, "card": card}
    if kind in AMOUNT_ACTIONS:
        return {"type": kind, "amount": get_int(raw, "amount", 0, MAX_AMOUNT)}
    if kind in BARE_ACTIONS:
        return {"type": kind}
    raise BadMessage(f"unknown action type {kind!r}")
