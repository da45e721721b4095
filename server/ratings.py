"""Ratings per game with openskill's Plackett–Luce model (Weng–Lin): made for
multiplayer results, and a well-kept library, so no rating arithmetic of our own.

Who is rated (docs/decisions.md, issue 18): every seat of a finished game with at
least one counted human. Each bot level of each game is one rated player
(`bot_key`), so the bot ladder gets a measured rating and a player who only plays
bots gets one too. A human does not count (is left out of the update) when a
stand-in played most of that human's turns; abandoned games count for nobody.
A rating is shown as one integer: 1500 + 60 × (μ − 3σ), openskill's conservative
"ordinal" on a 1500 base, so a newcomer shows 1500 and the list is ordered by
what it shows.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

from .playerstore import Rating

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
    counted: bool  # a human who played most of their own turns (bots: always)


def rate(entries: list[Entry], current: dict[str, Rating]) -> dict[str, tuple[Rating, Rating]]:
    """The counted entries' ratings before and after the game: player -> (before, after).
    Nothing when no counted human sat at the table. A player on several seats (two bots
    of one level) is rated per seat from the same rating; the new one is the mean."""
    counted = [e for e in entries if e.counted]
    if not any(e.human for e in counted):
        return {}
    before = {e.player: current.get(e.player) or fresh(e.player, e.name) for e in counted}
    teams = [[MODEL.rating(mu=before[e.player].mu, sigma=before[e.player].sigma)] for e in counted]
    new = MODEL.rate(teams, ranks=[e.place for e in counted])
    seats: dict[str, list[tuple[float, float]]] = {}
    for e, team in zip(counted, new, strict=True):
        seats.setdefault(e.player, []).append((team[0].mu, team[0].sigma))
    out: dict[str, tuple[Rating, Rating]] = {}
    for e in counted:
        if e.player in out:
            continue
        old, got = before[e.player], seats[e.player]
        mu = sum(m for m, _ in got) / len(got)
        sigma = sum(s for _, s in got) / len(got)
        out[e.player] = (old, Rating(e.player, e.name, mu, sigma, old.games + 1))
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
