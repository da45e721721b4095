"""Ratings per game with openskill's Plackett–Luce model (Weng–Lin): made for
multiplayer results, and a well-kept library, so no rating arithmetic of our own.

Who is rated (docs/decisions/ratings.md; the rules against farming and dodging,
issue 33, are server/people/ratingrules.py's): each bot level of each game is one rated
player (`bot_key`), but the weakest levels, which are nobody's opponent. Every
counted seat is rated against the opponents the rules let it meet, and only when a
human is among them; abandoned games rate their humans as the rules place them.
A rating is shown as one integer: 1500 + 60 × (μ − 3σ), openskill's conservative
"ordinal" on a 1500 base, so a newcomer shows 1500 and the list is ordered by
what it shows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

from modernart.server.store.players import Rating

MODEL = PlackettLuce()
BASE, SCALE = 1500, 60


def bot_key(level: str) -> str:
    """A bot level's player key in a game's ratings (levels come from GameInfo.bots)."""
    return f"bot:{level}"


def shown(mu: float, sigma: float) -> int:
    return round(BASE + SCALE * (mu - 3 * sigma))


def fresh(player: str, name: str) -> Rating:
    start = MODEL.rating()
    return Rating(player, name, start.mu, start.sigma, 0)


@dataclass
class Entry:
    """One seat at a game's end, for the rating update."""

    player: str
    name: str
    place: int  # 1 = won; equal places tie
    human: bool
    counted: bool  # rated at all: a human, or a bot of a rated level
    established: bool = False  # not provisional (server/people/ratingrules.py); bots always


@dataclass
class Change:
    before: Rating
    after: Rating
    rivals: set[str] = field(default_factory=set)  # the opponents it was rated against


def rate(
    entries: list[Entry], current: dict[str, Rating], meets: Callable[[Entry, Entry], bool]
) -> dict[str, Change]:
    """The counted entries' ratings before and after the game, each from the ratings
    before it, against the counted opponents `meets` lets it meet (never itself), and
    only when a human is among them. A player on several seats (two bots of one
    level) is rated per seat; the new rating is the mean."""
    counted = [e for e in entries if e.counted]
    before = {e.player: current.get(e.player) or fresh(e.player, e.name) for e in counted}
    seats: dict[str, list[tuple[float, float]]] = {}
    rivals: dict[str, set[str]] = {}
    for e in counted:
        table = [e, *(o for o in counted if o.player != e.player and meets(e, o))]
        if len(table) < 2 or not any(x.human for x in table):
            continue
        teams = [
            [MODEL.rating(mu=before[x.player].mu, sigma=before[x.player].sigma)] for x in table
        ]
        new = MODEL.rate(teams, ranks=[x.place for x in table])
        seats.setdefault(e.player, []).append((new[0][0].mu, new[0][0].sigma))
        rivals.setdefault(e.player, set()).update(x.player for x in table[1:])
    out: dict[str, Change] = {}
    for player, got in seats.items():
        old = before[player]
        mu = sum(m for m, _ in got) / len(got)
        sigma = sum(s for _, s in got) / len(got)
        name = next(e.name for e in counted if e.player == player)
        after = Rating(player, name, mu, sigma, old.games + 1, old.established)
        out[player] = Change(old, after, rivals[player])
    return out


def places(scores: list[int] | None, winners: list[int], n: int) -> list[int]:
    """Each seat's place: the winners (the game's own tie-breaks) first, the others by
    score, equal scores sharing a place; without scores everyone else is second."""
    out = []
    for seat in range(n):
        if seat in winners:
            out.append(1)
        elif scores is None:
            out.append(2)
        else:
            better = {s for s in range(n) if s not in winners and scores[s] > scores[seat]}
            out.append(1 + len(winners) + len(better))
    return out
