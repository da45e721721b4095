"""A full disk for the server's store: every write fails as SQLite fails then."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from typing import Any

from modernart.server.store.sqlite import Store

READS = ("SELECT", "PRAGMA")


class _RefusingWrites:
    """The store's sqlite3 connection, but every statement that writes raises."""

    def __init__(self, db: sqlite3.Connection, budget: int | None, only: str) -> None:
        self._db = db
        self.budget = budget  # refuse this many writes, then write again (None: all)
        self.only = only  # refuse only statements holding this text
        self.refused = 0

    def _refuse(self) -> None:
        if self.budget is None or self.refused < self.budget:
            self.refused += 1
            raise sqlite3.OperationalError("database or disk is full")

    def execute(self, sql: str, params: Any = ()) -> sqlite3.Cursor:
        if not sql.lstrip().upper().startswith(READS) and self.only in sql:
            self._refuse()
        return self._db.execute(sql, params)

    def executemany(self, sql: str, params: Any) -> sqlite3.Cursor:
        self._refuse()
        return self._db.executemany(sql, params)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


@contextlib.contextmanager
def full_disk(store: Store, budget: int | None = None, only: str = "") -> Iterator[_RefusingWrites]:
    """While inside, `store` can read but not write (only the first `budget` writes,
    if given; only statements holding `only`); `refused` counts the refused writes."""
    real = store.db
    refusing = _RefusingWrites(real, budget, only)
    store.db = refusing  # type: ignore[assignment]
    try:
        yield refusing
    finally:
        store.db = real
