"""The `expert` Modern Art bot: determinized search with the hard bot as its policy.

For a decision it lists a few candidate actions (every distinct card to play,
a handful of amounts around the hard bot's valuation, pass/buy, for an open
auction a handful of price caps), then, until its time budget runs out,
samples a world consistent with its view and public memory
(engine/modernart/bots/worlds.py) and plays each candidate out in that same world with
hard bots in every seat to the end of the round (the game's end in round 4).
A candidate scores the bot's money minus its rivals' (the mean of their
average and their best); the best average wins. Every candidate meets the
same worlds and the same random draws, so differences are not luck of the draw.

It reads only its view and the events it is shown with `observe(events)`;
without events it still plays, guessing rivals' money as equal to its own.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable
from typing import Any

from ..cards import ARTIST_OF
from ..game import OPEN, Game
from .heuristic import HeuristicBot, painting_values
from .worlds import PublicMemory, clone, sample_world

Action = dict[str, Any]

DEFAULT_BUDGET_S = 1.0
# A candidate other than the hard bot's own choice must beat it by this much
# money on average: with few worlds, noise should not overturn a sound move.
INCUMBENT_EDGE = 1.0


class ExpertBot:
    """Searches sampled worlds; `simulations` counts the playouts it has run."""

    level = "expert"

    def __init__(
        self,
        seed: int | None = None,
        budget_s: float = DEFAULT_BUDGET_S,
        max_worlds: int | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        self.budget_s = budget_s
        self.max_worlds = max_worlds  # a cap on worlds per decision (tests, benchmarks)
        self.memory = PublicMemory()
        self.hard = HeuristicBot(self.rng.randrange(1 << 30))
        self.simulations = 0
        self.searches = 0
        self._open_cap: tuple[tuple[Any, ...], int] | None = None

    def observe(self, events: Iterable[dict[str, Any]]) -> None:
        """Public events, in order, from the game's start (engine or `update` events)."""
        self.memory.observe(events)

    # ------------------------------------------------------------ deciding

    def choose(self, view: dict[str, Any]) -> Action | None:
        self.memory.observe_view(view)
        legal = view["legal"]
        if not legal:
            return None
        if view["phase"] == OPEN:
            return self._open(view)
        incumbent = self.hard.choose(view)
        candidates = self._candidates(view, incumbent)
        if len(candidates) == 1:  # the fast path: nothing to weigh
            return candidates[0]
        return self._search(view, candidates, 0 if incumbent else None)

    def _open(self, view: dict[str, Any]) -> Action | None:
        """R12: search once per lot for the most worth paying, then shout up to it."""
        legal = view["legal"]
        if view["high"] and view["high"]["seat"] == view["you"]:
            return None  # the high bidder waits for the hammer
        key = _lot_key(view)
        if self._open_cap is None or self._open_cap[0] != key:
            value = self.hard._limit(view)
            caps = sorted({0, *(round(value * f) for f in (0.6, 0.8, 1.0, 1.2))})
            if "bid" not in legal or legal["bid"][0] > max(caps):
                cap = 0  # the fast path: out of reach
            else:
                cands = [{"type": "cap", "amount": c} for c in caps]
                cap = self._search(view, cands, caps.index(round(value)))["amount"]
            self._open_cap = (key, cap)
        cap = self._open_cap[1]
        if "bid" in legal and legal["bid"][0] <= cap:
            return {"type": "bid", "amount": legal["bid"][0]}
        return {"type": "pass"} if "pass" in legal else None

    def _candidates(self, view: dict[str, Any], incumbent: Action | None) -> list[Action]:
        """A few actions worth comparing; the hard bot's choice first."""
        legal = view["legal"]
        out: list[Action] = [incumbent] if incumbent else []
        if "play" in legal:
            out += [{"type": "play", "card": c} for c in legal["play"]]
        if "decline" in legal:
            out += [{"type": "add", "card": c} for c in legal.get("add") or []]
            out.append({"type": "decline"})
        lot_value = self._lot_value(view) if view["lot"] else 0.0
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
        unique: list[Action] = []
        for action in out:
            if action not in unique:
                unique.append(action)
        return unique

    def _lot_value(self, view: dict[str, Any]) -> float:
        values = painting_values(view)
        return sum(values[ARTIST_OF[c]] for c in view["lot"]["cards"])

    # ------------------------------------------------------------- search

    def _search(
        self, view: dict[str, Any], candidates: list[Action], incumbent: int | None
    ) -> Action:
        """The candidate with the best average over sampled worlds (see the module doc);
        `incumbent` indexes the hard bot's own choice, if it is among them."""
        me = view["you"]
        totals = [0.0] * len(candidates)
        worlds = 0
        deadline = time.perf_counter() + self.budget_s
        self.searches += 1
        while True:
            world = sample_world(view, self.memory, self.rng, self._sealed_guess)
            seed = self.rng.randrange(1 << 30)
            outcome = []
            for action in candidates:
                if worlds and time.perf_counter() >= deadline:
                    break  # out of time mid-world: this world does not count
                outcome.append(self._playout(clone(world), me, action, seed))
                self.simulations += 1
            if len(outcome) < len(candidates):
                break
            totals = [t + o for t, o in zip(totals, outcome, strict=True)]
            worlds += 1
            if self.max_worlds is not None and worlds >= self.max_worlds:
                break
            if time.perf_counter() >= deadline:
                break
        scores = [t / worlds for t in totals]
        if incumbent is not None:
            scores[incumbent] += INCUMBENT_EDGE
        best = max(range(len(candidates)), key=scores.__getitem__)
        return candidates[best]

    def _sealed_guess(self, world: Game, seat: int) -> int:
        """A sealed bid already in (R14): what a hard bot in that seat would bid."""
        sealed = world.sealed
        world.sealed = {}
        action = self.hard.choose(world.view(seat))
        world.sealed = sealed
        return action["amount"] if action and action["type"] == "sealed" else 0

    def _playout(self, world: Game, me: int, action: Action, seed: int) -> float:
        """Apply `action` for `me`, play on with hard bots to the round's end, score it."""
        rng = random.Random(seed)
        bots: list[Any] = [HeuristicBot(seed + s) for s in range(world.n)]
        if action["type"] == "cap":
            bots[me] = _Capped(action["amount"], bots[me], _lot_key(world.view(me)))
        else:
            world.apply({**action, "seat": me})
        start = world.round
        while not world.finished and world.round == start:
            seats = world.to_act()
            rng.shuffle(seats)
            for seat in seats:
                choice = bots[seat].choose(world.view(seat))
                if choice is not None:
                    world.apply({**choice, "seat": seat})
                    break
            else:
                world.apply({"type": "close"})
        money = world.money
        rivals = [m for s, m in enumerate(money) if s != me]
        return money[me] - (sum(rivals) / len(rivals) + max(rivals)) / 2


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
