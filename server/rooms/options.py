"""A room's settings as sent in `create`: seats, variant, password, options."""

from __future__ import annotations

import dataclasses
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from modernart.engine.games import DEFAULT_GAME, GAME_NAMES, GameInfo, get_game
from modernart.server.limits import Limits
from modernart.server.rooms.fields import get_int
from modernart.server.wire.codec import BadMessage
from modernart.server.wire.messages import Create


class DevOnly(Exception):
    """An option that only a `--dev` server accepts (answered `not_allowed`)."""


@dataclass
class RoomOptions:
    shout_window_ms: int = 3000  # R12's going once, twice, sold
    turn_timeout_s: int = 0  # 0: no turn timeouts (see PUBLIC_TURN_TIMEOUT_S)
    bot_delay_ms: int = 1500  # a bot's thinking pause (jittered ±50%)
    takeover_s: int = 60  # an absent player's seat goes to a bot after this; 0: never
    deck: Any = None  # --dev only: a deck of the room's game (RECORD.md)
    first_auctioneer: int | None = None  # --dev only
    hints: bool = True  # clients may show the hint key (issue 12); the host may say no

    def public(self) -> dict[str, Any]:
        """What clients may see: everything but a fixed deck (secret deck order)."""
        return {
            "shout_window_ms": self.shout_window_ms,
            "turn_timeout_s": self.turn_timeout_s,
            "bot_delay_ms": self.bot_delay_ms,
            "takeover_s": self.takeover_s,
            "first_auctioneer": self.first_auctioneer,
            "fixed_deck": self.deck is not None,
            "hints": self.hints,
        }

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RoomOptions:
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


OPTION_RANGES = {
    "shout_window_ms": (100, 60_000),
    "turn_timeout_s": (0, 3600),
    "bot_delay_ms": (0, 10_000),
    "takeover_s": (0, 86_400),
}


# A public room (no password) waits this long for a decision unless `create` says
# otherwise; a private room, among friends, waits for ever (turn_timeout_s 0).
PUBLIC_TURN_TIMEOUT_S = 90


def parse_options(
    raw: object,
    seats: int,
    *,
    dev: bool,
    private: bool = True,
    limits: Limits | None = None,
    info: GameInfo | None = None,
) -> RoomOptions:
    """Options of `create`; BadMessage for bad values (or under the server's floors,
    `limits`), DevOnly for dev-only keys. `info`: the room's game (Modern Art if None),
    which checks a fixed deck."""
    info = info or get_game(DEFAULT_GAME)
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise BadMessage("`options` must be a map")
    unknown = set(raw) - set(OPTION_RANGES) - {"deck", "first_auctioneer", "hints"}
    if unknown:
        raise BadMessage(f"unknown options: {sorted(map(str, unknown))}")
    options = RoomOptions(
        bot_delay_ms=0 if dev else RoomOptions.bot_delay_ms,
        turn_timeout_s=0 if private else PUBLIC_TURN_TIMEOUT_S,
    )
    for key, (lo, hi) in OPTION_RANGES.items():
        setattr(options, key, get_int(raw, key, lo, hi, default=getattr(options, key)))
    if limits is not None:  # no bot farms on a public server (issue 7)
        if options.bot_delay_ms < limits.min_bot_delay_ms:
            raise BadMessage(
                f"`bot_delay_ms` must be at least {limits.min_bot_delay_ms} on this server"
            )
        if 0 < options.takeover_s < limits.min_takeover_s:
            raise BadMessage(f"`takeover_s` must be 0 (never) or at least {limits.min_takeover_s}")
    hints = raw.get("hints", True)
    if not isinstance(hints, bool):
        raise BadMessage("`options.hints` must be true or false")
    options.hints = hints
    for key in ("deck", "first_auctioneer"):
        if raw.get(key) is not None and not dev:
            raise DevOnly(f"`options.{key}` needs a server started with --dev")
    deck = raw.get("deck")
    if deck is not None:
        if not info.check_deck(deck):
            if info.name == DEFAULT_GAME:
                raise BadMessage("`options.deck` must be a permutation of the 70 cards of R3")
            raise BadMessage(f"`options.deck` must be a shuffled deck of {info.title}")
        options.deck = deck
    options.first_auctioneer = get_int(raw, "first_auctioneer", 0, seats - 1, default=None)
    return options


@dataclass
class RoomSettings:
    seats: int
    name: str
    variant: dict[str, Any]
    options: RoomOptions
    game: str = DEFAULT_GAME

    @property
    def info(self) -> GameInfo:
        return get_game(self.game)


def default_name(host_name: str, taken: Collection[str]) -> str:
    """A room's name when its host gives none: "carol's table", then "carol's table 2" …
    while that name is another room's (play-tests 2026-12-03 evening #9: two rooms named
    "carol's table" side by side in the lobby)."""
    name, n = f"{host_name}'s table", 1
    while (name if n == 1 else f"{name} {n}") in taken:
        n += 1
    return name if n == 1 else f"{name} {n}"


def parse_create(
    msg: Create,
    host_name: str,
    taken: Collection[str] = (),
    *,
    dev: bool,
    limits: Limits | None = None,
) -> RoomSettings:
    """A `create`'s settings; `taken`: the names of the rooms there are (for a default)."""
    game = msg.game or DEFAULT_GAME
    if game not in GAME_NAMES:
        raise BadMessage(f"`game` must be one of {list(GAME_NAMES)}")
    info = get_game(game)
    seats = msg.seats
    if not min(info.players) <= seats <= max(info.players):
        raise BadMessage(f"`seats` must be from {min(info.players)} to {max(info.players)}")
    if seats not in info.players:
        raise BadMessage(f"`seats` must be one of {list(info.players)} for {info.title}")
    name = msg.name
    if name is None or not name.strip():
        name = default_name(host_name, taken)
    raw_variant = msg.variant
    try:
        variant = info.parse_variant(raw_variant, seats)
    except ValueError as exc:
        raise BadMessage(f"`variant`: {exc}") from None
    private = bool(msg.password)
    options = parse_options(msg.options, seats, dev=dev, private=private, limits=limits, info=info)
    if options.deck is not None:  # what only the game can tell: a deck that fits the variant
        try:
            info.create([f"P{i}" for i in range(seats)], variant, deck=options.deck)
        except ValueError as exc:
            raise BadMessage(f"`options.deck`: {exc}") from None
    return RoomSettings(seats, name, variant, options, game)
