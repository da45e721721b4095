"""The pure rules engine: no sockets, no clocks, no asyncio (DESIGN.md)."""

from .cards import ARTIST_NAMES, ARTISTS, AUCTION_TYPES, CARD_CODES, FULL_DECK
from .errors import Illegal, InsufficientFunds, NotYourTurn, RuleError, TooLow
from .game import Game, SetupError
from .records import Record, RecordError, dump_record, load_record, record_of, replay
from .variant import PRESETS, Variant, VariantError, parse_variant

__all__ = [
    "ARTISTS",
    "ARTIST_NAMES",
    "AUCTION_TYPES",
    "CARD_CODES",
    "FULL_DECK",
    "PRESETS",
    "Game",
    "Illegal",
    "InsufficientFunds",
    "NotYourTurn",
    "Record",
    "RecordError",
    "RuleError",
    "SetupError",
    "TooLow",
    "Variant",
    "VariantError",
    "dump_record",
    "load_record",
    "parse_variant",
    "record_of",
    "replay",
]
