"""The `easy` and `normal` Modern Art bots: the `hard` bot with human-like flaws.

- easy: misjudges values and overpays. It prices a painting by what it would
  sell for if the round ended now (the view's `values`, R21–R23), ignoring how
  the round will go on, bids up to 95 % of that whoever sells, names high
  fixed prices and plays its favourite artist (the one it holds most).
- normal: values paintings well (the hard bot's projection) but plays its hand
  naively: always the artist worth most now, a double alone, with no thought
  for who ends the round (R18), and it pays a rival as readily as the bank.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..cards import ARTIST_OF, ARTISTS, TOKENS, TYPE_OF
from .heuristic import HeuristicBot, painting_values


class NormalBot(HeuristicBot):
    level = "normal"
    price_share = 0.7

    def _limit(self, view: dict[str, Any]) -> int:
        """Values well, but ignores that money paid to a rival helps the rival."""
        return int(self._lot_value(view) * 0.8)

    def _card_to_play(self, view: dict[str, Any], cards: list[str]) -> str:
        """The artist worth most now; within it, the first card of the hand."""
        values = painting_values(view)
        return max(cards, key=lambda c: (values[ARTIST_OF[c]], -cards.index(c)))

    def _offer(self, view: dict[str, Any], legal: dict[str, Any]) -> dict[str, Any]:
        """Adds to its own double when it can, never to another's."""
        cards = legal.get("add") or []
        if cards and view["lot"]["seller"] == view["you"]:
            return {"type": "add", "card": cards[0]}
        return {"type": "decline"}


class EasyBot(NormalBot):
    level = "easy"
    price_share = 0.8
    sealed_share = 0.6
    once_share = 0.95

    def _values(self, view: dict[str, Any]) -> dict[str, float]:
        """What a painting would sell for if the round ended now, plus a hopeful guess
        for an artist not yet ranked: the round's future is not considered."""
        values = dict(view["values"])
        for artist in ARTISTS:
            if not values[artist]:
                values[artist] = sum(view["tokens"][artist]) + TOKENS[-1]
        return values

    def _limit(self, view: dict[str, Any]) -> int:
        """Nearly all of that misjudged value, whoever sells."""
        return int(self._lot_value(view) * 0.95)

    def _card_to_play(self, view: dict[str, Any], cards: list[str]) -> str:
        """Its favourite artist: the one it holds most of; doubles first, for the show."""
        held = Counter(ARTIST_OF[c] for c in view["hand"])
        return max(cards, key=lambda c: (held[ARTIST_OF[c]], TYPE_OF[c] == "double"))
