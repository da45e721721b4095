"""Art Society's terms for the expert's review (engine/review.py): losses in points."""

from __future__ import annotations

from ..review import ReviewTerms

# Points: the seat's points less its rivals' at the round's end (the expert's score).
TERMS = ReviewTerms(
    unit="points", measure="your points less your rivals' at the round's end", thresholds=(3, 8, 15)
)
