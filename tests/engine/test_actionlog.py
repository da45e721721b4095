"""`ActionLog` (engine/actionlog.py), the packed `Game.actions`, reads back exactly
what a plain list of the appended dicts holds: same values, types, key order."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from modernart.engine.actionlog import ActionLog

scalar = st.one_of(st.none(), st.booleans(), st.integers(-(2**31), 2**31), st.text(max_size=12))
action = st.dictionaries(
    st.sampled_from(["type", "seat", "card", "amount", "cards", "bid", "pick"]),
    scalar | st.lists(scalar, max_size=4),
    max_size=5,
)


def strict(value: object) -> object:
    """A form in which True and 1 differ, as they do in a record's JSON."""
    if isinstance(value, dict):
        return [(k, strict(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [strict(v) for v in value]
    return (type(value).__name__, value)


@given(st.lists(action, max_size=30), st.integers(-35, 35), st.integers(-35, 35))
@settings(max_examples=200, deadline=None)
def test_an_action_log_reads_back_the_plain_list(actions, start, stop):
    log = ActionLog()
    for a in actions:
        log.append(dict(a))
    assert len(log) == len(actions)
    assert strict(list(log)) == strict(actions)
    assert log == actions and log == ActionLog(actions)
    assert strict(log[start:stop]) == strict(actions[start:stop])
    for i in range(-len(actions), len(actions)):
        assert strict(log[i]) == strict(actions[i])
    assert strict(list(copy.deepcopy(log))) == strict(actions)
    if actions:
        log[0]["type"] = "changed"  # a read is a fresh dict
    assert strict(list(log)) == strict(actions)


@given(st.lists(action, max_size=80), st.sets(st.integers(0, 80), max_size=6))
@settings(max_examples=100, deadline=None)
def test_a_log_read_between_appends_and_past_its_waiting_list_reads_back_the_list(actions, reads):
    """Packing is lazy (issue 31): actions wait and are packed in chunks, when read or
    when `PENDING` wait; every read, across any chunks, is what a list holds."""
    log = ActionLog()
    for i, a in enumerate(actions):
        if i in reads:
            assert strict(log[-1] if i else list(log)) == strict(actions[i - 1] if i else [])
        log.append(dict(a))
    assert len(log) == len(actions)
    assert strict(list(log)) == strict(actions)
    for i in range(len(actions)):
        assert strict(log[i]) == strict(actions[i])
    assert strict(log[3:-3]) == strict(actions[3:-3])
    assert log == ActionLog(actions)
