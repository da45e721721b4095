"""The Art Society table (ARTSOCIETY.md): a wall built by keyboard."""

from .end import KEYS_HELP
from .table import ArtSocietyTable

__all__ = ["KEYS_HELP", "ArtSocietyTable"]
