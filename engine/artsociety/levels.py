"""The `easy` and `normal` Art Society bots: the `hard` bot (bots.py) with human flaws.

- normal: bids without judging the lot, always the middle card of its hand,
  and half of its placement decisions are any legal move (a player who has
  not yet seen how frames and genres add up).
- easy: bids its lowest card, takes the lot's first painting, and most of its
  placement decisions are any legal move.

(Tuned by self-play, docs/benchmarks.md "The ladder": each level wins at least 40 % of
four-player games against three of the level below.)
"""

from __future__ import annotations

from typing import Any

from .bots import HeuristicBot, choose_from_legal
from .state import PLACE

Action = dict[str, Any]


class NormalBot(HeuristicBot):
    level = "normal"
    erratic = 0.5  # the share of placement decisions made at random

    def choose(self, view: dict[str, Any]) -> Action | None:
        legal = view["legal"]
        if "place" in legal and view["phase"] == PLACE and self.rng.random() < self.erratic:
            return choose_from_legal(legal, self.rng)
        return super().choose(view)

    def _bid(self, view: dict[str, Any], hand: list[int]) -> Action:
        cards = sorted(hand)
        return {"type": "bid", "card": cards[len(cards) // 2]}


class EasyBot(NormalBot):
    level = "easy"
    erratic = 0.7

    def choose(self, view: dict[str, Any]) -> Action | None:
        legal = view["legal"]
        if "pick" in legal:
            return {"type": "pick", "painting": legal["pick"][0]}
        return super().choose(view)

    def _bid(self, view: dict[str, Any], hand: list[int]) -> Action:
        return {"type": "bid", "card": min(hand)}
