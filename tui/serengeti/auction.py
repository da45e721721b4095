"""The auction box: the lot, the high bid and whose turn, the turn clock, the payout
preview (payout.py) and the bid entry, which offers only legal amounts (S6–S10)."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Input

from modernart.engine.serengeti.cards import AUCTIONS

from ..amount import AmountInput
from ..borders import titled
from ..lines import LinePanel
from ..presence import host_line
from ..turnclock import TurnClock
from .payout import legend, payout_lines
from .words import cards_text, lot_gain, payout_words, ranges, refusal

ASK_LABEL = Text("Your bid ", style="bold")  # beside the entry while it asks


class BidInput(AmountInput):
    """The bid: digits typed, or ↑/↓ stepping through the legal amounts only."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.amounts: list[int] = []

    def action_step(self, step: int) -> None:
        if not self.amounts:
            self.app.bell()
            return
        current = self.amount
        if current is None:
            pick = self.amounts[0] if step > 0 else self.amounts[-1]
        elif step > 0:
            pick = next((a for a in self.amounts if a > current), self.amounts[-1])
        else:
            pick = next((a for a in reversed(self.amounts) if a < current), self.amounts[0])
        self.value = str(pick)
        self.select_all()  # typing replaces a stepped amount


class AuctionBox(Vertical):
    """The lot, the high bid and whose turn, the turn clock, the payout preview, the bid."""

    DEFAULT_CSS = """
    AuctionBox { height: auto; border: round ansi_yellow; padding: 0 1;
                 border-title-color: ansi_bright_white; }
    AuctionBox #sg-lot-line { height: auto; }
    AuctionBox #sg-lot { width: 1fr; }
    AuctionBox #sg-clock { width: auto; }
    AuctionBox #sg-entry { height: 1; }
    AuctionBox #sg-entry-label { width: 9; }
    AuctionBox #bid { width: 6; background: ansi_blue; color: ansi_bright_white; }
    AuctionBox #bid:focus { background: ansi_bright_blue; }
    AuctionBox #sg-note { width: 1fr; height: 1; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.view: dict[str, Any] = {}
        self._grid_key = ""

    def compose(self) -> ComposeResult:
        with Horizontal(id="sg-lot-line"):
            yield LinePanel(id="sg-lot")
            yield TurnClock("you pass", id="sg-clock")
        yield LinePanel(id="sg-turn")
        yield LinePanel(id="sg-grid")
        with Horizontal(id="sg-entry"):
            yield LinePanel(ASK_LABEL, id="sg-entry-label")
            yield BidInput(id="bid")
            yield LinePanel(id="sg-note")

    @property
    def entry(self) -> BidInput:
        return self.query_one(BidInput)

    def show(self, view: dict[str, Any]) -> None:
        previous, self.view = self.view, view
        names = [s.get("name", "?") for s in view.get("seats") or []]
        you = view.get("you")
        running = view.get("status", "playing") == "playing" and not view.get("finished")
        title = (
            f"Auction {view.get('auction')} of {view.get('auctions', AUCTIONS)}"
            if running
            else "Auction"
        )
        left = f"{view.get('deck_left', 0)} cards left"
        shared = legend(view) if running and view.get("payout_preview") else ""
        subtitle = " · ".join(filter(None, (shared, left))) if running else ""
        titled(self, title, subtitle)
        lot = Text()
        if running:
            lot.append("Lot: ", style="bold")
            lot.append_text(cards_text(view.get("lot") or []))
            gain = lot_gain(view, you)
            if you is not None:
                lot.append(f"  (+{gain} pts if you win it)", style="dim")
        elif view.get("finished"):
            winners = [names[w] for w in view.get("winners") or [] if w < len(names)]
            lot.append(f"Game over: {' and '.join(winners)} won.", style="bold")
            lot.append(" e shows the scoring again.", style="dim")
        elif view.get("host") is not None and view.get("host") == you:
            lot.append(host_line(view), style="bold")
        else:
            host = view.get("host")
            who = (
                f"{names[host]} (the host)"
                if host is not None and host < len(names)
                else "the host"
            )
            lot.append(f"Waiting for {who} to start the game.", style="dim")
        self.query_one("#sg-lot", LinePanel).set_lines(lot)
        turn = self._turn_line(view, names) if running else ""
        self.query_one("#sg-turn", LinePanel).set_lines(turn)
        self.query_one(TurnClock).show(view)
        grid = self.query_one("#sg-grid", LinePanel)
        grid.display = running and bool(view.get("payout_preview"))
        if grid.display:
            width = self.content_size.width or 76
            key = repr((width, you, view.get("payout_preview"), view.get("seats")))
            if key != self._grid_key:  # it changes with a sale, not with a bid
                self._grid_key = key
                grid.set_lines(payout_lines(view, width))
        amounts = list((view.get("legal") or {}).get("bid") or [])
        entry = self.entry
        entry.amounts = amounts
        yours = "pass" in (view.get("legal") or {})
        self._entry_asks(yours)
        if yours:
            # A new decision (or an amount no longer legal) starts from the lowest legal bid,
            # selected, so that typing replaces it.
            new = (previous.get("auction"), previous.get("high"), previous.get("legal")) != (
                view.get("auction"),
                view.get("high"),
                view.get("legal"),
            )
            if new or entry.amount not in amounts:
                entry.value = str(amounts[0]) if amounts else ""
                entry.select_all()
            self.check_amount()

    def _entry_asks(self, asks: bool) -> None:
        """The entry's row is always there (a row shown or hidden lays the whole screen out
        again, issue 31): when it is not your turn it is blank and takes no focus
        (`AmountInput.ask`)."""
        if asks == self.entry.asking:
            return
        self.entry.ask(asks)
        label = ASK_LABEL if asks else ""
        self.query_one("#sg-entry-label", LinePanel).set_lines(label)
        if not asks:
            self.query_one("#sg-note", LinePanel).set_lines("")

    @staticmethod
    def _turn_line(view: dict[str, Any], names: list[str]) -> Text:
        you = view.get("you")
        high = view.get("high")
        text = Text()
        if high is None:
            text.append("No bid yet", style="dim")
        else:
            who = "you" if high.get("seat") == you else names[high["seat"]]
            text.append("High bid ")
            text.append(str(high.get("amount")), style="bold")
            text.append(f" ({who})")
        legal = view.get("legal") or {}
        turn = view.get("to_act") or []
        if "pass" in legal:
            amounts = legal.get("bid") or []
            text.append(" · ")
            if amounts:
                offer = ranges(amounts, 4)
                text.append(f"Your turn: bid {offer} or p to pass", style="bold")
            else:
                text.append("Your turn: no legal bid (S7), p to pass", style="bold")
        elif turn:
            text.append(f" · {names[turn[0]] if turn[0] < len(names) else '?'} to act")
        return text

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "bid":
            self.check_amount()

    def check_amount(self) -> None:
        """Under the entry: whom the amount would pay, or why it would be refused."""
        if not self.entry.asking:
            return
        amount = self.entry.amount
        note = Text()
        if amount is not None:
            why = refusal(amount, self.view)
            if why:
                note = Text(f" ✗ {amount}: {why}", style="bold red")
            else:
                head = f" Enter bids {amount}: pays "
                # The room left: the box less "Your bid " and the entry (80 columns before layout).
                room = (self.content_size.width or 76) - 15 - len(head)
                note = Text(head + payout_words(amount, self.view, max(room, 20)))
        elif not self.entry.amounts:
            note = Text(" no amount is legal (S7): pass", style="dim")
        self.query_one("#sg-note", LinePanel).set_lines(note)

    def show_error(self, message: str) -> None:
        self.query_one("#sg-note", LinePanel).set_lines(Text(f" {message}", style="bold red"))
