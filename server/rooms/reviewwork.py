"""What the review worker computes (issue 32): a few decisions of a finished game's
review at a time, so the server can tell whoever asked how far it is (decision k
of n) and keep nothing of the worker's between two parts.

Imported by the review worker process (server/rooms/botpool.py `submit_review`): the
engine only."""

from __future__ import annotations

import itertools
import math
from typing import Any

from modernart.engine import Record
from modernart.engine.review import review_decisions

PARTS = 20  # a review is computed in about this many parts (its progress steps)


def decision_steps(record: Record) -> list[int]:
    """The steps of the record's actions that are a player's decision (what a review
    reviews: every action with a seat)."""
    return [
        i
        for i, action in enumerate(record.actions)
        if isinstance(action, dict)
        and isinstance(action.get("seat"), int)
        and not isinstance(action.get("seat"), bool)
    ]


def part_size(total: int) -> int:
    """Decisions reviewed in one part: the review in about `PARTS` parts."""
    return max(1, math.ceil(total / PARTS))


def review_part(
    record: Record, worlds: int, seed: int, start: int, count: int
) -> list[dict[str, Any]]:
    """In the review worker: the next `count` reviewed decisions from step `start` on,
    as docs/records.md's objects (ReviewError for a record that cannot be reviewed)."""
    found = review_decisions(record, worlds, seed, start=start)
    return [d.to_dict() for d in itertools.islice(found, count)]
