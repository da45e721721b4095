"""Rules that keep ratings from being farmed or dodged (issue 33), beside the
arithmetic of server/people/ratings.py. docs/decisions/33-ratings.md says why each holds;
in short, as lichess and BGA do:

- leaving is losing: a human who left a game the others finished (or whose seat a
  stand-in played most of) is placed last; in an abandoned game every human is
  placed below the bots, the first to go lowest;
- the weakest bots (`random`, `easy`) are nobody's opponent and are not rated, so
  a game against them alone is unrated;
- two humans count against each other in at most `PAIR_GAMES` rated games a day;
- a rating is provisional until `ESTABLISHED_GAMES` rated games against
  `ESTABLISHED_OPPONENTS` distinct opponents: shown with "?", off the leaderboard;
- only established opponents move a rating (every rated bot level is one): fresh
  accounts feed nobody, so a newcomer is rated against bots and established players.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

UNRATED_LEVELS = frozenset({"random", "easy"})
PAIR_GAMES = 3  # rated games two humans count against each other …
PAIR_WINDOW_S = 24 * 3600.0  # … within this many seconds
ESTABLISHED_GAMES = 10
ESTABLISHED_OPPONENTS = 3


def rated_level(level: str | None) -> bool:
    """Whether a bot of this level is an opponent (and rated) at all."""
    return level not in UNRATED_LEVELS


def forfeited(seat: Any) -> bool:
    """A human seat of a finished game whose player gave it up: not at the table at
    the end after leaving on purpose or after a stand-in (the autopilot, the turn
    clock) moved for them, or a stand-in made most of the seat's moves."""
    if seat.identity is None:
        return False
    gone = seat.conn is None and (seat.left or seat.standin_turns > 0)
    return gone or seat.standin_turns > seat.own_turns


def forfeit_places(places: list[int], forfeits: list[bool]) -> list[int]:
    """The game's places with every seat that forfeited moved below all others (tied
    among themselves); the others keep their order, ranked among themselves."""
    kept = [p for p, f in zip(places, forfeits, strict=True) if not f]
    return [
        1 + len(kept) if f else 1 + sum(1 for other in kept if other < p)
        for p, f in zip(places, forfeits, strict=True)
    ]


def abandoned_places(humans: list[bool], went: dict[int, float]) -> list[int]:
    """An abandoned game's places: every bot first, then the humans by when they went
    (the last to go best; unknown: at the same time)."""
    out = []
    for seat, human in enumerate(humans):
        if not human:
            out.append(1)
            continue
        mine = went.get(seat, 0.0)
        later = {went.get(s, 0.0) for s, h in enumerate(humans) if h and went.get(s, 0.0) > mine}
        out.append(2 + len(later))
    return out


def established(games: int, opponents: int) -> bool:
    return games >= ESTABLISHED_GAMES and opponents >= ESTABLISHED_OPPONENTS


def unrated_reason(entries: list[Any], together: Callable[[str, str], int]) -> str:
    """Why a finished game rated nobody (`rated.unrated`, docs/protocol.md): `weak_bots`
    when no one counted was left to meet (only `random`/`easy` bots beside the one
    human), `pair_limit` when two of its humans had played their `PAIR_GAMES` rated
    games together (`together(a, b)`: within the window), else `provisional`: the
    humans were all new, and a provisional rating moves nobody's."""
    counted = [e for e in entries if e.counted]
    if len(counted) < 2:
        return "weak_bots"
    humans = [e for e in counted if e.human]
    # An established rival is the only one `meets` counted games with: `together` is its
    # cache, holding the count from before this game (server/people/players.py).
    rivals = [(a.player, b.player) for a in humans for b in humans if b.established and a is not b]
    if any(together(a, b) >= PAIR_GAMES for a, b in rivals):
        return "pair_limit"
    return "provisional"
