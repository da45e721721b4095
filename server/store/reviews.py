"""The store's table of reviews (issue 32): a finished game's review, computed once.

A review is the expert's verdict on a game that is over (engine/review.py), the
same for everyone who may see the game's record, so it is kept with the game: one
row per room, its JSON object as docs/records.md documents it. A new table, so a
database from before it gets it at start-up (CREATE TABLE IF NOT EXISTS, as every
table of the store). `Store` (server/store/sqlite.py) mixes this in.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from typing import Any

from modernart.server.store.dialect import Dialect

REVIEW_SCHEMA = """
CREATE TABLE IF NOT EXISTS reviews (
    room TEXT PRIMARY KEY,          -- the finished game's room id
    review TEXT NOT NULL,           -- JSON: docs/records.md's review object
    created REAL NOT NULL
);
"""


class ReviewTables:
    db: sqlite3.Connection
    dialect: Dialect  # the Store's
    _write: Callable[[str, str, tuple], None]  # the Store's

    def stored_review(self, room_id: str) -> dict[str, Any] | None:
        row = self.db.execute("SELECT review FROM reviews WHERE room = ?", (room_id,)).fetchone()
        return json.loads(row[0]) if row else None

    def save_review(self, room_id: str, review: dict[str, Any]) -> None:
        """Keep a room's review (StoreError: not kept; it is computed again if asked)."""
        self._write(
            f"room {room_id}'s review",
            self.dialect.upsert("reviews", ("room", "review", "created"), ("room",)),
            (room_id, json.dumps(review, separators=(",", ":")), time.time()),
        )
