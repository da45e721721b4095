"""Art Society (ARTSOCIETY.md A1–A28) through the game interface (engine/games.py)."""

from __future__ import annotations

import copy
from importlib.resources import files
from typing import Any

from ..bots import bot_levels
from ..games import Action, GameInfo
from ..search import expert_factory
from .bots import BOT_HELP, BOTS, HeuristicBot
from .hint import suggest
from .levels import EasyBot, NormalBot
from .review import TERMS as REVIEW
from .rules import PRESET_HELP, PRESETS, parse_variant
from .state import ACTION_FIELDS, BID, ArtSociety, check_deck
from .worlds import SEARCHER

_timeout_bot = HeuristicBot(0)

# Levels, weakest first (`heuristic` is the old name of `hard`); docs/bots.md.
LEVELS = bot_levels(
    random=BOTS["random"],
    easy=EasyBot,
    normal=NormalBot,
    hard=HeuristicBot,
    expert=expert_factory("artsociety"),
)
LEVEL_HELP: dict[str, str] = {
    "random": BOT_HELP["random"],
    "easy": "Bids its lowest card, takes the first painting, hangs mostly at random.",
    "normal": "Bids the middle card of its hand whatever the lot; hangs half at random.",
    "hard": BOT_HELP["heuristic"],
    "expert": "Searches its bids and picks: samples the hidden piles and bids, plays ahead.",
    "heuristic": "Another name for hard.",
}


def timeout_action(game: ArtSociety, seat: int) -> Action | None:
    """A timed-out seat plays as the heuristic bot would: every decision has a safe move."""
    if seat not in game.to_act():
        return None
    return _timeout_bot.choose(game.view(seat))


SEAT_KEYS = ("you", "legal", "hand", "my_bid", "stack")  # docs/protocol.md


def seat_view(game: ArtSociety, seat: int, public: dict[str, Any]) -> dict[str, Any]:
    """`view(seat)`'s SEAT_KEYS without a whole view (the walls' scores are costly)."""
    return {
        "you": seat,
        "legal": game.legal(seat),
        "hand": list(game.hands[seat]),
        "my_bid": game.bids[seat] if game.phase == BID else None,
        "stack": list(game.stacks[seat]),
    }


def record_header(game: ArtSociety) -> dict[str, Any]:
    return {
        "variant": game.house.to_dict(),
        "deck": copy.deepcopy(game.deck),
        "first_auctioneer": game.first_auctioneer,
    }


def replay_fields(game: ArtSociety) -> dict[str, Any]:
    """RECORD.md's Art Society result fields (docs/records.md)."""
    return {
        "points": [s["total"] for s in game.scores()],
        "prestige": dict(game.prestige),
        "walls": [[t.to_json() for t in wall.tiles] for wall in game.walls],
    }


GAME = GameInfo(
    name="artsociety",
    title="Art Society",
    caveat="house rules where the printed rules were unavailable",
    players=(2, 3, 4),
    presets={name: house.to_dict() for name, house in PRESETS.items()},
    preset_help=PRESET_HELP,
    default_preset="house",
    record_format="artsociety-record/1",
    summary=(
        "Art Society (house rules where the printed rules were unavailable): Mitch "
        "Wallace's game of collectors who bid cards for the order in which they pick "
        "paintings, then hang them on a 10×10 wall where frames earn decor, touching "
        "genres cancel out and the museum sets each genre's multiplier."
    ),
    rules=files("modernart.engine.artsociety").joinpath("rules.md").read_text(encoding="utf-8"),
    new_state=ArtSociety,
    parse_variant=lambda value, players: parse_variant(value, players).to_dict(),
    check_deck=check_deck,
    record_header=record_header,
    replay_fields=replay_fields,
    score_field="points",
    timeout_action=timeout_action,
    bots=LEVELS,
    default_bot="hard",
    bot_help=LEVEL_HELP,
    actions=ACTION_FIELDS,
    seat_keys=SEAT_KEYS,
    seat_view=seat_view,
    search=SEARCHER,
    hint=suggest,
    review=REVIEW,
)
