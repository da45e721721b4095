"""Serengeti's table (SERENGETI.md): the auction with its payout preview and bid entry, the
players' cards by tribe, the event log, and the end screen with the scoring broken down."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Static

from modernart.engine.serengeti.cards import AUCTIONS, TRIBES

from ..modernart.auction import AmountInput
from ..eventlog import SCROLL_HINT, EventLog
from ..gametable import TABLE_BINDINGS, GameTable, TurnClock, chat_line, seat_status
from .words import (
    TIEBREAK_WORDS,
    TRIBE_SHORT,
    TRIBE_STYLE,
    by_tribe,
    cards_text,
    compact_name,
    digit_list,
    lot_gain,
    narrate,
    payout_words,
    ranges,
    refusal,
)
from ..modernart.style import short_name

KEYS_HELP = """## Keys at the Serengeti table

| key | does |
|---|---|
| digits, ↑ ↓ | type a bid; ↑ and ↓ step through the legal amounts only |
| Enter | bid the amount in the entry (a refused amount says why, under the entry) |
| `p` | pass, at any turn (final for this auction; a first decision earns 2 chips, S8) |
| `e` | the scoring again, once the game is over |
| `t` | chat · PgUp/PgDn scroll the events · `L` leave · F1 this help |

**The auction box**: the lot (and the tribe points it would add to yours), the high bid,
whose turn it is and the turn clock (only where the room sets a turn timeout:
local games against bots have none). *Ends in / pays*: for each last digit, who would
be paid if you bought the lot at a price ending in it (`all`: everyone else, as no one
else holds that digit; `✗`: you hold it, so you may not bid it).

**Players**: `▶` whose turn, `S` the start player of this auction, `chips` (yours only
until the end), `pts` tribe points so far, `barred` the digits no bid of theirs may end in (S7),
then their cards by tribe, each tribe's digits spaced: `bl 3 8 9` is Blue 3, Blue 8
and Blue 9 (bl blue, br brown, re red, ye yellow, gr green, pu purple).
"""


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


def payout_grid(view: dict[str, Any], width: int) -> Table:
    """Two rows: each last digit 0–9, and whom a price ending in it would pay."""
    seats = view.get("seats") or []
    you = view.get("you")
    barred = set(seats[you].get("barred") or []) if you is not None and you < len(seats) else set()
    preview = view.get("payout_preview") or []
    col = max(4, min(8, (width - 9) // 10))
    grid = Table.grid(padding=(0, 0))
    grid.add_column(width=9, no_wrap=True)
    for _ in range(10):
        grid.add_column(width=col, no_wrap=True)
    digits = [Text(str(d), style="bold") for d in range(10)]
    pays: list[Text] = []
    everyone_else = len(seats) - 1
    for d in range(10):
        paid = preview[d] if d < len(preview) else []
        if d in barred and you is not None:
            pays.append(Text("✗", style="bold red"))
        elif not paid:
            pays.append(Text("·", style="dim"))
        elif len(paid) == everyone_else and not any(d in (s.get("barred") or []) for s in seats):
            pays.append(Text("all", style="dim"))
        elif len(paid) == 1:
            pays.append(Text(compact_name(seats[paid[0]].get("name", "?"), col - 1)))
        else:
            pays.append(Text(f"{len(paid)} pl", style="italic"))
    grid.add_row(Text("Ends in", style="dim"), *digits)
    grid.add_row(Text("pays", style="dim"), *pays)
    return grid


class AuctionBox(Vertical):
    """The lot, the high bid and whose turn, the turn clock, the payout preview, the bid."""

    DEFAULT_CSS = """
    AuctionBox { height: auto; border: round ansi_yellow; padding: 0 1;
                 border-title-color: ansi_bright_white; }
    AuctionBox #sg-lot-line { height: auto; }
    AuctionBox #sg-lot { width: 1fr; }
    AuctionBox #sg-clock { width: auto; }
    AuctionBox #sg-entry { height: 1; }
    AuctionBox #sg-entry-label { width: auto; }
    AuctionBox #bid { width: 6; background: ansi_blue; color: ansi_bright_white; }
    AuctionBox #bid:focus { background: ansi_bright_blue; }
    AuctionBox #sg-note { width: 1fr; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.view: dict[str, Any] = {}

    def compose(self) -> ComposeResult:
        with Horizontal(id="sg-lot-line"):
            yield Static(id="sg-lot")
            yield TurnClock("you pass", id="sg-clock")
        yield Static(id="sg-turn")
        yield Static(id="sg-grid")
        with Horizontal(id="sg-entry"):
            yield Static(Text("Your bid ", style="bold"), id="sg-entry-label")
            yield BidInput(id="bid")
            yield Static(id="sg-note")

    @property
    def entry(self) -> BidInput:
        return self.query_one(BidInput)

    def show(self, view: dict[str, Any]) -> None:
        previous, self.view = self.view, view
        names = [s.get("name", "?") for s in view.get("seats") or []]
        you = view.get("you")
        running = view.get("status", "playing") == "playing" and not view.get("finished")
        self.border_title = (
            f"Auction {view.get('auction')} of {view.get('auctions', AUCTIONS)}"
            if running
            else "Auction"
        )
        self.border_subtitle = f"{view.get('deck_left', 0)} cards left" if running else ""
        lot = Text()
        if running:
            lot.append("Lot: ", style="bold")
            lot.append_text(cards_text(view.get("lot") or []))
            gain = lot_gain(view, you)
            if you is not None:
                lot.append(f"  (+{gain} pts)", style="dim")
        elif view.get("finished"):
            winners = [names[w] for w in view.get("winners") or [] if w < len(names)]
            lot.append(f"Game over: {' and '.join(winners)} won.", style="bold")
            lot.append(" e shows the scoring again.", style="dim")
        elif view.get("host") is not None and view.get("host") == you:
            lot.append(
                "You host: b adds a bot (B picks its level), s starts the game.", style="bold"
            )
        else:
            host = view.get("host")
            who = (
                f"{names[host]} (the host)"
                if host is not None and host < len(names)
                else "the host"
            )
            lot.append(f"Waiting for {who} to start the game.", style="dim")
        self.query_one("#sg-lot", Static).update(lot)
        self.query_one("#sg-turn", Static).update(self._turn_line(view, names) if running else "")
        self.query_one(TurnClock).show(view)
        grid = self.query_one("#sg-grid", Static)
        grid.display = running and bool(view.get("payout_preview"))
        if grid.display:
            grid.update(payout_grid(view, self.content_size.width or 76))
        amounts = list((view.get("legal") or {}).get("bid") or [])
        entry = self.entry
        entry.amounts = amounts
        yours = "pass" in (view.get("legal") or {})
        self.query_one("#sg-entry").display = yours
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
        self.query_one("#sg-note", Static).update(note)

    def show_error(self, message: str) -> None:
        self.query_one("#sg-note", Static).update(Text(f" {message}", style="bold red"))


def players_table(view: dict[str, Any], name_width: int = 10) -> Table:
    """One row per seat: turn and start markers, name, chips, points, barred digits, cards."""
    you = view.get("you")
    playing = view.get("status", "playing") == "playing" and not view.get("finished")
    waiting = view.get("status", "playing") == "waiting"
    to_act = set(view.get("to_act") or [])
    table = Table.grid(padding=(0, 1))
    table.add_column(width=1, no_wrap=True)
    table.add_column(width=1, no_wrap=True)
    table.add_column(width=name_width, no_wrap=True)
    table.add_column(width=3, no_wrap=True)
    table.add_column(justify="right", width=5, no_wrap=True)
    table.add_column(justify="right", width=3, no_wrap=True)
    table.add_column(min_width=6, max_width=13)
    table.add_column(min_width=10)
    head = ("", "", "Player", "on", "chips", "pts", "barred", "cards by tribe")
    table.add_row(*(Text(h, style="bold") for h in head))
    passed = set(view.get("passed") or [])
    for seat, info in enumerate(view.get("seats") or []):
        name = Text(short_name(info.get("name", "?"), name_width))
        name.stylize("bold reverse" if seat == you else "bold")
        if seat in passed and playing:
            name.stylize("dim")
        chips = info.get("chips")
        table.add_row(
            Text("▶", style="bold yellow") if playing and seat in to_act else "",
            Text("S", style="bold yellow reverse") if playing and seat == view.get("start") else "",
            name,
            seat_status(info),
            Text(str(chips), style="bold") if chips is not None else Text("" if waiting else "?"),
            "" if waiting else str(info.get("points", 0)),
            Text(digit_list(info.get("barred") or []), style="red"),
            by_tribe(info.get("owned") or []),
        )
    return table


class SerengetiPlayers(Static):
    DEFAULT_CSS = """
    SerengetiPlayers { height: auto; border: round ansi_bright_black; padding: 0 1;
                       border-title-color: ansi_bright_white; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.view: dict[str, Any] = {}

    def show(self, view: dict[str, Any]) -> None:
        self.view = view
        self._draw()

    def _draw(self) -> None:
        width = self.content_size.width
        # Names get what the cards leave: a player may own a dozen cards in six tribes.
        self.update(players_table(self.view, max(8, min(20, width - 66)) if width else 10))

    def on_resize(self) -> None:
        if self.view:
            self._draw()


class SerengetiLog(EventLog):
    """The event log told in Serengeti's words."""

    def add_events(self, events: list[dict[str, Any]], names: Any, you: int | None = None) -> None:
        for event in events:
            line = narrate(event, names, you)
            if line is not None:
                self._add(line)


def score_table(event: dict[str, Any], names: list[str]) -> Table:
    """S15–S17 broken down: each tribe's cards → points, the tribe sum, the most-chips
    bonus, the total, and the tie-breaks' cards and chips."""
    table = Table(box=None, padding=(0, 1), collapse_padding=True, show_edge=False)
    table.add_column("Player", no_wrap=True, max_width=10)
    for tribe in TRIBES:
        table.add_column(Text(TRIBE_SHORT[tribe], style=TRIBE_STYLE[tribe]), justify="right")
    for title in ("tribes", "+3", "total", "cards", "chips"):
        table.add_column(title, justify="right", header_style="bold", no_wrap=True)
    winners = set(event.get("winners") or [])
    for seat, score in enumerate(event.get("scores") or []):
        cards, tribes = score.get("cards") or {}, score.get("tribes") or {}
        cells = [
            Text(f"{cards.get(t, 0)}→{tribes.get(t, 0)}") if cards.get(t) else Text("·", "dim")
            for t in TRIBES
        ]
        name = Text(short_name(names[seat] if seat < len(names) else "?", 10))
        name.stylize("bold yellow" if seat in winners else "")
        table.add_row(
            name,
            *cells,
            str(score.get("tribe_points", 0)),
            f"+{score['chips_bonus']}" if score.get("chips_bonus") else "·",
            Text(str(score.get("points", 0)), style="bold"),
            str(score.get("owned", 0)),
            str(score.get("chips", 0)),
        )
    return table


class SerengetiOver(ModalScreen[str]):
    """The scoring broken down (S15–S17), the winners and how a tie was broken."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "choose('save')", "Save record"),
        Binding("enter,escape", "choose('close')", "Back to the table"),
        Binding("q", "choose('quit')", "Quit"),
    ]

    def __init__(self, event: dict[str, Any], names: list[str]) -> None:
        super().__init__()
        self.event, self.names = event, names

    def compose(self) -> ComposeResult:
        winners = [self.names[s] for s in self.event.get("winners") or [] if s < len(self.names)]
        verb = "wins" if len(winners) == 1 else "win"
        tie = TIEBREAK_WORDS.get(self.event.get("tiebreak") or "points", "")
        with Vertical(id="dialog"):
            yield Static(
                Text(f"Game over — {' and '.join(winners)} {verb}!", style="bold yellow"),
                classes="title",
            )
            yield Static(Text(f"Decided by {tie}.", style="italic"))
            yield Static(score_table(self.event, self.names))
            yield Static(
                Text(
                    "Each tribe: n cards → 1+2+…+n points. +3: most chips left (S16). "
                    "Ties: most cards, then most chips (S17).",
                    style="dim",
                )
            )
            yield Static(
                Text("s: save the game record   Enter: back to the table   q: quit", style="dim"),
                classes="hint",
            )

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)


class SerengetiTable(GameTable):
    """Serengeti at 80×24, keyboard only: type or step a bid and press Enter, or `p`."""

    GAME = "serengeti"
    GAME_TITLE = "Serengeti"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p", "act('pass')", "Pass"),
        Binding("e", "scores", "Scoring"),
        *TABLE_BINDINGS,
    ]
    DEFAULT_CSS = """
    SerengetiTable #log { height: 1fr; min-height: 3; }
    """

    def __init__(
        self,
        room: str | None = None,
        seat: int | None = None,
        *,
        player: str = "You",
        local: bool = False,
    ) -> None:
        super().__init__(room, seat, player=player, local=local)
        self._told_start = False  # the log has begun the game's story

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield AuctionBox(id="sg-auction")
        yield SerengetiPlayers(id="sg-players")
        yield SerengetiLog(id="log")
        yield chat_line()
        yield Footer(compact=True)

    def on_mount(self) -> None:
        players = self.query_one("#sg-players")
        players.border_title = "Players"
        players.border_subtitle = "▶ turn · S start player · barred: no bid may end in these"
        self.query_one("#log").border_subtitle = SCROLL_HINT
        super().on_mount()
        self.focus_default()

    def draw(
        self, previous: dict[str, Any], view: dict[str, Any], events: list[dict[str, Any]]
    ) -> None:
        self.query_one(AuctionBox).show(view)
        self.query_one(SerengetiPlayers).show(view)

    def end_screens(
        self, previous: dict[str, Any], events: list[dict[str, Any]]
    ) -> list[ModalScreen[Any]]:
        return [SerengetiOver(e, self.names) for e in events if e.get("type") == "game_end"]

    def tell(self, events: list[dict[str, Any]], names: Sequence[str], you: int | None) -> None:
        view = self.view
        if not self._told_start and view.get("auction") and view.get("status") == "playing":
            self._told_start = True
            # The first auction begins with the game (no event): tell it like the others.
            if view["auction"] == 1 and not any(e.get("type") == "auction" for e in events):
                first = {"type": "auction", "number": 1, "start": view.get("start")}
                events = [{**first, "cards": view.get("lot") or []}, *events]
        self.query_one(SerengetiLog).add_events(events, names, you)

    def progress(self, view: dict[str, Any]) -> str:
        return f"auction {view.get('auction')}/{view.get('auctions', AUCTIONS)}"

    def purse(self, view: dict[str, Any]) -> tuple[str, str] | None:
        chips = view.get("chips")
        return None if chips is None else ("chips ", str(chips))

    def focus_for(self, legal: dict[str, Any]) -> None:
        if self.focused is not None and self.focused.id == "chat":
            return
        if "pass" in legal:
            self.query_one(BidInput).focus()

    def focus_default(self) -> None:
        self.query_one(SerengetiLog).focus()

    def show_error(self, message: str) -> None:
        if "pass" in self.legal:
            self.query_one(AuctionBox).show_error(message)
        else:
            self.note(message, "bold red")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "scores":
            return bool(self.view.get("scores"))
        return super().check_action(action, parameters)

    def action_scores(self) -> None:
        """The end screen again, from the finished view (the same scores as `game_end`)."""
        view = self.view
        if not view.get("scores"):
            self.app.bell()
            return
        keys = ("scores", "winners", "tiebreak")
        end = {"type": "game_end", **{k: view.get(k) for k in keys}}
        self.app.push_screen(SerengetiOver(end, self.names), self.after_game_over)

    def on_input_submitted(self, message: Input.Submitted) -> None:
        message.stop()
        if message.input.id == "chat":
            self.send_chat(message.input)
            return
        box = self.query_one(AuctionBox)
        amount = box.entry.amount
        if amount is None:
            box.show_error("Type an amount, or ↑/↓ for the legal ones; p passes.")
            return
        why = refusal(amount, self.view)
        if why:
            box.show_error(f"✗ {amount}: {why}")
            self.app.bell()
            return
        self.act({"type": "bid", "amount": amount})
