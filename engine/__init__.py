"""The pure rules engines: no sockets, no clocks, no asyncio (DESIGN.md).

One package per game (`modernart`, `serengeti`, `artsociety`) behind the
interface of `games.py`; what every game shares is here: the typed errors
(rules, setup, variants) and game records.
"""

from .errors import (
    Illegal,
    InsufficientFunds,
    NotYourTurn,
    RuleError,
    SetupError,
    TooLow,
    VariantError,
)
from .records import Record, RecordError, dump_record, load_record, record_of, replay

__all__ = [
    "Illegal",
    "InsufficientFunds",
    "NotYourTurn",
    "Record",
    "RecordError",
    "RuleError",
    "SetupError",
    "TooLow",
    "VariantError",
    "dump_record",
    "load_record",
    "record_of",
    "replay",
]
