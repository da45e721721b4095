"""Serengeti (SERENGETI.md S1–S20) described through the game interface (engine/games.py)."""

from __future__ import annotations

from importlib.resources import files
from typing import Any

from ..games import Action, GameInfo, seats_showing
from .bots import BOT_HELP, BOTS, DEFAULT_LEVEL
from .cards import PLAYERS, is_card, is_deck
from .game import SerengetiGame
from .hint import suggest
from .review import TERMS as REVIEW
from .variant import DEFAULT_PRESET, PRESET_HELP, PRESETS, parse_variant
from .worlds import SEARCHER


def timeout_action(game: SerengetiGame, seat: int) -> Action | None:
    """A timed-out seat passes (S8: final for this auction; an early pass still earns 2)."""
    return {"type": "pass"} if "pass" in game.legal(seat) else None


# your chips, yours alone before the end (S3, S18); the payout preview is for you
SEAT_KEYS = ("you", "chips", "legal", "seats", "payout_preview")


def seat_view(game: SerengetiGame, seat: int, public: dict[str, Any]) -> dict[str, Any]:
    """`view(seat)`'s SEAT_KEYS from the spectators' view `public` (plus a server's
    fields), without a whole `view(seat)`."""
    chips = game.chips[seat]
    return {
        "you": seat,
        "chips": chips,
        "legal": game.legal(seat),
        "seats": seats_showing(public, seat, "chips", chips),  # yours alone till the end (S3)
        "payout_preview": game.payout_preview(seat),
    }


def record_header(game: SerengetiGame) -> dict[str, Any]:
    return {
        "variant": dict(game.variant),
        "deck": list(game.deck),
        "first_auctioneer": game.first_auctioneer,
    }


def replay_fields(game: SerengetiGame) -> dict[str, Any]:
    """`modernart replay`'s Serengeti fields (docs/records.md): chips, points, owned."""
    points = [game.points(s) for s in range(game.n)]
    if game.scores is not None:  # with the most-chips bonus (S16) once the game is over
        points = [s["points"] for s in game.scores]
    return {"chips": list(game.chips), "points": points, "owned": [list(o) for o in game.owned]}


GAME = GameInfo(
    name="serengeti",
    title="Serengeti",
    players=PLAYERS,
    presets=PRESETS,
    preset_help=PRESET_HELP,
    default_preset=DEFAULT_PRESET,
    record_format="serengeti-record/1",
    summary=(
        "Michael Schacht's auction game: bid in turn for lots of tribal carvings; "
        "a price's last digit decides who is paid, and your own digits bar your bids."
    ),
    rules=files(__name__).joinpath("rules.md").read_text(encoding="utf-8"),
    new_state=SerengetiGame,
    parse_variant=parse_variant,
    check_deck=is_deck,
    check_card=is_card,
    record_header=record_header,
    replay_fields=replay_fields,
    score_field="points",
    timeout_action=timeout_action,
    bots=BOTS,
    default_bot=DEFAULT_LEVEL,
    bot_help=BOT_HELP,
    actions={"bid": ("amount",), "pass": ()},
    seat_keys=SEAT_KEYS,
    seat_view=seat_view,
    search=SEARCHER,
    hint=suggest,
    review=REVIEW,
)
