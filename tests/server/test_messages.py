"""Client messages are typed at the edge: docs/protocol.md's tables name the Structs'
fields, bad fields get today's words with the request's `re`, and each game's actions
are Structs built from its `GameInfo`."""

from __future__ import annotations

import re
from pathlib import Path

import msgpack
import msgspec
import pytest

from modernart.engine.games import GAME_NAMES, get_game
from modernart.server.rooms.actions import action_types, parse_action
from modernart.server.wire.codec import BadMessage
from modernart.server.wire.edge import BadFrame, decode_message
from modernart.server.wire.messages import ClientMessage

CARDS = {"modernart": "lite_metal.open", "serengeti": "blue.3"}  # one of each game's codes
PROTOCOL = Path(__file__).parents[2] / "docs" / "protocol.md"
FIELD = re.compile(r"`(\w+)(?::[^`]*)?`(\?)?")


def _segments(cell: str) -> list[str]:
    """A table cell split at its top-level commas (not inside parentheses)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(cell):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(cell[start:i])
            start = i + 1
    return [*parts, cell[start:]]


def documented() -> dict[str, dict[str, bool]]:
    """docs/protocol.md's client → server tables: message → {field: optional}."""
    found: dict[str, dict[str, bool]] = {}
    in_table = False
    for line in PROTOCOL.read_text().splitlines():
        if line.startswith("| client → server"):
            in_table = True
            continue
        if not line.startswith("|"):
            in_table = False
        if not in_table or line.startswith("|--") or line.startswith("| --"):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        name = re.match(r"`(\w+)`", cells[0])
        assert name, line
        fields: dict[str, bool] = {}
        if cells[1] != "—":
            for part in _segments(cells[1]):
                field = FIELD.match(part.strip())
                assert field, f"{name[1]}: unreadable field {part!r}"
                fields[field[1]] = field[2] == "?"
        found[name[1]] = fields
    return found


def typed() -> dict[str, dict[str, bool]]:
    """The Structs: message → {field: optional} (without `t` and `id`)."""
    union = msgspec.inspect.type_info(ClientMessage)
    assert isinstance(union, msgspec.inspect.UnionType)
    return {
        str(struct.tag): {f.name: not f.required for f in struct.fields if f.name != "id"}
        for struct in union.types
        if isinstance(struct, msgspec.inspect.StructType)
    }


def test_the_protocol_tables_name_the_structs_fields():
    assert documented() == typed()


def frame(**message: object) -> bytes:
    return msgpack.packb(message, use_bin_type=True)


@pytest.mark.parametrize(
    ("message", "says"),
    [
        ({"t": "rooms", "id": 7, "page": -1}, "`page` must be from 0 to 100000"),
        ({"t": "chat", "id": 7, "text": 5}, "`text` must be a string"),
        ({"t": "chat", "id": 7, "text": "a\x1b"}, "`text` must be printable characters only"),
        ({"t": "chat", "id": 7, "text": ""}, "`text` must have 1 to 300 characters"),
        ({"t": "rematch", "id": 7, "room": "r"}, "`accept` is required"),
        ({"t": "rename", "id": 7, "name": "   "}, "`name` may not be blank"),
        (
            {"t": "create", "id": 7, "seats": 3, "variant": 1},
            "`variant` must be a preset name or a map",
        ),
        ({"t": "nope", "id": 7}, "unknown message type 'nope'"),
        ({"id": 7}, "a message needs a string `t`"),  # its `re` too (PROTOCOL.md: every error)
    ],
)
def test_a_bad_field_is_refused_in_words_with_the_requests_id(message, says):
    with pytest.raises(BadFrame) as refused:
        decode_message(frame(**message))
    assert str(refused.value) == says and refused.value.rid == 7


def test_a_null_id_is_no_integer_and_an_optional_null_is_absent():
    with pytest.raises(BadFrame, match="`id` must be an integer"):
        decode_message(frame(t="sync", id=None))
    rooms = decode_message(frame(t="rooms", page=None, id=3))
    assert (rooms.page, rooms.rid) == (None, 3)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_action_type_a_game_declares_is_a_struct(game):
    info = get_game(game)
    union = msgspec.inspect.type_info(action_types(game).type)
    tags = {str(s.tag) for s in union.types}  # type: ignore[attr-defined]
    assert set(info.actions) <= tags
    for kind, names in info.actions.items():
        if info.hammer is not None and kind == info.hammer["type"]:
            continue
        sample: dict[str, object] = {n: ["x", True] for n in names}  # any plain shape
        if "amount" in names:
            sample["amount"] = 3
        if info.check_card is not None and "card" in names:
            sample["card"] = CARDS[game]
        raw = msgspec.Raw(frame(type=kind, seat=9, **sample))
        assert parse_action(raw, info) == {"type": kind, **sample}  # `seat` dropped


def test_an_action_field_of_the_wrong_shape_keeps_its_words():
    info = get_game("modernart")
    with pytest.raises(BadMessage, match="`amount` must be from 0 to 1000000"):
        parse_action(msgspec.Raw(frame(type="bid", amount=-1)), info)
    with pytest.raises(BadMessage, match="unknown action type 'fly'"):
        parse_action(msgspec.Raw(frame(type="fly")), info)
