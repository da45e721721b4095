"""Typed rule errors. Each carries the protocol's error code (PROTOCOL.md)."""

from __future__ import annotations


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
