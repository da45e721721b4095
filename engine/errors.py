"""Typed errors every game shares: rule errors, each carrying the protocol's error
code (PROTOCOL.md), and the errors of creating a game."""

from __future__ import annotations


class SetupError(ValueError):
    """Bad arguments for creating a game (players, deck, first player)."""


class VariantError(ValueError):
    """A variant that is not one of the game's presets or a valid mapping of its settings."""


class RuleError(Exception):
    """An action the rules refuse. The game is left unchanged."""

    code = "illegal"


class NotYourTurn(RuleError):
    code = "not_your_turn"


class TooLow(RuleError):
    code = "too_low"


class InsufficientFunds(RuleError):
    code = "insufficient_funds"


class Illegal(RuleError):
    code = "illegal"
