"""When a bot's shout goes out in a real-time open auction (R12): pure data and
functions; the server owns the clock and only asks how long to wait.

A bot decides *what* to do from its view at once; `shout_delay_ms` says *when*
to send it, like a person at the table: a level-dependent reaction time drawn
at random, never sooner than `MIN_REACTION_MS` after the last change (the
last bid, or the lot's opening), except that a bot that wants to bid never
lets the hammer fall on it: when the shout window would close first, it
shouts `HAMMER_MARGIN_MS` before the hammer.

The server's loop (docs/bots.md): on each update during an open auction, for
each bot seat ask the bot for an action; if it is a bid, schedule it after
`shout_delay_ms(level, since_change_ms, deadline_ms, rng)`; re-ask when the
update that arrives first changes the auction (a newer bid makes the old plan
stale). Turn-based decisions keep the room's `bot_delay_ms`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

MIN_REACTION_MS = 300  # no bot answers a change faster than a quick human
HAMMER_MARGIN_MS = 150  # how long before the hammer a bot that wants to bid shouts


@dataclass(frozen=True)
class Reaction:
    """A reaction time drawn uniformly from [low_ms, high_ms]."""

    low_ms: int
    high_ms: int


# Weaker levels are slower and more erratic; the expert is quick but human.
REACTIONS: dict[str, Reaction] = {
    "random": Reaction(300, 2500),
    "easy": Reaction(900, 2200),
    "normal": Reaction(650, 1500),
    "hard": Reaction(450, 1000),
    "heuristic": Reaction(450, 1000),
    "expert": Reaction(350, 800),
}


def shout_delay_ms(
    level: str,
    since_change_ms: float,
    deadline_ms: float | None,
    rng: random.Random,
) -> int:
    """Milliseconds from now until a bot of `level` sends the bid it has decided on.

    `since_change_ms`: how long ago the auction last changed; `deadline_ms`: how
    long until the hammer falls (None: no clock runs). Never below 0.
    """
    reaction = REACTIONS.get(level, REACTIONS["hard"])
    wanted = max(MIN_REACTION_MS, rng.uniform(reaction.low_ms, reaction.high_ms))
    delay = wanted - since_change_ms
    if deadline_ms is not None:
        delay = min(delay, deadline_ms - HAMMER_MARGIN_MS)
    return max(0, round(delay))
