"""The expert's review of a finished game, for every game (issue 32; docs/records.md).

For each decision a player made (every record action with a `seat`), the
review rebuilds what THAT player knew just before it: its view (`view(seat)`,
what the server sent that seat) and what it had seen (the game's `Seen`
object, fed every public event and every view of that seat so far). It never
reads the state's hidden part: worlds are sampled from that knowledge alone
by the game's own sampler (engine/search.py), exactly as the expert plays.

In each sampled world the action taken and the expert's candidates (the hard
bot's choice and the game's few others) are played out by the hard bots to
the game's horizon and scored by the game's `evaluate` (its units: Modern
Art's money, Serengeti's and Art Society's points; a margin over the rivals).
Every candidate meets the same worlds and draws, so the loss of the action
taken against the expert's choice is a paired difference; its standard error
over the worlds is the review's own spread. A loss is marked only when it
passes the game's threshold and its 95 % confidence interval leaves out 0.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from .games import Action, GameInfo
from .records import Record
from .search import SearchBot

MARKS = ("inaccuracy", "mistake", "blunder")
MARK_PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
DEFAULT_WORLDS = 16  # worlds a decision by default: twice the expert's (Modern Art)
MAX_WORLDS = 1000  # worlds a decision at most: a review's CPU grows with them
# Student's t, two-sided 95 %, by degrees of freedom (worlds - 1): a loss is beyond the
# noise when its 95 % confidence interval leaves out 0 (loss > t * standard error).
T95 = (
    (40, 1.96),
    (30, 2.04),
    (20, 2.09),
    (15, 2.13),
    (12, 2.18),
    (10, 2.23),
    (9, 2.26),
    (8, 2.31),
    (7, 2.36),
    (6, 2.45),
    (5, 2.57),
    (4, 2.78),
    (3, 3.18),
    (2, 4.30),
    (1, 12.71),
)  # (the least degrees of freedom, t)


def noise_factor(worlds: int) -> float:
    """How many standard errors a loss must pass with `worlds` worlds (Student's t)."""
    df = max(1, worlds - 1)
    return next(t for least, t in T95 if df >= least)


class ReviewError(ValueError):
    """A record that cannot be reviewed (unfinished, an illegal action, no expert)."""


@dataclass(frozen=True)
class ReviewTerms:
    """What a game says about its review: its unit and marks, and its reasons."""

    unit: str  # what a loss counts, in the game's words ("money", "points")
    measure: str  # what the expected result is, in a few words for people
    # the least loss for an inaccuracy, a mistake and a blunder, in `unit`
    thresholds: tuple[float, float, float]
    # reason(view, action, better) -> one line in the game's words, or None
    reason: Callable[[dict[str, Any], Action, Action | None], str | None] = (
        lambda view, action, better: None
    )

    def mark(self, loss: float) -> str | None:
        found = None
        for name, least in zip(MARKS, self.thresholds, strict=True):
            if loss >= least:
                found = name
        return found


@dataclass(frozen=True)
class Decision:
    """One reviewed decision; `loss`, `expected` and `spread` are in the game's unit."""

    seat: int
    step: int  # its index in the record's actions
    action: Action  # without `seat`
    mark: str | None
    better: Action | None  # the expert's choice when it beats the action beyond the noise
    loss: float  # the expert's choice's mean less the action's (0 when none is better)
    reason: str | None
    expected: float | None  # the action's mean result as the seat saw it (None: forced)
    spread: float | None  # the loss's standard error; None with fewer than 2 worlds
    worlds: int  # worlds searched (0: a forced move, nothing to weigh)

    def to_dict(self) -> dict[str, Any]:
        """Every field in this order; the loss, mean and spread to two decimals."""
        return {
            **dataclasses.asdict(self),
            "loss": round(self.loss, 2),
            "expected": _rounded(self.expected),
            "spread": _rounded(self.spread),
        }


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def terms_of(info: GameInfo) -> ReviewTerms:
    if info.review is None or info.search is None:
        raise ReviewError(f"{info.title} has no expert to review a game")
    return info.review


def review(record: Record, worlds: int = DEFAULT_WORLDS, seed: int = 0) -> dict[str, Any]:
    """The whole review of a finished game as docs/records.md's JSON object."""
    return review_object(record, worlds, list(review_decisions(record, worlds, seed)))


def review_object(record: Record, worlds: int, decisions: list[Decision]) -> dict[str, Any]:
    """docs/records.md's JSON object of `decisions` reviewed with `worlds` worlds (a caller
    that showed progress while `review_decisions` ran puts them together here)."""
    return {**review_head(record, worlds), "decisions": [d.to_dict() for d in decisions]}


def review_head(record: Record, worlds: int) -> dict[str, Any]:
    """The review's JSON object but its `decisions` (the server adds those it computed
    a few at a time: server/rooms/reviews.py)."""
    terms = terms_of(record.info)
    return {
        "game": record.info.name,
        "players": list(record.players),
        "unit": terms.unit,
        "measure": terms.measure,
        "thresholds": dict(zip(MARKS, terms.thresholds, strict=True)),
        "noise": round(noise_factor(worlds), 2),
        "worlds": worlds,
    }


def review_decisions(
    record: Record, worlds: int = DEFAULT_WORLDS, seed: int = 0, start: int = 0
) -> Iterator[Decision]:
    """Every decision of a finished game, reviewed in order (one at a time: a caller
    can show progress); those from step `start` on, if given (the earlier steps are
    only replayed). ReviewError for a running game or an illegal action."""
    if worlds < 1:
        raise ReviewError("worlds must be at least 1")
    final = _replay(record, len(record.actions))
    if not final.finished:
        raise ReviewError("the game is not finished: only a finished game can be reviewed")
    yield from _decisions(record, worlds, seed, len(record.actions), start=start)


def review_step(record: Record, step: int, worlds: int = DEFAULT_WORLDS, seed: int = 0) -> Decision:
    """The decision at `step` alone, from the record's actions before it: what its seat
    knew then is all it reads (the game need not be finished: tests, one-offs)."""
    action = record.actions[step] if 0 <= step < len(record.actions) else None
    if not isinstance(action, dict) or not isinstance(action.get("seat"), int):
        raise ReviewError(f"actions[{step}] is not a player's decision")
    return next(_decisions(record, worlds, seed, step + 1, only=step))


def _replay(record: Record, upto: int) -> Any:
    state = record.new_game()
    for i, action in enumerate(record.actions[:upto]):
        try:
            state.apply(action)
        except Exception as exc:  # a RuleError or a malformed action
            raise ReviewError(f"actions[{i}]: {exc}") from None
    return state


def _decisions(
    record: Record, worlds: int, seed: int, upto: int, only: int | None = None, start: int = 0
) -> Iterator[Decision]:
    """Replay the first `upto` actions; review each player's decision among them from
    step `start` on (the one at step `only`, if given)."""
    info = record.info
    terms = terms_of(info)
    searcher = info.search
    assert searcher is not None
    state = record.new_game()
    seen = [searcher.seen() for _ in range(state.n)]
    for s in range(state.n):
        seen[s].observe_view(state.view(s))
    for step, action in enumerate(record.actions[:upto]):
        seat = action.get("seat") if isinstance(action, dict) else None
        decision = None
        wanted = step == only if only is not None else step >= start
        if wanted and isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.n:
            view = state.view(seat)
            taken = {k: v for k, v in action.items() if k != "seat"}
            decision = _judge(info, terms, view, seen[seat], taken, step, worlds, seed)
        try:
            events = state.apply(action)
        except Exception as exc:
            raise ReviewError(f"actions[{step}]: {exc}") from None
        for s in range(state.n):
            seen[s].observe(events)
            seen[s].observe_view(state.view(s))
        if decision is not None:
            yield decision


def _judge(
    info: GameInfo,
    terms: ReviewTerms,
    view: dict[str, Any],
    seen: Any,
    taken: Action,
    step: int,
    worlds: int,
    seed: int,
) -> Decision:
    """The action `taken` against the expert's candidates, from `view` and `seen` only."""
    rng = random.Random(seed * 100_003 + step)
    expert = SearchBot(info.name, rng.randrange(1 << 30), max_worlds=worlds)
    incumbent = expert.policy.choose(view)
    candidates = [c for c in expert.candidates(view, incumbent) if isinstance(c, dict)]
    if taken in candidates:
        candidates.remove(taken)
    candidates.insert(0, taken)
    seat = view["you"]
    if len(candidates) == 1:  # nothing to weigh
        return Decision(seat, step, taken, None, None, 0.0, None, None, None, 0)
    scores: list[list[float]] = [[] for _ in candidates]
    for _ in range(worlds):
        world = expert.searcher.sample(view, seen, rng)
        playout_seed = rng.randrange(1 << 30)
        for i, candidate in enumerate(candidates):
            copy = expert.searcher.copy(world)
            scores[i].append(expert.playout(copy, seat, candidate, playout_seed))
    means = [sum(s) / worlds for s in scores]
    edged = list(means)
    if incumbent in candidates:
        edged[candidates.index(incumbent)] += expert.searcher.edge
    choice = max(range(len(candidates)), key=edged.__getitem__)
    loss = max(0.0, means[choice] - means[0])
    spread = _stderr([b - a for a, b in zip(scores[0], scores[choice], strict=True)])
    beyond = (
        choice != 0 and loss > 0 and spread is not None and loss > noise_factor(worlds) * spread
    )
    better = candidates[choice] if beyond else None
    mark = terms.mark(loss) if beyond else None
    reason = terms.reason(view, taken, better) if mark else None
    return Decision(seat, step, taken, mark, better, loss, reason, means[0], spread, worlds)


def _stderr(values: list[float]) -> float | None:
    """The standard error of the mean of `values` (None for fewer than two)."""
    n = len(values)
    if n < 2:
        return None
    mean = sum(values) / n
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def action_text(action: Action | None) -> str:
    """An action in a few words: its type and its values ("bid 12", "play krypto.open")."""
    if action is None:
        return "-"
    words = [str(action.get("type"))]
    for key, value in action.items():
        if key not in ("type", "seat"):
            words.append(key if value is True else str(value))
    return " ".join(words)
