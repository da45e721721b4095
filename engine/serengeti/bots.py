"""Serengeti bots: functions from a player's view to an action. They see no hidden state."""

from __future__ import annotations

import random
from typing import Any

from .cards import AUCTIONS, DIGIT_OF, FULL_DECK, TRIBE_OF, TRIBES, tribe_points

Action = dict[str, Any]

# The random bot bids one of the legal amounts at most this far above the lowest.
RANDOM_SPREAD = 5


class RandomBot:
    """Uniform over the legal action types; a bid is one of the lowest few legal amounts."""

    level = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any]) -> Action | None:
        legal = view["legal"]
        if not legal:
            return None
        if "bid" in legal and self.rng.random() < 0.5:
            amounts = legal["bid"]
            near = [a for a in amounts if a <= amounts[0] + RANDOM_SPREAD]
            return {"type": "bid", "amount": near[int(self.rng.random() * len(near))]}
        return {"type": "pass"}


def lot_points(owned: list[str], lot: list[str]) -> int:
    """S15: the tribe points `lot` would add to a collection `owned`."""
    counts = dict.fromkeys(TRIBES, 0)
    for card in owned:
        counts[TRIBE_OF[card]] += 1
    gain = 0
    for card in lot:
        tribe = TRIBE_OF[card]
        gain += tribe_points(counts[tribe] + 1) - tribe_points(counts[tribe])
        counts[tribe] += 1
    return gain


class HeuristicBot:
    """Values a lot by the points it adds and the digits it would bar, buys when the price
    is below that value, and picks the bid whose last digit pays its rivals least."""

    level = "heuristic"

    # How freely chips are spent (tuned with scripts/selfplay.py --game serengeti).
    SPEND = 1.5
    # Points lost per newly barred digit: fewer legal bids from now on (S7).
    BAR_COST = 0.6
    # What a chip handed to the points leader / to another rival costs this bot.
    LEADER_WEIGHT = 0.8
    RIVAL_WEIGHT = 0.3

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any]) -> Action | None:
        legal = view["legal"]
        if not legal:
            return None
        amounts = [a for a in legal.get("bid", []) if a <= self.limit(view)]
        if not amounts:
            return {"type": "pass"}
        return {"type": "bid", "amount": min(amounts[:6], key=lambda a: self._cost(view, a))}

    def value(self, view: dict[str, Any]) -> float:
        """A lot's worth in points to the view's player: tribe points added, a little for
        the tribes it grows (more of them may come), less what the new digits bar."""
        me = view["seats"][view["you"]]
        owned, lot = me["owned"], view["lot"]
        gain = lot_points(owned, lot)
        unseen = _unseen(view)
        growth = 0.0
        for tribe in {TRIBE_OF[c] for c in lot}:
            mine = sum(1 for c in owned + lot if TRIBE_OF[c] == tribe)
            left = sum(1 for c in unseen if TRIBE_OF[c] == tribe)
            growth += 0.15 * mine * left
        barred = set(me["barred"])
        new_digits = {DIGIT_OF[c] for c in lot} - barred
        bar = self.BAR_COST * len(new_digits) * (1 + len(barred) / 5)
        late = view["auction"] / AUCTIONS
        return gain + growth * (1 - late) - bar

    def limit(self, view: dict[str, Any]) -> int:
        """The most this bot pays. Chips score nothing but S16's bonus, so they are worth
        spending: a point is priced at the chips held per card this player may still expect
        (the cards left over the players), so the purse is spread over the rest of the game."""
        left = view["deck_left"] + len(view["lot"])
        rate = self.SPEND * view["chips"] / max(1.0, left / len(view["seats"]))
        return int(self.value(view) * rate)

    def _cost(self, view: dict[str, Any], amount: int) -> float:
        """The price plus what it hands to rivals (S11, S19): chips going to the points
        leader count most, chips spread over everyone or into the bank least."""
        you, seats = view["you"], view["seats"]
        paid = view["payout_preview"][amount % 10]
        share = amount // len(paid)
        leader = max(seats[s]["points"] for s in range(len(seats)) if s != you)
        weight = sum(
            self.LEADER_WEIGHT if seats[s]["points"] == leader else self.RIVAL_WEIGHT for s in paid
        )
        return amount + share * weight


def _unseen(view: dict[str, Any]) -> list[str]:
    """Cards not yet turned up: the whole deck less everything owned or on the block."""
    seen = set(view["lot"])
    for seat in view["seats"]:
        seen.update(seat["owned"])
    return [c for c in FULL_DECK if c not in seen]


BOTS: dict[str, type] = {"random": RandomBot, "heuristic": HeuristicBot}
DEFAULT_LEVEL = "heuristic"
