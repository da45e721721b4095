"""The pure rules engines: no sockets, no clocks, no asyncio (DESIGN.md).

One package per game (`modernart`, `serengeti`, `artsociety`) behind the
interface of `games.py`; what every game shares is here: the typed rule
errors and game records.
"""

from .errors import Illegal, InsufficientFunds, NotYourTurn, RuleError, TooLow
from .records import Record, RecordError, dump_record, load_record, record_of, replay

__all__ = [
    "Illegal",
    "InsufficientFunds",
    "NotYourTurn",
    "Record",
    "RecordError",
    "RuleError",
    "TooLow",
    "dump_record",
    "load_record",
    "record_of",
    "replay",
]
