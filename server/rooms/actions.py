"""Reading a client's `act`: an action of the room's game without `seat`, checked strictly.

Each game names its action types and the fields each carries (`GameInfo.actions`);
from those this module builds, once per game, a msgspec Struct per action type
(tagged on `type`), into which the `act`'s action, left as raw msgpack at the edge,
is decoded. A field is of a plain shape (an integer, a boolean, a short printable
string, or a short list of those); a game that checks card codes has a strict
`card`, and `amount` is a non-negative integer. The engine then judges the values
and still receives the plain dict of RECORD.md's actions (a sent `seat` is ignored).
"""

from __future__ import annotations

import re
from functools import cache
from typing import Annotated, Any, Union

import msgpack
import msgspec
from msgspec import UNSET, Meta, UnsetType

from modernart.engine.games import GameInfo, get_game
from modernart.server.wire.codec import BadMessage
from modernart.server.wire.edge import field_error

MAX_AMOUNT = 1_000_000  # far above any purse; larger numbers are malformed
MAX_LIST = 16  # items in a list field (Art Society's `shapes`: players + 1)
MAX_TEXT = 40  # characters in a string field (card codes, cells, shapes)

Text = Annotated[str, Meta(min_length=1, max_length=MAX_TEXT)]
Scalar = bool | Annotated[int, Meta(ge=-MAX_AMOUNT, le=MAX_AMOUNT)] | Text
Plain = Scalar | Annotated[list[Scalar], Meta(max_length=MAX_LIST)]
Amount = Annotated[int, Meta(ge=0, le=MAX_AMOUNT)]


class CloseNotAllowed(Exception):
    """Only the server's hammer may send it (PROTOCOL.md: not_allowed)."""


class Action(msgspec.Struct, tag_field="type", frozen=True, kw_only=True):
    """One action type of a game; its fields are made by `action_types`."""


class PlainAction(Action, frozen=True, kw_only=True):
    """An action type with fields of a plain shape, whose strings must be printable."""

    def __post_init__(self) -> None:
        for field in self.__struct_fields__:
            value = getattr(self, field)
            for item in value if isinstance(value, list) else (value,):
                if isinstance(item, str) and not item.isprintable():
                    raise ValueError(f"`action.{field}` must be printable characters only")


@cache
def action_types(game: str) -> msgspec.msgpack.Decoder[Any]:
    """A decoder of `game`'s actions: a Struct per type of `GameInfo.actions` (and the
    hammer's, which only the server may send)."""
    info = get_game(game)
    kinds = dict(info.actions)
    if info.hammer is not None:
        kinds.setdefault(info.hammer["type"], ())
    structs = []
    for kind, names in kinds.items():
        fields: list[tuple[str, Any, Any]] = []
        base: type[Action] = Action
        for name in names:
            if name == "card" and info.check_card is not None:
                fields.append((name, Text, msgspec.NODEFAULT))
            elif name == "amount":
                fields.append((name, Amount, msgspec.NODEFAULT))
            else:
                fields.append((name, Plain | UnsetType, UNSET))
                base = PlainAction
        structs.append(msgspec.defstruct(kind, fields, bases=(base,), tag=kind, kw_only=True))
    return msgspec.msgpack.Decoder(Union[tuple(structs)])  # noqa: UP007 (a union built at run time)


def parse_action(raw: msgspec.Raw, info: GameInfo) -> dict[str, Any]:
    """An `act`'s action (raw msgpack, server/wire/messages.py) as the engine takes it."""
    try:
        action: Action = action_types(info.name).decode(raw)
    except msgspec.ValidationError as exc:
        value = msgpack.unpackb(raw, raw=False, strict_map_key=False)
        raise _explained(value, info, str(exc)) from None
    if info.hammer is not None and action.__struct_config__.tag == info.hammer["type"]:
        raise CloseNotAllowed("only the server closes an open auction (R12)")
    card = getattr(action, "card", None)
    if info.check_card is not None and card is not None and not info.check_card(card):
        raise BadMessage(f"{card!r} is not a card code (R3)")
    # The action as the engine and the record take it: with its `type`, without
    # the fields not sent (UNSET).
    return msgspec.to_builtins(action)  # type: ignore[no-any-return]


def _explained(value: object, info: GameInfo, said: str) -> Exception:
    """Why `value` is no action of `info`'s game, in the words clients have had."""
    if not isinstance(value, dict):
        return BadMessage("`action` must be a map")
    kind = value.get("type")
    if not isinstance(kind, str):
        return BadMessage("`action.type` must be a string")
    if info.hammer is not None and kind == info.hammer["type"]:
        return CloseNotAllowed("only the server closes an open auction (R12)")
    if kind not in info.actions:
        return BadMessage(f"unknown action type {kind!r}"[:200])
    missing = re.match(r"Object missing required field `(\w+)`", said)
    if missing:
        return BadMessage(f"`{missing[1]}` is required")
    at = re.match(r"^(?P<what>.*?) - at `\$\.(?P<field>\w+)", said)
    if at is None:
        return BadMessage(f"`action`: {said}")
    field, what = at["field"], at["what"]
    strict = {"amount": (0, MAX_AMOUNT, False), "card": (1, MAX_TEXT, True)}
    if field == "amount" or (field == "card" and info.check_card is not None):
        return BadMessage(field_error(field, what, strict[field]))
    return BadMessage(f"`action.{field}`: {what}")
