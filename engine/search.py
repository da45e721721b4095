"""Determinized search, written once for every game: the `expert` bot of each game.

A game that offers a `Searcher` (`GameInfo.search`) gets an expert. The one
function it must give is `sample(view, seen, rng)`: a whole state whose
`view(you)` equals the player's view, its hidden part (other hands, the
deck's order, sealed bids, money the view hides) drawn from what the view and
the events seen allow — OpenSpiel's `resample_from_infostate`. What a player
has seen is kept by the game's `seen()` object (`observe(events)`,
`observe_view(view)`); by default it keeps nothing.

For a decision the bot lists a few candidate actions (the game's
`candidates`, by default the playout policy's own choice and the legal
actions that carry no more than one listed value), then for each sampled
world plays every candidate out with the game's `hard` bots in every seat
up to the game's horizon (the end by default, Modern Art's round's end) and
scores the result for itself (`evaluate`). Every candidate meets the same
worlds and the same random draws, so differences are not luck of the draw.
The candidate with the best mean wins; the policy's own choice gets a small
`edge` so that noise with few worlds does not overturn a sound move.

The budget is a count of worlds (`max_worlds`, by default the game's
`Searcher.worlds`: the same strength whatever the load) and a time cap
(`budget_s`, read on `clock`): the search stops after
`worlds` worlds or once the clock passes the cap, and a world cut short does
not count (at least one world always does). A candidate may be a *plan*
instead of an action: an object with `choose(view)` that plays the bot's own
seat through the playout (Modern Art's price caps in an open auction).
"""

from __future__ import annotations

import copy
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from .games import Action, Bot, Event, GameState, get_game
from .selfplay import bot_move

View = dict[str, Any]

DEFAULT_WORLDS = 4  # a game's worlds a search unless its Searcher says otherwise
GAME = "game"  # SearchBot(max_worlds=GAME): the game's own `Searcher.worlds`
DEFAULT_BUDGET_S = 1.0


class Seen(Protocol):
    """What one player has seen: public events in order and its own views."""

    def observe(self, events: Iterable[Event]) -> None: ...

    def observe_view(self, view: View) -> None: ...


class NothingSeen:
    """Keeps nothing: a sampler then reads the view alone."""

    def observe(self, events: Iterable[Event]) -> None:
        pass

    def observe_view(self, view: View) -> None:
        pass


def simple_candidates(view: View, incumbent: Action | None, fields: dict[str, tuple[str, ...]]):
    """The policy's choice, then every legal action with no field (`pass`) or one field
    whose legal bound is a list of plain values (a card, an amount from a list)."""
    out: list[Action] = [incumbent] if incumbent else []
    for kind, bound in view["legal"].items():
        names = fields.get(kind, ())
        if not names:
            out.append({"type": kind})
        elif len(names) == 1 and isinstance(bound, list):
            out += [{"type": kind, names[0]: v} for v in bound if not isinstance(v, dict | list)]
    return unique(out)


def unique(actions: Iterable[Any]) -> list[Any]:
    """Actions in order, each once."""
    out: list[Any] = []
    for action in actions:
        if action not in out:
            out.append(action)
    return out


def win_share(state: GameState, seat: int) -> float:
    """1 for a win, a share of it when tied, else 0."""
    return 1 / len(state.winners) if seat in state.winners else 0.0


def margin(points: Sequence[float], seat: int) -> float:
    """`seat`'s points less its rivals' (the mean of their average and their best)."""
    rivals = [p for s, p in enumerate(points) if s != seat]
    return points[seat] - (sum(rivals) / len(rivals) + max(rivals)) / 2


def margin_won(points: Sequence[float], seat: int, winners: Sequence[int]) -> float:
    """`margin`, and a win among `winners` worth 5 points (shared by tied winners)."""
    won = 5 / len(winners) if seat in winners else 0.0
    return margin(points, seat) + won


@dataclass(frozen=True)
class Searcher:
    """What a game offers the search (see the module doc); only `sample` is required."""

    # sample(view, seen, rng) -> a state whose view(view["you"]) == view
    sample: Callable[[View, Any, random.Random], GameState]
    seen: Callable[[], Seen] = NothingSeen
    # candidates(view, policy's choice) -> actions or plans; None: simple_candidates
    candidates: Callable[[View, Action | None], list[Any]] | None = None
    # evaluate(state, seat) -> how good the playout's end is for `seat`
    evaluate: Callable[[GameState, int], float] = win_share
    # horizon(state) -> a key; a playout stops once the key changes or the game ends
    horizon: Callable[[GameState], object] = lambda state: None
    copy: Callable[[GameState], GameState] = copy.deepcopy
    policy: str = "hard"  # the level every seat plays in a playout
    worlds: int = DEFAULT_WORLDS  # worlds a search by default (docs/benchmarks.md's curve)
    edge: float = 0.0  # what another candidate must beat the policy's choice by


class SearchBot:
    """A game's `expert`: determinized search over its `Searcher` (module doc).
    `simulations` counts the playouts run, `worlds_used` the worlds per search."""

    level = "expert"

    def __init__(
        self,
        game: str,
        seed: int | None = None,
        budget_s: float = DEFAULT_BUDGET_S,
        max_worlds: int | Literal["game"] | None = GAME,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.info = get_game(game)
        searcher = self.info.search
        assert searcher is not None, f"{game} offers no search"
        self.searcher: Searcher = searcher
        self.rng = random.Random(seed)
        self.budget_s = budget_s
        self.max_worlds = searcher.worlds if max_worlds == GAME else max_worlds
        self.clock = clock
        self.seen = searcher.seen()
        self.policy: Bot = self.info.make_bot(searcher.policy, self.rng.randrange(1 << 30))
        self.simulations = 0
        self.searches = 0
        self.worlds_used: list[int] = []

    def observe(self, events: Iterable[Event]) -> None:
        """Public events, in order, from the game's start."""
        self.seen.observe(events)

    def choose(self, view: View) -> Action | None:
        self.seen.observe_view(view)
        decided, action = self.quick(view)
        if decided:
            return action
        incumbent = self.policy.choose(view)
        candidates = self.candidates(view, incumbent)
        return self.search(view, candidates, 0 if candidates[0] == incumbent else None)

    def quick(self, view: View) -> tuple[bool, Action | None]:
        """(True, the action) for a decision that needs no search — nothing to do, or a
        single candidate — else (False, None). Cheap: a server asks it on its loop
        before it hands a worker the search."""
        if not view["legal"]:
            return True, None
        incumbent = self.policy.choose(view)
        candidates = self.candidates(view, incumbent)
        if len(candidates) <= 1:  # nothing to weigh
            return True, candidates[0] if candidates else incumbent
        return False, None

    def candidates(self, view: View, incumbent: Action | None) -> list[Any]:
        make = self.searcher.candidates
        if make is None:
            return simple_candidates(view, incumbent, dict(self.info.actions))
        return make(view, incumbent)

    def search(self, view: View, candidates: list[Any], incumbent: int | None) -> Any:
        """The candidate with the best mean over sampled worlds; `incumbent` indexes
        the policy's own choice, if it is among them."""
        me = view["you"]
        searcher = self.searcher
        totals = [0.0] * len(candidates)
        worlds = 0
        deadline = self.clock() + self.budget_s
        self.searches += 1
        while True:
            world = searcher.sample(view, self.seen, self.rng)
            seed = self.rng.randrange(1 << 30)
            outcome = []
            for candidate in candidates:
                if worlds and self.clock() >= deadline:
                    break  # out of time mid-world: this world does not count
                outcome.append(self.playout(searcher.copy(world), me, candidate, seed))
                self.simulations += 1
            if len(outcome) < len(candidates):
                break
            totals = [t + o for t, o in zip(totals, outcome, strict=True)]
            worlds += 1
            if self.max_worlds is not None and worlds >= self.max_worlds:
                break
            if self.clock() >= deadline:
                break
        self.worlds_used.append(worlds)
        scores = [t / worlds for t in totals]
        if incumbent is not None:
            scores[incumbent] += searcher.edge
        return candidates[max(range(len(candidates)), key=scores.__getitem__)]

    def playout(self, world: GameState, me: int, candidate: Any, seed: int) -> float:
        """Play `candidate` for `me`, then every seat as the policy up to the horizon."""
        searcher = self.searcher
        rng = random.Random(seed)
        bots: list[Any] = [self.info.make_bot(searcher.policy, seed + s) for s in range(world.n)]
        if isinstance(candidate, dict):
            world.apply({**candidate, "seat": me})
        else:
            bots[me] = candidate.bind(bots[me]) if hasattr(candidate, "bind") else candidate
        horizon = searcher.horizon
        start = horizon(world)
        hammer = self.info.hammer
        while not world.finished and horizon(world) == start:
            if bot_move(world, bots, rng) is None:
                if hammer is None:
                    break  # nobody acts and no clock to end the wait
                world.apply(dict(hammer))
        return searcher.evaluate(world, me)


def expert_factory(game: str) -> Callable[[int | None], SearchBot]:
    """`GameInfo.bots`' entry for a game's expert: a factory of a seed."""

    def make(seed: int | None = None) -> SearchBot:
        return SearchBot(game, seed)

    return make
