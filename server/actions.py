"""Reading a client's `act`: a RECORD.md action without `seat`, checked strictly."""

from __future__ import annotations

from typing import Any

from modernart.engine.cards import is_card
from modernart.engine.game import ACTIONS

from .codec import BadMessage
from .fields import get_int, get_str

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
    if kind not in ACTIONS:
        raise BadMessage(f"unknown action type {kind!r}")
    field = ACTIONS[kind][0]  # the engine's vocabulary: what each action carries
    if field == "card":
        card = get_str(raw, "card", 1, 40)
        if not is_card(card):
            raise BadMessage(f"{card!r} is not a card code (R3)")
        return {"type": kind, "card": card}
    if field == "amount":
        return {"type": kind, "amount": get_int(raw, "amount", 0, MAX_AMOUNT)}
    return {"type": kind}
