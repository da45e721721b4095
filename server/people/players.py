"""What the server keeps of players and shows about them (issue 18): one name per
player, who is online, ratings and leaderboards, past games and their records.

The hub (server/hub.py) owns connections and rooms; it hands this desk the
requests `who`, `leaderboard`, `games` and `record`, asks it whether a name is
free, and tells it when a game ends. Nothing sent from here is private: names,
where people are, public ratings and finished games' results; a record only of a
game that is over (and of a locked room only to its players).
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from modernart.engine.games import DEFAULT_GAME, GAME_NAMES
from modernart.server.people import names, ratingrules, ratings
from modernart.server.rooms.records import visible_record
from modernart.server.store.players import SeatResult
from modernart.server.store.sqlite import Store, StoreError
from modernart.server.wire.codec import BadMessage
from modernart.server.wire.messages import Games, Leaderboard, Record, Rename, Who
from modernart.server.wire.refusal import Refused, reply

if TYPE_CHECKING:
    from modernart.engine.games import GameState
    from modernart.server.rooms.room import Room
    from modernart.server.wire.session import Conn

log = logging.getLogger("modernart.server")

WHO_LIMIT = 200  # players in one `who` answer (the count of all comes along)
LEADERBOARD_LIMIT = 50
GAMES_LIMIT = 30
ABANDONED = "abandoned"
# A renamed player's earlier name stays theirs a while (issue 33: nobody else takes
# the name their seat still shows and speaks to that table): the last NAMES_KEPT
# earlier names, each for NAME_KEPT_HOURS after it was left.
NAME_KEPT_HOURS, NAMES_KEPT = 24.0, 3


class PlayerDesk:
    def __init__(self, store: Store, conns: Callable[[], Any]) -> None:
        self.store = store
        self._conns = conns  # the hub's live connections
        # In a cluster, `who`'s people on every process (server/cluster/who.py): the first
        # so many by name (entries without `game` in the lobby) and how many in all.
        self.everyone: Callable[[int], tuple[list[tuple[str, dict[str, Any]]], int]] | None = None

    # ----------------------------------------------------------------- names

    def start(self) -> None:
        """A store from before names were unique, or keyed by older rules: every name is
        keyed again, and every later holder of a name that is held already gets a
        suffix, once, logged. Names nobody holds any more are freed."""
        if self.store.names_fresh:
            for identity, old, new in self.store.dedupe_names(names.name_keys, names.first_free):
                log.warning(
                    "identity %s: name %r is held by an older one; now %r", identity, old, new
                )
            self.store.names_fresh = False
        self.store.release_unheld_names()

    @staticmethod
    def refusal(name: str) -> str | None:
        """Why a player may not pick `name` (guest names are the server's to give)."""
        reason = names.refusal(name)
        if reason is None and names.guest_like(name):
            reason = "guest names are given by the server; choose a name of your own"
        return reason

    def check(self, name: str) -> None:
        reason = self.refusal(name)
        if reason is not None:
            raise BadMessage(f"`name`: {reason}")

    def check_new(self, name: str, door: bool) -> None:
        """A new identity's name. A door's `hello` (server/doors/terminal/: an SSH user name,
        a browser's guest name) may carry a guest name; a user name no player may
        have (`admin`) gets `name_taken` with a guest name the door then takes."""
        if not door:
            self.check(name)
            return
        reason = names.refusal(name)
        if reason is None:
            return
        guest = names.guest()
        if self.holder(guest) is not None:
            raise BadMessage(f"`name`: {reason}")
        raise Refused("name_taken", f"{name!r}: {reason}", extra={"suggestion": guest})

    def acceptable(self, name: str) -> bool:
        return self.refusal(name) is None

    def holder(self, name: str) -> str | None:
        return self.store.name_holder(names.name_keys(name))

    def taken(self, name: str, identity_id: str | None) -> bool:
        """Another identity holds `name` (or one of its keys)."""
        return self.store.name_holder(names.name_keys(name), besides=identity_id) is not None

    def refuse_taken(self, name: str) -> Refused:
        """`name_taken`, with a free name like it if one of a few tried is free (a
        bounded number of lookups, whatever look-alikes others hold: issue 33)."""
        suggestion = names.suggest(name, lambda n: self.holder(n) is not None)
        if suggestion is None:
            return Refused(
                "name_taken",
                f"{name!r} is another player's name, and so are the names like it tried;"
                " choose another one",
            )
        return Refused(
            "name_taken",
            f"{name!r} is another player's name; try {suggestion!r}",
            extra={"suggestion": suggestion},
        )

    def claim(self, identity_id: str, name: str) -> None:
        """The identity's new name; its earlier one stays its own a while. `name_taken`
        if another identity took it since `taken` said it was free (another process of
        a cluster, issue 30: the store's keys are unique)."""
        keys = names.name_keys(name)
        try:
            self.store.claim_name(identity_id, name, keys, NAME_KEPT_HOURS * 3600, NAMES_KEPT)
        except StoreError:
            if self.taken(name, identity_id):
                raise self.refuse_taken(name) from None
            raise

    def add_identity(self, identity_id: str, name: str, token: str) -> None:
        """A new identity named `name`; `name_taken` as for `claim`."""
        try:
            self.store.add_identity_named(identity_id, name, token, names.name_keys(name))
        except StoreError:
            if self.taken(name, None):
                raise self.refuse_taken(name) from None
            raise

    # ------------------------------------------------------------- requests

    def on_rename(self, conn: Conn, msg: Rename, rid: int | None) -> None:
        """A new name for the identity, chosen in the lobby (a seat keeps the name it
        was taken with, so everyone at a table knows who is who)."""
        name = msg.name
        self.check(name)
        identity = conn.identity
        assert identity is not None  # handlers run after hello
        if conn.room is not None:
            raise Refused("not_allowed", "leave the room to change your name")
        if self.taken(name, identity.id):
            raise self.refuse_taken(name)
        self.claim(identity.id, name)  # stored first (StoreError: unchanged)
        identity.name = name
        conn.send(reply({"t": "renamed", "name": name}, rid))

    def on_who(self, conn: Conn, msg: Who, rid: int | None) -> None:
        """Everyone online: name, where (lobby, playing in a room, watching one) and the
        rating in the room's game (in the lobby: in `game`, default Modern Art). In a
        cluster, everyone on every process (`everyone`)."""
        game = self._game(msg)
        by_game: dict[str, list[str]] = {}
        if self.everyone is not None:
            entries, count = self.everyone(WHO_LIMIT)
            for identity_id, entry in entries:
                by_game.setdefault(entry.setdefault("game", game), []).append(identity_id)
        else:
            online = [c for c in self._conns() if c.identity is not None and not c.closed]
            online.sort(key=lambda c: c.identity.name.casefold())
            entries, count = [], len(online)
            for c in online[:WHO_LIMIT]:
                room = c.room
                entry: dict[str, Any] = {"name": c.identity.name, "where": "lobby"}
                if room is not None:
                    entry["where"] = "watching" if c.seat is None else "playing"
                    entry.update(room=room.id, room_name=room.name, status=room.status)
                entry["game"] = room.info.name if room is not None else game
                by_game.setdefault(entry["game"], []).append(c.identity.id)
                entries.append((c.identity.id, entry))
        known = {
            (g, player): r
            for g, ids in by_game.items()
            for player, r in self.store.ratings(g, ids).items()
        }
        players = []
        for identity_id, entry in entries:
            r = known.get((entry["game"], identity_id))
            entry["rating"] = ratings.BASE if r is None else ratings.shown(r.mu, r.sigma)
            entry["provisional"] = r is None or not r.established
            players.append(entry)
        conn.send(reply({"t": "who", "players": players, "online": count}, rid))

    def on_leaderboard(self, conn: Conn, msg: Leaderboard, rid: int | None) -> None:
        game = self._game(msg)
        board = []
        for place, r in enumerate(self.store.leaderboard(game, LEADERBOARD_LIMIT), start=1):
            bot = r.player.startswith("bot:")
            board.append(
                {
                    "rank": place,
                    "name": r.name,
                    "rating": ratings.shown(r.mu, r.sigma),
                    "games": r.games,
                    "bot": bot,
                }
            )
        conn.send(reply({"t": "leaderboard", "game": game, "players": board}, rid))

    def on_games(self, conn: Conn, msg: Games, rid: int | None) -> None:
        """A player's past games (you, or the player of that name), newest first; a
        locked room's only to its players."""
        assert conn.identity is not None
        name = msg.player
        player = conn.identity.id if name is None else self.holder(name)
        shown_name = conn.identity.name if name is None else name
        games = []
        viewer = conn.identity.id
        for game in self.store.games_of(player, GAMES_LIMIT, viewer) if player else []:
            rows = game["rows"]
            mine = next(r for r in rows if r[3] == player)
            before, after = mine[8], mine[9]
            games.append(
                {
                    "room": game["room"],
                    "date": int(rows[0][2]),
                    "game": rows[0][1],
                    "outcome": rows[0][5],
                    "players": [r[4] for r in rows],
                    "bots": [r[3].startswith("bot:") for r in rows],
                    "places": [r[6] for r in rows],
                    "scores": [r[7] for r in rows],
                    "seat": mine[0],
                    "rating": after,
                    "change": None if before is None or after is None else after - before,
                }
            )
        conn.send(reply({"t": "games", "player": shown_name, "games": games}, rid))

    def on_record(self, conn: Conn, msg: Record, rid: int | None) -> None:
        """The RECORD.md record of a game that is over: the deck and every action, which
        are no secret any more (docs/decisions/player-home.md). A locked room's only to its players
        (server/rooms/records.py, the rule every door shares)."""
        assert conn.identity is not None
        room_id = msg.room
        record = visible_record(self.store, conn.identity.id, room_id)
        conn.send(reply({"t": "record", "room": room_id, "record": record.to_dict()}, rid))

    @staticmethod
    def _game(msg: Who | Leaderboard) -> str:
        game = msg.game or DEFAULT_GAME
        if game not in GAME_NAMES:
            raise BadMessage(f"`game` must be one of {list(GAME_NAMES)}")
        return game

    # ----------------------------------------------------------- game's end

    def game_over(self, room: Room) -> dict[str, Any]:
        """Store a finished game's results and rate it (server/people/ratingrules.py: leaving
        is losing): the `rated` event's fields, `ratings` per seat `{before, after,
        provisional}` of the shown rating or None where not rated, and `unrated` (why)
        when nobody was."""
        state = room.game
        assert state is not None
        scores = room.info.replay_fields(state).get(room.info.score_field)
        place = ratings.places(scores, list(state.winners), state.n)
        forfeits = [ratingrules.forfeited(s) for s in room.seats]
        place = ratingrules.forfeit_places(place, forfeits)
        return self._save(room, "finished", place, scores)

    def game_abandoned(self, room: Room, went: dict[int, float]) -> None:
        """An abandoned game is kept (its record is exportable and listed with the
        players' games); its humans lose to the bots, the first to go (`went`: seat ->
        when) lowest (server/people/ratingrules.py)."""
        humans = [s is not None and s.identity is not None for s in room.seats]
        self._save(room, ABANDONED, ratingrules.abandoned_places(humans, went), None)

    def game_restored_over(self, room: Room, game: GameState) -> None:
        """A game found finished at start-up without its results (the server stopped
        between its last action and its end): rated now, once."""
        room.game = game
        try:
            if self.store.has_results(room.id):
                self.store.set_status(room.id, "finished")
            else:
                self.game_over(room)
        except StoreError as exc:
            log.error("room %s: %s; rated at the next start", room.id, exc)
            return
        log.warning("room %s: its game had finished before the restart; rated now", room.id)

    def _save(
        self, room: Room, outcome: str, place: list[int], scores: list[int] | None
    ) -> dict[str, Any]:
        game = room.info.name
        entries = []
        for i, s in enumerate(room.seats):
            assert s is not None
            human = s.identity is not None
            player = s.identity.id if s.identity is not None else ratings.bot_key(s.level or "")
            counted = human or ratingrules.rated_level(s.level)
            entries.append(ratings.Entry(player, s.name, place[i], human, counted, not human))
        current = self.store.ratings(game, {e.player for e in entries})
        for e in entries:
            e.established = e.established or (e.player in current and current[e.player].established)
        since = time.time() - ratingrules.PAIR_WINDOW_S
        together = functools.cache(
            lambda one, other: self.store.games_together(game, one, other, since)
        )

        def meets(me: ratings.Entry, rival: ratings.Entry) -> bool:
            if rival.human and not rival.established:
                return False  # a provisional human moves nobody's rating
            if not (me.human and rival.human):
                return True
            return together(me.player, rival.player) < ratingrules.PAIR_GAMES

        changes = ratings.rate(entries, current, meets)
        for change in changes.values():
            after = change.after
            if after.player.startswith("bot:"):
                after.name, after.established = f"{after.player[4:]} bot", True
            elif not after.established:
                met = self.store.opponents(game, after.player) | change.rivals
                after.established = ratingrules.established(after.games, len(met))
        results, out = [], []
        for i, e in enumerate(entries):
            change = changes.get(e.player)
            before = after = None
            if change is not None:
                before = ratings.shown(change.before.mu, change.before.sigma)
                after = ratings.shown(change.after.mu, change.after.sigma)
            score = scores[i] if scores is not None else None
            kept = e.place if outcome == "finished" else None
            results.append(SeatResult(i, e.player, e.name, kept, score, before, after))
            rated: dict[str, Any] | None = None
            if change is not None:
                rated = {
                    "before": before,
                    "after": after,
                    "provisional": not change.after.established,
                }
                if e.player.startswith("bot:"):  # the level's one rating, shared by its bots
                    rated["level"] = e.player[4:]
            out.append(rated)
        rated = [c.after for c in changes.values()]
        self.store.save_results(room.id, game, outcome, results, rated)
        if changes:
            return {"ratings": out}
        return {"ratings": out, "unrated": ratingrules.unrated_reason(entries, together)}
