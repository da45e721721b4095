"""Game records (RECORD.md): reading, writing and replaying them."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .cards import ARTISTS, is_card, is_deck
from .errors import RuleError
from .game import Game
from .variant import VariantError, parse_variant

FORMAT = "modernart-record/1"


class RecordError(ValueError):
    """A file that is not a valid record (RECORD.md: exit status 2)."""


@dataclass
class Record:
    players: list[str]
    variant: dict[str, Any]
    deck: list[str]
    first_auctioneer: int
    actions: list[Any] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def new_game(self) -> Game:
        """The game as dealt, before any action."""
        return Game(self.players, self.variant, self.deck, first_auctioneer=self.first_auctioneer)

    def played(self, upto: int | None = None) -> Game:
        """The game after the record's actions (the first `upto` of them, if given).

        Raises RuleError at an illegal action; `replay` is the forgiving reader.
        """
        game = self.new_game()
        for action in self.actions[:upto]:
            game.apply(action)
        return game

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.extra,
            "format": FORMAT,
            "players": list(self.players),
            "variant": dict(self.variant),
            "deck": list(self.deck),
            "first_auctioneer": self.first_auctioneer,
            "actions": list(self.actions),
        }


def record_of(game: Game, **extra: Any) -> Record:
    """The record of a game so far (its deal and every applied action)."""
    return Record(
        players=list(game.players),
        variant=game.variant.to_dict(),
        deck=list(game.deck),
        first_auctioneer=game.first_auctioneer,
        actions=[dict(a) for a in game.actions],
        extra=extra,
    )


def parse_record(data: object) -> Record:
    """Check a decoded JSON record's header and card codes; raise RecordError."""
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}")
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError("players must be a list of names")
    if not 3 <= len(players) <= 5:
        raise RecordError("players must hold 3 to 5 names")
    try:
        variant = parse_variant(data.get("variant"), len(players)).to_dict()
    except VariantError as exc:
        raise RecordError(f"variant: {exc}") from None
    deck = data.get("deck")
    if not is_deck(deck):
        raise RecordError("deck must be a permutation of the 70 cards of R3")
    first = data.get("first_auctioneer")
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < len(players):
        raise RecordError("first_auctioneer must be a seat number")
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise RecordError("actions must be a list")
    for i, action in enumerate(actions):
        if isinstance(action, dict) and "card" in action and not is_card(action["card"]):
            raise RecordError(f"actions[{i}]: {action['card']!r} is not a card code of R3")
    known = {"format", "players", "variant", "deck", "first_auctioneer", "actions"}
    extra = {k: v for k, v in data.items() if k not in known}
    return Record(list(players), variant, list(deck), first, actions, extra)


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


def summary(game: Game) -> dict[str, Any]:
    """The public outcome of a game so far, in `modernart replay`'s keys."""
    return {
        "ok": True,
        "finished": game.finished,
        "actions_applied": len(game.actions),
        "round": game.round,
        "money": list(game.money),
        "winners": list(game.winners),
        "tokens": {a: list(game.tokens[a]) for a in ARTISTS},
    }
