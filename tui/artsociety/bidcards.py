"""Your bid cards at the Art Society table (A5, A8, A10): the cursor in the row, Home and
End, and the question before a card that may be a slip.

A card played is gone for the game (A10), so Enter on a card far from the one you chose
last asks first, but only when you did not choose that card: the cursor starts each
bid on your lowest card, and an Enter pressed out of habit there is the slip worth a
question. A card you moved to (arrows, Home, End) is bid at once
(docs/decisions/28-artsoc.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..confirm import Confirm

# A bid card this far from the one chosen last asks "Bid 2?" first (unless moved to).
FAR_BID = 8


class BidCards:
    """The bid-card row's keys, mixed into `ArtSocietyTable`."""

    view: dict[str, Any]
    pointer: int
    moved_bid: bool  # the cursor moved in this bid decision: the card is chosen on purpose

    if TYPE_CHECKING:  # the table's own, for the type checker
        legal: dict[str, Any]
        app: Any

        def act(self, action: dict[str, Any]) -> bool: ...
        def _draw_panel(self) -> None: ...
        def _draw_you(self) -> None: ...

    def move_bid(self, where: int, cards: list[int]) -> None:
        """The cursor to card index `where`, round from one end to the other as in every
        list (play-tests 2026-12-03 evening #9). A card reached by going round is not
        chosen on purpose: Enter on it asks first when it is far (`far_bid`)."""
        self.moved_bid = 0 <= where < len(cards)
        self.pointer = where % len(cards)
        self._draw_panel()
        self._draw_you()

    def action_jump(self, end: int) -> None:
        """Home (`end` 0) or End (1): the lowest or the highest card, the first or the last
        painting of the lot, or of the shapes."""
        legal = self.legal
        shapes = list((legal.get("shapes") or {}).get("piles") or [])
        for items in (legal.get("bid"), legal.get("pick"), shapes):
            if items:
                if items is legal.get("bid"):
                    self.move_bid(end * (len(items) - 1), items)
                    self.moved_bid = True
                    return
                self.pointer = end * (len(items) - 1)
                self._draw_panel()
                return
        self.app.bell()

    def far_bid(self, card: int) -> int | None:
        """The card you chose last (your stack's top; before your first bid, your lowest
        card) when `card` is far from it and not chosen by a move: worth a question."""
        if self.moved_bid:
            return None
        stack = self.view.get("stack") or []
        hand = self.view.get("hand") or [card]
        last = stack[-1] if len(stack) > 1 else min(hand)
        return last if abs(card - last) >= FAR_BID else None

    def confirm_bid(self, card: int) -> None:
        """Enter on a bid card: sent, or asked first (`far_bid`)."""
        last = self.far_bid(card)
        if last is None:
            self.act({"type": "bid", "card": card})
            return

        def answer(yes: bool | None) -> None:
            if yes and "bid" in self.legal and card in self.legal["bid"]:
                self.act({"type": "bid", "card": card})

        chose = len(self.view.get("stack") or []) > 1
        which = "the card you chose last" if chose else "your lowest card"
        detail = f"It is far from {last}, {which}; a card played is gone for the game."
        self.app.push_screen(Confirm(f"Bid {card}?", detail, low=True), answer)
