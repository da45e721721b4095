"""The `expert` Modern Art bot: the shared determinized search (engine/search.py)
with Modern Art's sampler, candidates and scoring, and the hard bot as its policy.

Candidates: every distinct card to play, a handful of amounts around the hard
bot's valuation, pass/buy, and for an open auction (R12) a handful of price
caps, searched once per lot, then shouted up to. Worlds are sampled from its
view and public memory (engine/modernart/bots/worlds.py) and played out to
the end of the round (the game's end in round 4); a candidate scores the
bot's money minus its rivals' (the mean of their average and their best).

It reads only its view and the events it is shown with `observe(events)`;
without events it still plays, guessing rivals' money as equal to its own.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ...search import DEFAULT_BUDGET_S, GAME, SearchBot, Searcher, margin, unique
from ..cards import ARTIST_OF
from ..game import Game
from ..phases import OPEN
from .heuristic import HeuristicBot, painting_values
from .worlds import PublicMemory, clone, sample_world

Action = dict[str, Any]

# A candidate other than the hard bot's own choice must beat it by this much
# money on average: with few worlds, noise should not overturn a sound move.
INCUMBENT_EDGE = 1.0

_guesser = HeuristicBot(0)


def sealed_guess(world: Game, seat: int) -> int:
    """A sealed bid already in (R14): what a hard bot in that seat would bid."""
    sealed = world.sealed
    world.sealed = {}
    action = _guesser.choose(world.view(seat))
    world.sealed = sealed
    return action["amount"] if action and action["type"] == "sealed" else 0


def sample(view: dict[str, Any], memory: PublicMemory, rng: random.Random) -> Game:
    """Modern Art's sampler: the search's one required hook."""
    return sample_world(view, memory, rng, sealed_guess)


def money_margin(world: Game, me: int) -> float:
    return margin(world.money, me)


def candidates(view: dict[str, Any], incumbent: Action | None) -> list[Action]:
    """A few actions worth comparing; the hard bot's choice first."""
    legal = view["legal"]
    out: list[Action] = [incumbent] if incumbent else []
    if "play" in legal:
        out += [{"type": "play", "card": c} for c in legal["play"]]
    if "decline" in legal:
        out += [{"type": "add", "card": c} for c in legal.get("add") or []]
        out.append({"type": "decline"})
    lot_value = _lot_value(view) if view["lot"] else 0.0
    for kind, shares in (
        ("price", (0.4, 0.6, 0.8, 1.0)),
        ("sealed", (0.0, 0.4, 0.6, 0.8, 1.0)),
        ("bid", (0.5, 0.7, 0.9)),
    ):
        if kind in legal:
            low, high = legal[kind]
            amounts = {max(low, min(high, round(lot_value * s))) for s in shares}
            out += [{"type": kind, "amount": a} for a in sorted(amounts)]
    for kind in ("buy", "pass"):
        if kind in legal:
            out.append({"type": kind})
    return unique(out)


def _lot_value(view: dict[str, Any]) -> float:
    values = painting_values(view)
    return sum(values[ARTIST_OF[c]] for c in view["lot"]["cards"])


class ExpertBot(SearchBot):
    """Modern Art's expert; `simulations` counts the playouts it has run."""

    def __init__(
        self,
        seed: int | None = None,
        budget_s: float = DEFAULT_BUDGET_S,
        max_worlds: int | str | None = GAME,
        **kwargs: Any,
    ) -> None:
        super().__init__("modernart", seed, budget_s, max_worlds, **kwargs)
        self.memory: PublicMemory = self.seen  # type: ignore[assignment]
        self.hard: HeuristicBot = self.policy  # type: ignore[assignment]
        self._open_cap: tuple[tuple[Any, ...], int] | None = None

    # ------------------------------------------------------------ deciding

    def choose(self, view: dict[str, Any]) -> Action | None:
        if view["legal"] and view["phase"] == OPEN:
            self.seen.observe_view(view)
            return self._open(view)
        return super().choose(view)

    def quick(self, view: dict[str, Any]) -> tuple[bool, Action | None]:
        if not view["legal"] or view["phase"] != OPEN:
            return super().quick(view)
        if view["high"] and view["high"]["seat"] == view["you"]:
            return True, None  # the high bidder waits for the hammer
        key = _lot_key(view)
        if self._open_cap is None or self._open_cap[0] != key:
            value = self.hard._limit(view)
            legal = view["legal"]
            if "bid" in legal and legal["bid"][0] <= round(value * 1.2):
                return False, None  # within reach: the cap is searched
            self._open_cap = (key, 0)  # out of reach: nothing to search
        return True, self._shout(view)

    def _open(self, view: dict[str, Any]) -> Action | None:
        """R12: search once per lot for the most worth paying, then shout up to it."""
        decided, action = self.quick(view)
        if decided:
            return action
        value = self.hard._limit(view)
        caps = sorted({0, *(round(value * f) for f in (0.6, 0.8, 1.0, 1.2))})
        key = _lot_key(view)
        plans = [CapPlan(c, key) for c in caps]
        self._open_cap = (key, self.search(view, plans, caps.index(round(value))).cap)
        return self._shout(view)

    def _shout(self, view: dict[str, Any]) -> Action | None:
        """The lowest bid while it is within this lot's cap, else pass."""
        assert self._open_cap is not None
        legal, cap = view["legal"], self._open_cap[1]
        if "bid" in legal and legal["bid"][0] <= cap:
            return {"type": "bid", "amount": legal["bid"][0]}
        return {"type": "pass"} if "pass" in legal else None


@dataclass(frozen=True)
class CapPlan:
    """A candidate for an open auction (R12): shout up to `cap` on this lot."""

    cap: int
    lot: tuple[Any, ...]

    def bind(self, inner: HeuristicBot) -> _Capped:
        return _Capped(self.cap, inner, self.lot)


class _Capped:
    """In the open auction under way, shouts the lowest bid up to `cap`; then plays
    as `inner`."""

    level = "capped"

    def __init__(self, cap: int, inner: HeuristicBot, lot: tuple[Any, ...]) -> None:
        self.cap = cap
        self.inner = inner
        self.lot = lot

    def choose(self, view: dict[str, Any]) -> Action | None:
        if view["phase"] == OPEN and _lot_key(view) == self.lot:
            legal = view["legal"]
            if view["high"] and view["high"]["seat"] == view["you"]:
                return None
            if "bid" in legal and legal["bid"][0] <= self.cap:
                return {"type": "bid", "amount": legal["bid"][0]}
            return {"type": "pass"} if "pass" in legal else None
        return self.inner.choose(view)


def _lot_key(view: dict[str, Any]) -> tuple[Any, ...]:
    """Tells one open auction (R12) from the next."""
    lot = view["lot"]
    return view["round"], tuple(lot["cards"]), lot["seller"], sum(view["counts"].values())


SEARCHER = Searcher(
    sample=sample,
    seen=PublicMemory,
    candidates=candidates,
    evaluate=money_margin,
    horizon=lambda world: world.round,
    copy=clone,
    edge=INCUMBENT_EDGE,
    worlds=8,  # the strength-cost curve's choice (docs/benchmarks.md, issue 20)
)
