"""Serengeti's terms for the expert's review (engine/review.py): losses in points."""

from __future__ import annotations

from ..review import ReviewTerms

# Points: the seat's final points less its rivals', a win counted 5 (the expert's score).
TERMS = ReviewTerms(
    unit="points",
    measure="your final points less your rivals', a win counted 5",
    thresholds=(3, 6, 12),
)
