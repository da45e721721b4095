"""Serengeti bots: functions from a player's view to an action. They see no hidden state.

Levels, weakest first: random (tests), easy, normal, hard (`heuristic` is its
old name), expert (the shared search, engine/serengeti/worlds.py):
- hard: values a lot by the points it adds, the tribes it grows and the digits
  it would bar; spreads its chips over the game; bids the amount whose last
  digit pays its rivals, above all the leader, least.
- normal: values lots as hard does but pays anyone as readily (the lowest
  legal bid) and spends less freely.
- easy: counts only the points a lot adds now, nothing for digits it bars,
  hoards its chips and bids the lowest legal amount.
"""

from __future__ import annotations

from typing import Any

from ..bots import LegalBot, bot_levels
from ..search import expert_factory
from .cards import AUCTIONS, DIGIT_OF, FULL_DECK, TRIBE_OF, TRIBES, tribe_points

Action = dict[str, Any]

# The random bot bids one of the legal amounts at most this far above the lowest.
RANDOM_SPREAD = 5


class RandomBot(LegalBot):
    """Uniform over the legal action types; a bid is one of the lowest few legal amounts."""

    level = "random"

    def decide(self, view: dict[str, Any], legal: dict[str, Any]) -> Action | None:
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


class HeuristicBot(LegalBot):
    """Values a lot by the points it adds and the digits it would bar, buys when the price
    is below that value, and picks the bid whose last digit pays its rivals least."""

    level = "hard"

    # How freely chips are spent (tuned with scripts/selfplay.py --game serengeti: 1.5
    # against random bots; 5 against the other levels, issue 20, docs/decisions/bots.md).
    SPEND = 5.0
    # Points lost per newly barred digit: fewer legal bids from now on (S7).
    BAR_COST = 0.6
    # What a chip handed to the points leader / to another rival costs this bot.
    LEADER_WEIGHT = 0.8
    RIVAL_WEIGHT = 0.3

    def decide(self, view: dict[str, Any], legal: dict[str, Any]) -> Action | None:
        amounts = self.affordable(view, legal)
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

    def affordable(self, view: dict[str, Any], legal: dict[str, Any]) -> list[int]:
        """The legal bids within this bot's `limit`, in `legal`'s order."""
        limit = self.limit(view)
        return [a for a in legal.get("bid", []) if a <= limit]

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


class NormalBot(HeuristicBot):
    """Values well, but pays whoever a price pays and spends too little (see the doc)."""

    level = "normal"
    SPEND = 2.0
    LEADER_WEIGHT = 0.0
    RIVAL_WEIGHT = 0.0

    def decide(self, view: dict[str, Any], legal: dict[str, Any]) -> Action | None:
        amounts = self.affordable(view, legal)
        return {"type": "bid", "amount": amounts[0]} if amounts else {"type": "pass"}


class EasyBot(NormalBot):
    """Counts only the points a lot adds now and hoards its chips (see the module doc)."""

    level = "easy"
    SPEND = 0.7

    def value(self, view: dict[str, Any]) -> float:
        me = view["seats"][view["you"]]
        return lot_points(me["owned"], view["lot"])


BOTS = bot_levels(
    random=RandomBot,
    easy=EasyBot,
    normal=NormalBot,
    hard=HeuristicBot,
    expert=expert_factory("serengeti"),
)
DEFAULT_LEVEL = "hard"
BOT_HELP: dict[str, str] = {
    "random": "Passes or bids one of the lowest legal amounts at random (for tests).",
    "easy": "Counts only the points a lot adds now; hoards chips; bids the lowest it may.",
    "normal": "Values lots well, but pays any rival as readily and spends too little.",
    "hard": "Values a lot by its points and barred digits; bids to pay rivals least.",
    "expert": "Searches: samples the hidden chips and deck, plays each bid ahead.",
    "heuristic": "Another name for hard.",
}
