"""The store's tables about players (issue 18): who holds which name, ratings per
game, and each finished game's result per seat. `Store` (server/store/sqlite.py) mixes this
in; every write is one transaction, so a name is never held twice and a game's
ratings and results are stored together or not at all."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from modernart.server.people.names import KEYS_VERSION
from modernart.server.people.ratingrules import (
    ESTABLISHED_GAMES,
    ESTABLISHED_OPPONENTS,
    UNRATED_LEVELS,
)
from modernart.server.store.dialect import Dialect
from modernart.server.store.errors import StoreError
from modernart.server.store.identities import identity_inserts

PLAYER_SCHEMA = """
CREATE TABLE IF NOT EXISTS name_keys (
    key TEXT PRIMARY KEY,           -- server/people/names.py's name_keys of a held name
    identity TEXT NOT NULL,
    name TEXT NOT NULL,             -- the name the key is of
    until REAL                      -- null: the identity's name; else an earlier one, kept till
);
CREATE INDEX IF NOT EXISTS name_keys_identity ON name_keys (identity);
CREATE TABLE IF NOT EXISTS name_rules (
    version INTEGER NOT NULL        -- the names.KEYS_VERSION the keys were made with
);
CREATE TABLE IF NOT EXISTS ratings (
    game TEXT NOT NULL,
    player TEXT NOT NULL,           -- an identity id, or "bot:<level>"
    name TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL,
    established INTEGER NOT NULL DEFAULT 0,  -- not provisional (server/people/ratingrules.py)
    PRIMARY KEY (game, player)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS results (
    room TEXT NOT NULL,
    seat INTEGER NOT NULL,
    game TEXT NOT NULL,
    finished REAL NOT NULL,
    player TEXT NOT NULL,           -- as in ratings
    name TEXT NOT NULL,             -- the name the seat was played under
    outcome TEXT NOT NULL,          -- finished | abandoned
    place INTEGER,                  -- 1 = won; null when abandoned
    score INTEGER,
    before INTEGER,                 -- the shown rating before and after; null: not rated
    after INTEGER,
    PRIMARY KEY (room, seat)
);
CREATE INDEX IF NOT EXISTS results_player ON results (player, finished);
"""


@dataclass
class Rating:
    player: str
    name: str
    mu: float
    sigma: float
    games: int
    established: bool = False  # not provisional (server/people/ratingrules.py)


@dataclass
class SeatResult:
    """One seat of a game's end, as `results` keeps it."""

    seat: int
    player: str
    name: str
    place: int | None
    score: int | None
    before: int | None = None
    after: int | None = None


# A store from before issue 33: which rated players count as established already.
ESTABLISH = f"""
UPDATE ratings SET established = 1 WHERE player LIKE 'bot:%' OR (
    games >= {ESTABLISHED_GAMES} AND (
        SELECT COUNT(DISTINCT b.player) FROM results a JOIN results b
        ON b.room = a.room AND b.player != a.player
        WHERE a.player = ratings.player AND a.game = ratings.game
        AND a.after IS NOT NULL AND b.after IS NOT NULL
    ) >= {ESTABLISHED_OPPONENTS})
"""


RESULT_COLUMNS = (
    "room",
    "seat",
    "game",
    "finished",
    "player",
    "name",
    "outcome",
    "place",
    "score",
    "before",
    "after",
)
RATING_COLUMNS = ("game", "player", "name", "mu", "sigma", "games", "established")


class PlayerTables:
    db: sqlite3.Connection
    dialect: Dialect  # the Store's
    errors: tuple[type[Exception], ...]  # the Store's: what its database raises
    settle: Callable[[], None]  # the Store's: commits the turn's batch first
    _has_table: Callable[[str], bool]
    _columns: Callable[[str], set[str]]

    def open_player_tables(self) -> bool:
        """Create the tables; True if every held name must be keyed again (a store from
        before names were unique, or keyed by older rules: `dedupe_names`)."""
        version = None
        if self._has_table("name_rules"):
            row = self.db.execute("SELECT version FROM name_rules").fetchone()
            version = row[0] if row else None
        had = self._has_table("name_keys")
        if had and version != KEYS_VERSION:
            self.db.execute("DROP TABLE name_keys")  # keyed again from identities' names
        self.db.executescript(self.dialect.schema(PLAYER_SCHEMA))
        self._establish()
        return not had or version != KEYS_VERSION

    def _establish(self) -> None:
        """On a store from before provisional ratings, the column that says who is
        established, filled in from the results once."""
        if "established" not in self._columns("ratings"):
            self.db.execute("ALTER TABLE ratings ADD COLUMN established INTEGER NOT NULL DEFAULT 0")
            self.db.execute(ESTABLISH)

    def _transaction(self, what: str, statements: Iterable[tuple[str, tuple]]) -> int:
        """The statements as one transaction: the rows the last one changed."""
        self.settle()
        changed = 0
        try:
            self.db.execute(self.dialect.begin_write)
            try:
                for sql, params in statements:
                    changed = self.db.execute(sql, params).rowcount
                self.db.execute("COMMIT")
            except self.errors:
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
                raise
        except self.errors as exc:
            raise StoreError(f"could not save {what}: {exc}") from None
        return changed

    # ----------------------------------------------------------------- names

    def name_holder(self, keys: Iterable[str], besides: str | None = None) -> str | None:
        """The identity (other than `besides`) holding a name with any of these keys,
        now or as an earlier name still kept for it, if any: one indexed query."""
        keys = list(keys)
        marks = ",".join("?" * len(keys))
        row = self.db.execute(
            f"SELECT identity FROM name_keys WHERE key IN ({marks})"
            f" AND (until IS NULL OR until > ?) AND identity {self.dialect.is_not} ?",
            (*keys, time.time(), besides),
        ).fetchone()
        return row[0] if row else None

    @staticmethod
    def _inserts(identity_id: str, name: str, keys: Iterable[str]) -> list[tuple[str, tuple]]:
        return [
            (
                "INSERT INTO name_keys (key, identity, name, until) VALUES (?, ?, ?, NULL)",
                (k, identity_id, name),
            )
            for k in keys
        ]

    def claim_name(
        self, identity_id: str, name: str, keys: Iterable[str], keep_s: float = 0, kept: int = 0
    ) -> None:
        """The identity now holds `name`; its name until now stays its own for `keep_s`
        seconds, with at most `kept` earlier names (the latest). Raises StoreError if
        the database refuses, or if another identity holds one of the keys."""
        keys = list(keys)
        now, marks = time.time(), ",".join("?" * len(keys))
        mine = "identity = ? AND until IS NOT NULL"
        self._transaction(
            "a new name",
            [
                (  # these keys, if ours or lapsed, are taken afresh
                    f"DELETE FROM name_keys WHERE key IN ({marks})"
                    " AND (identity = ? OR until <= ?)",
                    (*keys, identity_id, now),
                ),
                (
                    "UPDATE name_keys SET until = ? WHERE identity = ? AND until IS NULL",
                    (now + keep_s, identity_id),
                ),
                (
                    f"DELETE FROM name_keys WHERE {mine} AND (until <= ? OR name NOT IN"
                    f" (SELECT name FROM name_keys WHERE {mine}"
                    "  GROUP BY name ORDER BY MAX(until) DESC LIMIT ?))",
                    (identity_id, now, identity_id, kept),
                ),
                *self._inserts(identity_id, name, keys),
                ("UPDATE identities SET name = ? WHERE id = ?", (name, identity_id)),
            ],
        )

    def add_identity_named(
        self, identity_id: str, name: str, token: str, keys: Iterable[str]
    ) -> None:
        self._transaction(
            "a new identity",
            [*identity_inserts(identity_id, name, token), *self._inserts(identity_id, name, keys)],
        )

    def release_unheld_names(self) -> None:
        """Names of identities that are gone are free again, and earlier names kept
        past their time too (a whole-table pass: at start only; expiry frees the names
        of the identities it forgets)."""
        self._transaction(
            "freed names",
            [
                (
                    "DELETE FROM name_keys WHERE until <= ?"
                    " OR identity NOT IN (SELECT id FROM identities)",
                    (time.time(),),
                )
            ],
        )

    def dedupe_names(
        self, keys_of: Callable[[str], frozenset[str]], suggest: Callable[[str, Callable], str]
    ) -> list[tuple[str, str, str]]:
        """Give every identity's name its keys, oldest identity first; a later identity
        whose name is already held gets a free one (`suggest`). Done once, on a store
        from before names were unique or keyed by older rules (earlier names kept for
        their identities are forgotten then): [(identity, old name, new name)] renamed."""
        held: dict[str, str] = {}
        renamed: list[tuple[str, str, str]] = []
        statements: list[tuple[str, tuple]] = [("DELETE FROM name_keys", ())]
        rows = self.db.execute("SELECT id, name FROM identities ORDER BY created, id").fetchall()
        for identity_id, name in rows:
            keys = keys_of(name)
            if any(k in held for k in keys):
                new = suggest(name, lambda n: any(k in held for k in keys_of(n)))
                renamed.append((identity_id, name, new))
                statements.append(
                    ("UPDATE identities SET name = ? WHERE id = ?", (new, identity_id))
                )
                name, keys = new, keys_of(new)
            held.update((k, identity_id) for k in keys)
            statements.extend(self._inserts(identity_id, name, keys))
        statements += [
            ("DELETE FROM name_rules", ()),
            ("INSERT INTO name_rules (version) VALUES (?)", (KEYS_VERSION,)),
        ]
        self._transaction("unique names", statements)
        return renamed

    # --------------------------------------------------------------- ratings

    def ratings(self, game: str, players: Iterable[str]) -> dict[str, Rating]:
        players = list(players)
        marks = ",".join("?" * len(players))
        rows = self.db.execute(
            "SELECT player, name, mu, sigma, games, established FROM ratings"
            f" WHERE game = ? AND player IN ({marks})",
            (game, *players),
        ).fetchall()
        return {r[0]: Rating(*r) for r in rows}

    def leaderboard(self, game: str, limit: int) -> list[Rating]:
        """The game's established players, best first by the conservative estimate."""
        rows = self.db.execute(
            "SELECT player, COALESCE((SELECT name FROM identities WHERE id = player), name),"
            " mu, sigma, games, established FROM ratings WHERE game = ?"
            " AND (established <> 0 OR player LIKE 'bot:%')"
            " ORDER BY mu - 3 * sigma DESC, games DESC LIMIT ?",
            (game, limit),
        ).fetchall()
        return [Rating(*r) for r in rows]

    def save_results(
        self, room: str, game: str, outcome: str, seats: list[SeatResult], rated: list[Rating]
    ) -> None:
        """A game's end: every seat's result, the new ratings and the room's status, in
        one transaction: a stored status `finished` always has its results (a game
        whose last action is stored without them is rated at the next start)."""
        now = time.time()
        result = self.dialect.upsert("results", RESULT_COLUMNS, ("room", "seat"))
        rating = self.dialect.upsert("ratings", RATING_COLUMNS, ("game", "player"))
        statements: list[tuple[str, tuple]] = [
            (
                "UPDATE rooms SET status = ?, finished = ? WHERE id = ?",
                (outcome, now if outcome == "finished" else None, room),
            ),
            *(
                (
                    result,
                    (
                        room,
                        s.seat,
                        game,
                        now,
                        s.player,
                        s.name,
                        outcome,
                        s.place,
                        s.score,
                        s.before,
                        s.after,
                    ),
                )
                for s in seats
            ),
        ]
        statements.extend(
            (
                rating,
                (game, r.player, r.name, r.mu, r.sigma, r.games, int(r.established)),
            )
            for r in rated
        )
        self._transaction(f"room {room}'s result", statements)

    def has_results(self, room: str) -> bool:
        return (
            self.db.execute("SELECT 1 FROM results WHERE room = ?", (room,)).fetchone() is not None
        )

    def games_together(self, game: str, one: str, other: str, since: float) -> int:
        """Finished games since then in which both players were rated."""
        row = self.db.execute(
            "SELECT COUNT(*) FROM results a JOIN results b ON b.room = a.room"
            " WHERE a.player = ? AND b.player = ? AND a.game = ? AND a.finished >= ?"
            " AND a.after IS NOT NULL AND b.after IS NOT NULL",
            (one, other, game, since),
        ).fetchone()
        return int(row[0])

    def opponents(self, game: str, player: str) -> set[str]:
        """The established players (bot levels among them) the player met in games of
        `game` where both were rated."""
        unrated = [f"bot:{level}" for level in sorted(UNRATED_LEVELS)]
        marks = ",".join("?" * len(unrated))
        rows = self.db.execute(
            "SELECT DISTINCT b.player FROM results a JOIN results b"
            " ON b.room = a.room AND b.player != a.player"
            " LEFT JOIN ratings r ON r.game = a.game AND r.player = b.player"
            " WHERE a.player = ? AND a.game = ? AND a.after IS NOT NULL"
            f" AND ((b.player LIKE 'bot:%' AND b.player NOT IN ({marks}))"
            " OR (b.after IS NOT NULL AND r.established <> 0))",
            (player, game, *unrated),
        ).fetchall()
        return {r[0] for r in rows}

    def games_of(self, player: str, limit: int, viewer: str) -> list[dict[str, Any]]:
        """A player's latest finished or abandoned games that `viewer` may see, newest
        first, each with every seat's public result: a locked room's games only to
        those who played in it (issue 33)."""
        rooms = self.db.execute(
            "SELECT r.room FROM results r WHERE r.player = ? AND ("
            " EXISTS (SELECT 1 FROM rooms WHERE id = r.room"
            f"  AND {self.dialect.json_field('settings', 'password')} IS NULL)"
            " OR EXISTS (SELECT 1 FROM results v WHERE v.room = r.room AND v.player = ?))"
            " ORDER BY r.finished DESC LIMIT ?",
            (player, viewer, limit),
        ).fetchall()
        out = []
        for (room,) in rooms:
            rows = self.db.execute(
                "SELECT seat, game, finished, player, name, outcome, place, score, before, after"
                " FROM results WHERE room = ? ORDER BY seat",
                (room,),
            ).fetchall()
            out.append({"room": room, "rows": rows})
        return out
