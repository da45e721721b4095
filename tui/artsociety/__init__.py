"""The Art Society table (ARTSOCIETY.md): a wall built by keyboard."""

from .table import ArtSocietyTable

__all__ = ["ArtSocietyTable"]
