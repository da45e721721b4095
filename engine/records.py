"""Game records (RECORD.md): reading, writing and replaying them, for every game.

Everything game-specific comes from the game's `GameInfo` (engine/games.py):
its record format, player counts, variant reader, deck and card checks, how to
deal a game from a header and which result fields `modernart replay` prints.
A record without `game` is a Modern Art record (RECORD.md "Other games").
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .actionlog import ActionLog
from .errors import RuleError
from .games import DEFAULT_GAME, GAME_NAMES, GameInfo, GameState, game_of, get_game

FORMAT = "modernart-record/1"  # Modern Art's; each game names its own in GameInfo
HEADER_KEYS = frozenset({"format", "game", "players", "variant", "deck", "first_auctioneer"})


class RecordError(ValueError):
    """A file that is not a valid record (RECORD.md: exit status 2)."""


@dataclass
class Record:
    players: list[str]
    variant: Any  # the game's variant as a JSON object (Modern Art and Serengeti: a dict)
    deck: Any  # what the game shuffles (Modern Art, Serengeti: a list of card codes)
    first_auctioneer: int
    actions: list[Any] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    game: str = DEFAULT_GAME

    @property
    def info(self) -> GameInfo:
        return get_game(self.game)

    def new_game(self) -> Any:
        """The game as dealt, before any action (the game's own state class)."""
        return self.info.create(
            self.players, self.variant, deck=self.deck, first=self.first_auctioneer
        )

    def played(self, upto: int | None = None) -> Any:
        """The game after the record's actions (the first `upto` of them, if given).

        Raises RuleError at an illegal action; `replay` is the forgiving reader. The
        game's log is a plain list of the record's own actions (not copies), as a search's
        worlds keep it: a replay is read, and packing or copying each action, or building
        its events, cost a replay a fifth of its time (issue 31). A server that keeps the
        game running packs it (`resumed`).
        """
        game = self.new_game()
        step = game.step
        game.actions = [step(action) for action in self.actions[:upto]]
        return game

    def resumed(self, upto: int | None = None) -> Any:
        """`played`, its log packed as a game that goes on keeps it (issue 21's memory):
        what a server carries on from."""
        game = self.played(upto)
        game.actions = ActionLog(game.actions)
        return game

    def to_dict(self) -> dict[str, Any]:
        """The record as RECORD.md JSON; `game` is written for every game but Modern Art,
        whose records stay exactly as they always were."""
        head: dict[str, Any] = {"format": self.info.record_format}
        if self.game != DEFAULT_GAME:
            head["game"] = self.game
        return {
            **self.extra,
            **head,
            "players": list(self.players),
            "variant": _copy(self.variant),
            "deck": _copy(self.deck),
            "first_auctioneer": self.first_auctioneer,
            "actions": list(self.actions),
        }


def _copy(value: Any) -> Any:
    """A shallow copy of a JSON container, so a written record shares nothing."""
    if isinstance(value, dict):
        return dict(value)
    return list(value) if isinstance(value, list | tuple) else value


def _own_copy(log: Any) -> list[Any]:
    """The actions of a game's log as dicts of their own: a packed log's reads are fresh
    dicts already (copying them again was waste, issue 31); a list's are copied."""
    return list(log) if isinstance(log, ActionLog) else [dict(a) for a in log]


def record_of(game: GameState, **extra: Any) -> Record:
    """The record of a game so far (its deal and every applied action), any game."""
    info = game_of(game)
    header = info.record_header(game)
    return Record(
        players=list(game.players),
        variant=header["variant"],
        deck=_copy(header["deck"]),
        first_auctioneer=header["first_auctioneer"],
        actions=_own_copy(game.actions),
        extra=extra,
        game=info.name,
    )


def parse_record(data: object) -> Record:
    """Check a decoded JSON record's header and card codes; raise RecordError."""
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    name = data.get("game", DEFAULT_GAME)
    if not isinstance(name, str) or name not in GAME_NAMES:
        raise RecordError(f"game must be one of {', '.join(GAME_NAMES)}")
    info = get_game(name)
    if data.get("format") != info.record_format:
        raise RecordError(f"format must be {info.record_format!r}")
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError("players must be a list of names")
    if len(players) not in info.players:
        counts = ", ".join(map(str, info.players))
        raise RecordError(f"players must hold {counts} names for {info.title}")
    try:
        variant = info.parse_variant(data.get("variant"), len(players))
    except ValueError as exc:
        raise RecordError(f"variant: {exc}") from None
    deck = data.get("deck")
    if not info.check_deck(deck):
        raise RecordError(f"deck is not a shuffled deck of {info.title}")
    first = data.get("first_auctioneer")
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < len(players):
        raise RecordError("first_auctioneer must be a seat number")
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise RecordError("actions must be a list")
    check_card = info.check_card
    if check_card is not None:
        for i, action in enumerate(actions):
            if isinstance(action, dict) and "card" in action and not check_card(action["card"]):
                raise RecordError(f"actions[{i}]: {action['card']!r} is not a card code")
    extra = {k: v for k, v in data.items() if k not in HEADER_KEYS and k != "actions"}
    record = Record(list(players), variant, _copy(deck), first, actions, extra, game=name)
    try:  # what only the game can tell: e.g. a deck that does not fit the variant
        record.new_game()
    except ValueError as exc:
        raise RecordError(f"{info.title}: {exc}") from None
    return record


def load_record(text: str) -> Record:
    """Parse a record file's text; raise RecordError if it is not a valid record."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise RecordError(f"not JSON: {exc}") from None
    return parse_record(data)


def dump_record(record: Record) -> str:
    return json.dumps(record.to_dict(), indent=1) + "\n"


def replay(record: Record) -> dict[str, Any]:
    """Replay a record; the result object of `modernart replay` (RECORD.md)."""
    game = record.new_game()
    error = None
    for i, action in enumerate(record.actions):
        try:
            game.apply(action)
        except RuleError as exc:
            error = {"index": i, "message": str(exc)}
            break
    result = summary(game)
    result["ok"] = error is None
    if error is not None:
        result["error"] = error
    return result


def summary(game: GameState) -> dict[str, Any]:
    """The public outcome of a game so far, in `modernart replay`'s keys: the common ones
    (RECORD.md) and the game's own (`GameInfo.replay_fields`, docs/records.md)."""
    return {
        "ok": True,
        "finished": game.finished,
        "actions_applied": len(game.actions),
        **game_of(game).replay_fields(game),
        "winners": list(game.winners),
    }
