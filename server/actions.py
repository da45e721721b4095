"""Reading a client's `act`: an action of the room's game without `seat`, checked strictly.

Each game names its action types and the fields each carries (`GameInfo.actions`).
The server rebuilds the action from those fields only, each of a plain shape
(an integer, a boolean, a short printable string, or a short list of those);
the engine then checks the values against the rules. Modern Art's `card` and
`amount` keep their own strict readers (and errors).
"""

from __future__ import annotations

from typing import Any

from modernart.engine.games import GameInfo

from .codec import BadMessage
from .fields import get_int, get_str, is_int

MAX_AMOUNT = 1_000_000  # far above any purse; larger numbers are malformed
MAX_LIST = 16  # items in a list field (Art Society's `shapes`: players + 1)
MAX_TEXT = 40  # characters in a string field (card codes, cells, shapes)


class CloseNotAllowed(Exception):
    """Only the server's hammer may send it (PROTOCOL.md: not_allowed)."""


def parse_action(raw: dict[str, Any], info: GameInfo) -> dict[str, Any]:
    """An `act`'s action (a map, server/messages.py), rebuilt from checked fields only
    (a sent `seat` is ignored)."""
    kind = raw.get("type")
    if not isinstance(kind, str):
        raise BadMessage("`action.type` must be a string")
    if info.hammer is not None and kind == info.hammer["type"]:
        raise CloseNotAllowed("only the server closes an open auction (R12)")
    if kind not in info.actions:
        raise BadMessage(f"unknown action type {kind!r}"[:200])
    action: dict[str, Any] = {"type": kind}
    for name in info.actions[kind]:
        if name == "card" and info.check_card is not None:
            card = get_str(raw, "card", 1, MAX_TEXT)
            if not info.check_card(card):
                raise BadMessage(f"{card!r} is not a card code (R3)")
            action["card"] = card
        elif name == "amount":
            action["amount"] = get_int(raw, "amount", 0, MAX_AMOUNT)
        elif name in raw:
            action[name] = _plain(raw[name], name)
    return action


def _plain(value: object, name: str) -> Any:
    """A field's value if it is of a plain shape; the engine judges its meaning."""
    if isinstance(value, list):
        if len(value) > MAX_LIST:
            raise BadMessage(f"`action.{name}` may hold at most {MAX_LIST} items")
        return [_scalar(item, name) for item in value]
    return _scalar(value, name)


def _scalar(value: object, name: str) -> Any:
    if isinstance(value, bool):
        return value
    if is_int(value):
        if not -MAX_AMOUNT <= value <= MAX_AMOUNT:  # type: ignore[operator]
            raise BadMessage(f"`action.{name}` is out of range")
        return value
    if isinstance(value, str):
        if not 1 <= len(value) <= MAX_TEXT or not value.isprintable():
            raise BadMessage(f"`action.{name}` must be 1 to {MAX_TEXT} printable characters")
        return value
    raise BadMessage(f"`action.{name}` must be an integer, a boolean, a string or a list")
