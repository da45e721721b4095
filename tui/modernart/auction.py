"""The auction panel, shaped by the auction type (R12–R16), with the amount entry and its errors."""

from __future__ import annotations

import math
import time
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import Input

from modernart.engine.modernart.cards import ARTIST_NAMES, ARTIST_OF

from ..amount import AmountInput
from ..lines import LinePanel
from ..presence import host_line
from ..turnclock import WARN_AT_S, ClockWarning
from ..words import capital
from .style import TYPE_NAME, artist_style, lot_name

AMOUNT_ACTIONS = ("bid", "sealed", "price")
# What the server does for you when the turn clock runs out (docs/protocol.md), short
# enough for the clock's row at 80 columns ("…for you" was cut: play-test 2026-12-05).
TIMEOUT_DEFAULT = (
    ("play", "a card is played"),
    ("decline", "you decline"),
    ("sealed", "you bid 0"),
    ("price", "a price is named"),
    ("pass", "you pass"),
)


def outbid_note(view: dict[str, Any], amount: int) -> str:
    """Why a typed bid below the minimum was not sent: the others outbid it meanwhile."""
    high = view["high"]
    low = view["legal"]["bid"][0]
    who = _name(view, high["seat"])
    return (
        f"Your bid of {amount} was not sent: the high bid is {high['amount']} ({who}). "
        f"Bid at least {low}."
    )


def _name(view: dict[str, Any], seat: int | None) -> str:
    seats = view.get("seats") or []
    if seat is None:
        return "nobody"
    if 0 <= seat < len(seats):
        return "you" if seat == view.get("you") else seats[seat]["name"]
    return "the virtual player"


def _order(view: dict[str, Any], order: list[int], current: int | None) -> Text:
    text = Text()
    for i, seat in enumerate(order):
        if i:
            text.append(" → ", style="dim")
        text.append(_name(view, seat), style="bold reverse" if seat == current else "")
    return text


def lot_title(view: dict[str, Any]) -> Text:
    lot = view.get("lot")
    if not lot:
        return Text("No auction", style="dim")
    cards = lot["cards"]
    artist = ARTIST_OF[cards[0]]
    text = Text().append(lot_name(cards), style=artist_style(artist))
    text.append(f" · {TYPE_NAME.get(lot['type'], lot['type'])}", style="bold")
    text.append(f" · by {_name(view, lot['seller'])}")
    if lot.get("original") is not None:
        text.append(f" (with {_name(view, lot['original'])})")
    return text


def describe(view: dict[str, Any]) -> Text:
    """What is going on in this auction, and whose move it is, in a few lines."""
    phase = view.get("phase")
    legal = view.get("legal") or {}
    you = view.get("you")
    to_act = view.get("to_act") or []
    lot = view.get("lot")
    lines: list[Text] = []
    if view.get("status") == "waiting":
        seats = view.get("seats") or []
        free = sum(1 for s in seats if s.get("free"))
        lines.append(Text(f"Waiting room: {len(seats) - free}/{len(seats)} seated.", style="bold"))
        if you is not None and you == view.get("host"):
            lines.append(Text(host_line(view), style="bold yellow"))
        else:
            host = view.get("host")
            who = f"{_name(view, host)} (the host)" if host is not None else "The host"
            lines.append(Text(f"{who} starts the game when all seats are taken."))
        lines.append(Text("t chats, L leaves."))
        return Text("\n").join(lines)
    if view.get("finished") or phase == "over":
        winners = ", ".join(_name(view, s) for s in view.get("winners") or [])
        return Text(f"The game is over. Winner: {winners}.", style="bold")
    if phase == "play":
        if "play" in legal:
            lines.append(Text("Your turn: choose a card to auction.", style="bold yellow"))
            lines.append(Text("←/→ pick a card, Enter plays it."))
        else:
            who = capital(_name(view, view.get("auctioneer")))
            lines.append(Text(f"{who} is choosing a card."))
    elif phase == "offer" and lot:
        artist = ARTIST_NAMES[ARTIST_OF[lot["cards"][0]]]
        current = to_act[0] if to_act else None
        lines.append(Text(f"Double {artist}: who adds a second {artist} (not a double)?"))
        lines.append(Text.assemble("Offer: ", _order(view, view.get("offer_order") or [], current)))
        if "add" in legal or "decline" in legal:
            if legal.get("add"):
                lines.append(Text("Enter adds the chosen card; d declines.", style="bold yellow"))
            else:
                lines.append(Text("You have no matching card: d declines.", style="bold yellow"))
    elif phase in ("open", "once_around"):
        high = view.get("high")
        if high:
            lines.append(
                Text.assemble(
                    "High bid: ", (str(high["amount"]), "bold"), f" by {_name(view, high['seat'])}"
                )
            )
        else:
            lines.append(Text("No bids yet."))
        if phase == "open":
            passed = view.get("passed") or []
            if passed:
                lines.append(
                    Text("Passed: " + ", ".join(_name(view, s) for s in passed), style="dim")
                )
            if legal:
                lines.append(
                    Text("Shout any time: Enter bids, + min raise, p pass.", style="bold yellow")
                )
        else:
            current = to_act[0] if to_act else None
            order = [s for s in _lap(view)]
            lines.append(Text.assemble("Turn: ", _order(view, order, current)))
            if legal:
                lines.append(Text("Your turn: Enter bids, p passes.", style="bold yellow"))
    elif phase == "sealed":
        sealed_in = set(view.get("sealed_in") or [])
        seats = view.get("seats") or []
        status = Text.assemble("Bids in: ", (f"{len(sealed_in)}/{len(seats)}", "bold"))
        missing = [_name(view, s) for s in range(len(seats)) if s not in sealed_in]
        if missing:
            status.append(f"; waiting for {', '.join(missing)}", style="dim")
        lines.append(status)
        if view.get("my_sealed") is not None:
            lines.append(Text(f"Your secret bid: {view['my_sealed']}"))
        elif "sealed" in legal:
            lines.append(Text("Type your secret bid (0 allowed), Enter.", style="bold yellow"))
    elif phase == "price":
        if "price" in legal:
            lines.append(Text("Name the fixed price, Enter.", style="bold yellow"))
        else:
            seller = _name(view, lot["seller"] if lot else None)
            lines.append(Text(f"{capital(seller)} is naming the price."))
    elif phase == "buy":
        price = view.get("price")
        current = to_act[0] if to_act else None
        lines.append(Text.assemble("Price: ", (str(price), "bold")))
        lines.append(Text.assemble("Asked: ", _order(view, _lap(view)[:-1], current)))
        if "buy" in legal:
            lines.append(Text(f"y buys for {price}, p passes.", style="bold yellow"))
        elif "pass" in legal:
            lines.append(Text("You cannot afford it: p passes.", style="bold yellow"))
    return Text("\n").join(lines)


def _lap(view: dict[str, Any]) -> list[int]:
    """R13/R15: from the seller's left, clockwise, the seller last."""
    lot = view.get("lot")
    n = len(view.get("seats") or [])
    if not lot or not n:
        return []
    seller = lot["seller"]
    return [(seller + i) % n for i in range(1, n + 1)]


LABEL_WIDTH = 18  # the entry's label, in cells, and a space (tui/app.tcss `#entry-label`)


class AuctionPanel(Vertical):
    """Shows the lot, the state of its auction, the amount entry and the last error."""

    def compose(self) -> ComposeResult:
        yield LinePanel(id="state")  # the lot's line, then its auction's
        yield LinePanel(id="clock")
        with Horizontal(id="entry"):
            yield LinePanel(id="entry-label")
            yield AmountInput(id="amount", placeholder="amount")
            yield LinePanel(id="amount-note")
        yield LinePanel(id="error")

    def on_mount(self) -> None:
        self.view: dict[str, Any] = {}
        self.mode = ""  # the amount action the entry is for: bid, sealed, price or ""
        self._deadline: float | None = None
        self._going = 0
        self._timer: Timer | None = None
        self._interval = 0.0
        self._key: object = None
        self._warned: float | None = None  # the deadline already warned about
        self._entry_asks(False)

    @property
    def amount_input(self) -> AmountInput:
        return self.query_one("#amount", AmountInput)

    def show(self, view: dict[str, Any], events: list[dict[str, Any]]) -> None:
        self.view = view
        for event in events:
            if event.get("type") == "going":
                self._going = event.get("stage", 0)
            elif event.get("type") in ("bid", "sold", "free", "played", "added"):
                self._going = 0
            if event.get("type") in ("bid", "pass", "sealed_in", "price", "buy", "sold", "free"):
                self.query_one("#error", LinePanel).set_lines("")
        self._set_clock(view.get("deadline_ms"))
        key = repr({k: v for k, v in view.items() if k != "deadline_ms"})
        if key != self._key:
            self._key = key
            self.query_one("#error", LinePanel).set_lines("")  # errors are about the last state
            # One panel for both: a lot's line wrapping takes a row of the auction's
            # (tui/app.tcss), not a layout of the screen (issue 31).
            self.query_one("#state", LinePanel).set_lines([lot_title(view), describe(view)])
            self._set_mode(view.get("legal") or {})
        self._draw_clock()

    def unsent(self, legal: dict[str, Any]) -> str:
        """An amount typed into the entry that `legal` no longer asks for: the auction moved
        on (the hammer, a turn clock) before its Enter (play-tests 2026-12-03, late, #5)."""
        entry = self.amount_input
        if not self.mode or self.mode in legal or not entry.typed:
            return ""
        return entry.value

    def _set_mode(self, legal: dict[str, Any]) -> None:
        entry = self.amount_input
        mode = next((k for k in AMOUNT_ACTIONS if k in legal), "")
        if not mode:
            if self.mode:
                self.mode = ""
                self._entry_asks(False)
            return
        low, high = legal[mode]
        new_mode = mode != self.mode
        self.mode, entry.bounds = mode, (low, high)
        if new_mode:
            self._entry_asks(True)
        # No brackets and no space before the ✗ note: "✗ max 100" keeps its number beside
        # the entry at 80 columns. The label's width is fixed (a width that follows it lays
        # the screen out): the shorter words when the bounds are long.
        label = {"bid": "Your bid", "sealed": "Secret bid", "price": "Price"}[mode]
        if len(f"{label} {low}–{high}:") > LABEL_WIDTH:
            label = {"bid": "Bid", "sealed": "Secret", "price": "Price"}[mode]
        prompt = Text(f"{label} {low}–{high}:", style="bold", justify="right", no_wrap=True)
        self.query_one("#entry-label", LinePanel).set_lines(prompt)
        entry.placeholder = "amount"
        if mode == "bid":
            # What the player typed is never replaced (a shout may arrive between two key
            # presses), even a digit equal to the suggestion it replaced (play-test: "5"
            # over an offered 5, then a bot's bid made it 10 and the next "0" a bid of 0);
            # only our own suggestion follows the minimum, selected, so that typing a
            # number replaces it.
            if new_mode or not (entry.typed and entry.value):
                entry.offer(str(low))
                entry.select_all()
        elif new_mode:
            entry.offer("")
        self._check_amount()

    def _entry_asks(self, asks: bool) -> None:
        """The entry's row is always there (a row shown or hidden lays the whole screen out
        again, issue 31): when no amount is asked for it is blank and takes no focus
        (`AmountInput.ask`)."""
        self.amount_input.ask(asks)
        if not asks:
            self.query_one("#entry-label", LinePanel).set_lines("")

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "amount":
            self._check_amount()

    def _check_amount(self) -> None:
        """Mark an amount out of bounds next to the entry; Enter refuses it (TableScreen)."""
        entry = self.amount_input
        low, high = entry.bounds
        amount = entry.amount
        note = ""
        if self.mode and amount is not None and entry.typed:
            if amount < low:
                note = f"✗ min {low}"  # short: the entry is narrow at 80 columns
            elif amount > high:
                note = f"✗ max {high}"
        self.query_one("#amount-note", LinePanel).set_lines(Text(note, style="bold red"))

    def sent(self) -> None:
        """The amount went out: the next minimum may be suggested again."""
        self.amount_input.offer("")

    def show_error(self, message: str) -> None:
        self.query_one("#error", LinePanel).set_lines(Text(message, style="bold red"))

    # ------------------------------------------------------------ the clock

    def _set_clock(self, deadline_ms: int | None) -> None:
        if deadline_ms is None:
            self._deadline = None
            if self._timer is not None:
                self._timer.stop()
                self._timer = None
            return
        self._deadline = time.monotonic() + deadline_ms / 1000
        # The hammer ticks a few times a second; other decision clocks once a second.
        interval = 0.25 if self.view.get("phase") == "open" else 1.0
        if self._timer is not None and self._interval != interval:
            self._timer.stop()
            self._timer = None
        if self._timer is None:
            self._interval = interval
            self._timer = self.set_interval(interval, self._draw_clock)

    def clock_line(self, yours: str = "") -> Text | None:
        """The running clock in words: the hammer, or who must decide and how long is left;
        `yours` goes first when the decision is yours."""
        if self._deadline is None:
            return None
        view = self.view
        left = max(0.0, self._deadline - time.monotonic())
        if view.get("phase") == "open":
            stage = {1: "Going once… ", 2: "Going twice… "}.get(self._going, "")
            style = "bold red" if self._going else "bold"
            return Text(f"{stage}hammer in {left:.1f}s", style=style)
        seconds = math.ceil(left)
        legal = view.get("legal") or {}
        if view.get("you") in (view.get("to_act") or []) and legal:
            then = next((words for kind, words in TIMEOUT_DEFAULT if kind in legal), "")
            hurry = seconds <= WARN_AT_S
            if hurry and self._warned != self._deadline:
                self._warned = self._deadline
                self.post_message(ClockWarning())
            return Text(
                f"{yours}{seconds} s left{'; then ' + then if then else ''}",
                style="bold reverse red" if hurry else "bold yellow",
            )
        # A bot never waits for its clock: only people's clocks are told (play-test #4).
        bots = {i for i, s in enumerate(view.get("seats") or []) if s.get("bot")}
        people = [s for s in view.get("to_act") or [] if s not in bots]
        if not people:
            return None
        who = ", ".join(_name(view, s) for s in people)
        return Text(f"{capital(who)}: {seconds} s left to decide", style="dim")

    def _draw_clock(self) -> None:
        # One row, always there, blank without a clock: a row shown or hidden, or a line
        # wrapping to two, would lay the screen out (issue 31).
        line = self.clock_line()
        if line is not None:
            line.no_wrap, line.overflow = True, "ellipsis"
        self.query_one("#clock", LinePanel).set_lines(line or "")
