"""Modern Art (RULES.md R1–R30) described through the game interface (engine/games.py)."""

from __future__ import annotations

from importlib.resources import files
from typing import Any

from ..errors import SetupError
from ..games import Action, GameInfo, seats_showing
from .bots import BOT_HELP, BOTS, DEFAULT_LEVEL, make_bot, timing
from .bots.expert import SEARCHER
from .bots.hint import suggest
from .cards import ARTIST_NAMES, ARTISTS, AUCTION_TYPES, CARD_CODES, FULL_DECK, is_card, is_deck
from .game import ACTIONS, Game
from .review import TERMS as REVIEW
from .variant import PRESET_HELP, PRESETS, Variant, VariantError, parse_variant

__all__ = [
    "ARTISTS",
    "ARTIST_NAMES",
    "AUCTION_TYPES",
    "CARD_CODES",
    "FULL_DECK",
    "GAME",
    "PRESETS",
    "Game",
    "SetupError",
    "Variant",
    "VariantError",
    "parse_variant",
]

_timeout_bot = make_bot(DEFAULT_LEVEL)


def timeout_action(game: Game, seat: int) -> Action | None:
    """The safe default when a decision times out: play a card and name a fixed price
    (R15) as the heuristic would, else decline, bid 0 or pass: a timed-out seat never
    bids, and never names the lowest price, at which anyone could take the painting
    for 1 (docs/decisions/28-minor.md)."""
    legal = game.legal(seat)
    if "play" in legal or "price" in legal:
        return _timeout_bot.choose(game.view(seat))  # the heuristic plays or prices
    if "decline" in legal:
        return {"type": "decline"}
    if "sealed" in legal:
        return {"type": "sealed", "amount": 0}
    if "pass" in legal:
        return {"type": "pass"}
    return None


# The view's entries that depend on the seat; everything else is the same for all.
SEAT_KEYS = ("you", "hand", "money", "legal", "my_sealed", "seats")


def seat_view(game: Game, seat: int, public: dict[str, Any]) -> dict[str, Any]:
    """What `view(seat)` holds in place of the spectators' entries of `public` (the
    spectators' view, possibly with a server's fields added to each seat): built
    without a whole `view(seat)`."""
    money = game.money[seat]
    return {
        "you": seat,
        "hand": game.hands[seat],
        "money": money,
        "legal": game.legal(seat),
        "my_sealed": game.sealed.get(seat) if game.phase == "sealed" else None,
        "seats": seats_showing(public, seat, "money", money),  # yours alone till the end (R4)
    }


def record_header(game: Game) -> dict[str, Any]:
    return {
        "variant": game.variant.to_dict(),
        "deck": list(game.deck),
        "first_auctioneer": game.first_auctioneer,
    }


def replay_fields(game: Game) -> dict[str, Any]:
    """RECORD.md's Modern Art result fields beyond the common ones."""
    return {
        "round": game.round,
        "money": list(game.money),
        "tokens": {a: list(game.tokens[a]) for a in ARTISTS},
    }


GAME = GameInfo(
    name="modernart",
    title="Modern Art",
    players=(3, 4, 5),
    presets={name: v.to_dict() for name, v in PRESETS.items()},
    preset_help=PRESET_HELP,
    default_preset="classic",
    record_format="modernart-record/1",
    summary=(
        "Reiner Knizia's auction game: art dealers put paintings up for auction in five "
        "ways, buy from each other, and sell to the bank after each of four rounds."
    ),
    rules=files("modernart.engine.modernart").joinpath("rules.md").read_text(encoding="utf-8"),
    new_state=Game,
    parse_variant=lambda value, players: parse_variant(value, players).to_dict(),
    check_deck=is_deck,
    check_card=is_card,
    record_header=record_header,
    replay_fields=replay_fields,
    timeout_action=timeout_action,
    summary_events=frozenset({"round_end"}),
    bots=BOTS,
    default_bot=DEFAULT_LEVEL,
    bot_help=BOT_HELP,
    hammer={"type": "close"},
    shout_delay_ms=timing.shout_delay_ms,
    min_reaction_ms=timing.MIN_REACTION_MS,
    actions={kind: (carried,) if carried else () for kind, (carried, _) in ACTIONS.items()},
    seat_keys=SEAT_KEYS,
    seat_view=seat_view,
    search=SEARCHER,
    hint=suggest,
    review=REVIEW,
)
