"""Equivalence tests for issue 21's fast paths: each gives exactly what the plain way
gives (tests/server/test_updates.py does the same for the update frames).

- `ws_frame`: the bytes websockets itself would write for a binary message.
- `History`, kept packed: the events a plain list of (seq, event) pairs gives,
  with presence coalesced, and pages that add up to the whole.
- `encode` (one reused packer): `msgpack.packb`'s bytes, for values Python calls
  equal but msgpack tells apart too (True, 1, 1.0).
- The store's `_dumps` (json's C encoder, built once): `json.dumps`'s text.
"""

from __future__ import annotations

import json
from typing import Any

import msgpack
from hypothesis import given, settings
from hypothesis import strategies as st
from websockets.frames import Frame, Opcode

from modernart.server.rooms.history import PRESENCE, SKIPPED, History
from modernart.server.store.sqlite import _dumps
from modernart.server.wire.codec import array_header, encode, ws_frame


@given(st.integers(0, 70_000))
@settings(max_examples=60, deadline=None)
def test_ws_frame_is_what_websockets_writes(size):
    payload = bytes(i % 251 for i in range(size))
    assert ws_frame(payload) == Frame(Opcode.BINARY, payload).serialize(mask=False)


@given(st.integers(0, 70_000))
@settings(max_examples=30, deadline=None)
def test_array_header_is_msgpacks(count):
    packed = msgpack.packb([0] * count)
    assert packed[: len(array_header(count))] == array_header(count)
    assert len(packed) == len(array_header(count)) + count


def plain_history(updates: list[tuple[int, list[dict[str, Any]]]]) -> list[tuple[int, dict]]:
    """The reference: every kept event in a list; a presence-only update replaces the
    same seat's presence in the run of presence-only updates at the end."""
    kept: list[tuple[int, dict]] = []
    run: list[int] = []  # indexes in `kept` of the trailing presence-only updates
    for seq, events in updates:
        events = [e for e in events if e["type"] not in SKIPPED]
        if not events:
            continue
        if len(events) == 1 and events[0]["type"] in PRESENCE:
            seat = events[0]["seat"]
            same = [i for i in run if kept[i][1]["seat"] == seat]
            if same:
                del kept[same[0]]
                run = [i - (i > same[0]) for i in run if i != same[0]]
            kept.append((seq, events[0]))
            run.append(len(kept) - 1)
            continue
        run = []
        kept.extend((seq, e) for e in events)
    return kept


event = st.one_of(
    st.builds(lambda s: {"type": "played", "seat": s, "card": "krypto.open"}, st.integers(0, 4)),
    st.builds(lambda s: {"type": "bid", "seat": s, "amount": 7}, st.integers(0, 4)),
    st.builds(
        lambda k, s: {"type": k, "seat": s}, st.sampled_from(sorted(PRESENCE)), st.integers(0, 2)
    ),
    st.just({"type": "going", "stage": 1, "deadline_ms": 300}),
)
updates = st.lists(st.lists(event, min_size=0, max_size=3), max_size=40)


@given(updates, st.integers(-1, 45), st.integers(1, 400))
@settings(max_examples=300, deadline=None)
def test_packed_history_is_the_plain_history(batches, since, budget):
    numbered = [(seq, events) for seq, events in enumerate(batches, start=1)]
    history = History()
    for seq, events in numbered:
        history.add(seq, events)
    plain = plain_history(numbered)
    assert history.since(since) == [e for s, e in plain if s > since]
    assert len(history) == len(plain)
    # Pages of whole updates add up to the whole, each within the budget when it
    # holds more than one update, and name the last update they cover.
    expected = [(s, e) for s, e in plain if s > since]
    at, after = 0, since
    while True:
        count, data, upto = history.page(after, budget)
        unpacker = msgpack.Unpacker(raw=False)
        unpacker.feed(data)
        assert list(unpacker) == [e for _, e in expected[at : at + count]]
        seqs = {s for s, _ in expected[at : at + count]}
        if len(seqs) > 1:
            assert len(data) <= budget
        at += count
        if upto is None:
            break
        assert seqs and max(seqs) == upto
        after = upto
    assert at == len(expected)
    packed, _ = history.packed_since(since, None)
    assert msgpack.unpackb(packed, raw=False) == [e for s, e in plain if s > since]


# Values whose msgpack forms differ though Python calls them equal (True == 1 == 1.0).
value = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(2**40), 2**40), st.floats(), st.text()),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=12,
)


@given(st.dictionaries(st.text(max_size=8), value, max_size=6))
@settings(max_examples=200, deadline=None)
def test_encode_is_packb(message):
    assert encode(message) == msgpack.packb(message, use_bin_type=True)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(JSON_VALUES)
@settings(max_examples=150, deadline=None)
def test_the_stores_json_is_json_dumps(value):
    assert _dumps(value) == json.dumps(value, separators=(",", ":"))
