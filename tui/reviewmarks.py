"""A review (engine/review.py's JSON object, docs/records.md) as the replay viewer shows
it: checked against its record, a mark a decision, the lines of a marked step.

A decision's `step` is its action's index in the record; the viewer's step k shows the
table after action k-1, so a decision is shown on viewer step `step + 1`, where the
log's last lines tell its action (as lichess marks a move on the position after it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

from modernart.engine import Record
from modernart.engine.review import MARKS, action_text

from .games import client_game

SYMBOL = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
STYLE = {"inaccuracy": "bold cyan", "mistake": "bold yellow", "blunder": "bold red"}
COSTLIEST = 3  # decisions a player in the review's list
NAME = 12  # a name's most columns on the status line
KEYS = ("seat", "step", "action", "mark", "better", "loss", "reason", "expected")


class ReviewMismatch(ValueError):
    """A review that is not a review of this record (or not a review at all)."""


def _number(value: Any) -> bool:
    """A finite number (JSON's NaN and Infinity are no measure; a bool is no number)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _action_at(record: Record, step: Any) -> dict[str, Any] | None:
    if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step < len(record.actions):
        return None
    action = record.actions[step]
    return action if isinstance(action, dict) else None


def check_review(review: Any, record: Record) -> None:
    """ReviewMismatch unless `review` is docs/records.md's object for `record`: its game,
    its players, every decision at one of its players' actions, as that action."""
    if not isinstance(review, dict):
        raise ReviewMismatch("a review is a JSON object (modernart review FILE --json)")
    if review.get("game") != record.game or review.get("players") != list(record.players):
        raise ReviewMismatch("this review is of another game: its game or players differ")
    if not isinstance(review.get("unit"), str) or not isinstance(review.get("measure"), str):
        raise ReviewMismatch("the review has no unit or measure")
    if not _number(review.get("worlds")) or not _number(review.get("noise")):
        raise ReviewMismatch("the review does not say its worlds and noise")
    decisions = review.get("decisions")
    if not isinstance(decisions, list):
        raise ReviewMismatch("the review has no list of decisions")
    for i, d in enumerate(decisions):
        if not isinstance(d, dict) or any(key not in d for key in KEYS):
            raise ReviewMismatch(f"decisions[{i}] lacks one of {', '.join(KEYS)}")
        step = d["step"]
        action = _action_at(record, step)
        if (
            action is None
            or action.get("seat") != d["seat"]
            or {k: v for k, v in action.items() if k != "seat"} != d["action"]
        ):
            raise ReviewMismatch(f"decisions[{i}] is not the record's action {step!r}")
        if d["mark"] not in (None, *MARKS) or not _number(d["loss"]):
            raise ReviewMismatch(f"decisions[{i}] has a bad mark or loss")
        if d["expected"] is not None and not _number(d["expected"]):
            raise ReviewMismatch(f"decisions[{i}] has a bad expected result")
        better = d["better"]
        if better is not None and not (isinstance(better, dict) and "type" in better):
            raise ReviewMismatch(f"decisions[{i}]: its better action is not an action")
        if d["reason"] is not None and not isinstance(d["reason"], str):
            raise ReviewMismatch(f"decisions[{i}]: its reason is not a line")


@dataclass
class Marks:
    """A checked review, looked up by step and by player."""

    review: dict[str, Any]
    by_step: dict[int, dict[str, Any]] = field(init=False)

    def __post_init__(self) -> None:
        self.by_step = {d["step"]: d for d in self.review["decisions"]}

    @property
    def unit(self) -> str:
        return str(self.review["unit"])

    def marked_at(self, step: int) -> dict[str, Any] | None:
        """The marked decision shown on viewer step `step` (its action is `step - 1`)."""
        decision = self.by_step.get(step - 1)
        return decision if decision is not None and decision["mark"] else None

    def costliest(self, seat: int) -> list[dict[str, Any]]:
        """The seat's marked decisions, the costliest first, at most COSTLIEST: a loss
        within the noise is no mark and no cost (the review says so)."""
        mine = [d for d in self.review["decisions"] if d["seat"] == seat and d["mark"]]
        mine.sort(key=lambda d: (-d["loss"], d["step"]))
        return mine[:COSTLIEST]

    def expected(self, seat: int) -> list[float]:
        """The seat's expected result decision by decision (forced ones have none)."""
        return [
            float(d["expected"])
            for d in self.review["decisions"]
            if d["seat"] == seat and d["expected"] is not None
        ]

    def tag(self, decision: dict[str, Any], names: list[str]) -> Text:
        """ "P3 ?? blunder": who (a long name cut to fit the status line) and how bad."""
        mark, name = decision["mark"], names[decision["seat"]][:NAME]
        return Text.assemble(f"{name} ", (f"{SYMBOL[mark]} {mark}", STYLE[mark]))

    def log_lines(self, decision: dict[str, Any], names: list[str]) -> list[tuple[str, str]]:
        """The notes under a marked action in the log: the mark, the better action and what
        it gains, the reason in the game's words; (text, style) each."""
        mark, game = decision["mark"], self.review["game"]
        better = action_words(game, decision["better"])
        lines = [
            (
                f"{SYMBOL[mark]} {mark} by {names[decision['seat']]}: "
                f"{action_words(game, decision['action'])}",
                STYLE[mark],
            ),
            (f"   better: {better}, {round(decision['loss'], 1):g} {self.unit} more", "italic"),
        ]
        if decision.get("reason"):
            lines.append((f"   {decision['reason']}", "italic"))
        return lines


def action_words(game: str, action: dict[str, Any] | None) -> str:
    """An action in a few words, in the game's own where it has them (`ClientGame.
    action_words`: Modern Art's cards by name, "auction Krypto (open)"), else as
    `modernart review` prints it."""
    if action is None:
        return "-"
    return client_game(game).action_words(action) or action_text(action)
