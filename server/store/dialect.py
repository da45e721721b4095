"""The SQL that differs between the store's two databases, in one place (issue 30).

The store's tables (server/store/sqlite.py and the tables it mixes in) write their SQL
once, in SQLite's words with `?` placeholders; what SQLite and PostgreSQL say
differently is asked of the store's `dialect`: a table's columns, upserts, the
schema's types, a JSON field. SQLite's statements are exactly those it ran before
PostgreSQL came (its speed and behaviour unchanged); server/store/postgresql.py turns `?`
into psycopg's `%s` as it runs them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Dialect:
    name: str
    table_exists: str  # one parameter, the table: a row if it exists
    columns: str  # one parameter, the table: one row per column, its name first
    begin_write: str  # a transaction that writes (SQLite takes the write lock at once)
    is_not: str  # `a IS NOT b` that is true when one of them is null

    def upsert(self, table: str, columns: tuple[str, ...], key: tuple[str, ...]) -> str:
        """Insert a row, replacing the row with the same `key` (a unique key of it)."""
        insert = f"({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
        if self.name == "sqlite":
            return f"INSERT OR REPLACE INTO {table} {insert}"
        update = ", ".join(f"{c} = EXCLUDED.{c}" for c in columns if c not in key)
        return f"INSERT INTO {table} {insert} ON CONFLICT ({', '.join(key)}) DO UPDATE SET {update}"

    def insert_new(self, table: str, columns: tuple[str, ...]) -> str:
        """Insert a row unless one with the same unique key is stored (then: nothing)."""
        insert = f"({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
        if self.name == "sqlite":
            return f"INSERT OR IGNORE INTO {table} {insert}"
        return f"INSERT INTO {table} {insert} ON CONFLICT DO NOTHING"

    def json_field(self, column: str, field: str) -> str:
        """A top-level field of a JSON object stored as text (null: absent or null)."""
        if self.name == "sqlite":
            return f"json_extract({column}, '$.{field}')"
        return f"({column}::json ->> '{field}')"

    def schema(self, sql: str) -> str:
        """SQLite's CREATE statements in this dialect: PostgreSQL's `real` is a 4-byte
        float (times and ratings need double precision) and it has no rowid to omit."""
        if self.name == "sqlite":
            return sql
        return re.sub(r"\bREAL\b", "DOUBLE PRECISION", sql.replace(") WITHOUT ROWID;", ");"))


SQLITE = Dialect(
    name="sqlite",
    table_exists="SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
    columns="SELECT name FROM pragma_table_info(?)",
    begin_write="BEGIN IMMEDIATE",
    is_not="IS NOT",
)

POSTGRESQL = Dialect(
    name="postgresql",
    table_exists="SELECT 1 FROM information_schema.tables"
    " WHERE table_schema = current_schema() AND table_name = ?",
    columns="SELECT column_name FROM information_schema.columns"
    " WHERE table_schema = current_schema() AND table_name = ?",
    begin_write="BEGIN",
    is_not="IS DISTINCT FROM",
)
