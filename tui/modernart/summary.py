"""Round-end summary (R20–R24) and game end (R25–R27) as modal screens."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from modernart.engine.modernart.cards import ARTISTS

from ..dialog import Dialog
from ..lines import LinePanel
from ..rematch import DIALOG_KEYS, GAME_OVER_BINDINGS, RematchLine
from ..words import winners_line
from .style import artist_text, paintings


def round_table(event: dict[str, Any], names: Sequence[str], bought: Sequence[list[str]]) -> Table:
    """Artists: cards played, place, token and sale price; then every player's sales."""
    counts, ranking = event.get("counts") or {}, event.get("ranking") or []
    tokens, values = event.get("tokens") or {}, event.get("values") or {}
    artists = Table(box=None, padding=(0, 1), show_edge=False)
    for title, justify in (
        ("Artist", "left"),
        ("cards", "right"),
        ("place", "right"),
        ("token", "right"),
        ("sells for", "right"),
    ):
        artists.add_column(title, justify=justify, header_style="bold")
    for artist in ARTISTS:
        place = ranking.index(artist) + 1 if artist in ranking[:3] else None
        artists.add_row(
            artist_text(artist),
            str(counts.get(artist, 0)),
            str(place) if place else "·",
            str(tokens.get(artist, "·")),
            str(values.get(artist, 0)) if values else "·",
        )
    sales = Table(box=None, padding=(0, 1), show_edge=False)
    sales.add_column("Player", header_style="bold")
    sales.add_column("paintings", header_style="bold")
    sales.add_column("sales", justify="right", header_style="bold")
    for seat, amount in enumerate(event.get("sales") or []):
        cards = bought[seat] if seat < len(bought) else []
        # A name is text, never markup (issue 21): a Table parses markup in strings.
        sales.add_row(Text(names[seat]), paintings(cards), Text(f"+{amount}", style="bold green"))
    outer = Table.grid()
    outer.add_row(artists)
    outer.add_row("")
    outer.add_row(sales)
    return outer


def money_table(
    event: dict[str, Any],
    names: Sequence[str],
    last_round: dict[str, Any] | None = None,
    bought: Sequence[list[str]] = (),
) -> Table:
    """Final money, richest first; with the last round's `round_end`, what each sold in it."""
    table = Table(box=None, padding=(0, 1), show_edge=False)
    table.add_column("Player", header_style="bold")
    sales = (last_round or {}).get("sales") or []
    if last_round:
        table.add_column(f"round {last_round.get('round')}", header_style="bold")
        table.add_column("sales", justify="right", header_style="bold")
    table.add_column("money", justify="right", header_style="bold")
    winners = set(event.get("winners") or [])
    ranked = sorted(range(len(names)), key=lambda s: -event["money"][s])
    for seat in ranked:
        style = "bold yellow" if seat in winners else ""
        mark = " ★ winner" if seat in winners else ""
        row: list[Text] = [Text(names[seat] + mark, style=style)]
        if last_round:
            cards = bought[seat] if seat < len(bought) else []
            amount = sales[seat] if seat < len(sales) else 0
            row += [paintings(cards), Text(f"+{amount}", style="green")]
        table.add_row(*row, Text(str(event["money"][seat]), style=style))
    return table


DIALOG_TEXT = 70  # the text's width in a dialog (app.tcss #dialog: 74, less border and padding)


def values_line(last_round: dict[str, Any], width: int = DIALOG_TEXT) -> Text:
    """ "Round 4 sold for: Lite Metal 60 · Yoko 50 · Christin P. 30 · others 0" (R23); when an
    artist's price adds earlier rounds' values, each price says how: "Round 4: each painting
    sold for this round's value + earlier rounds': Yoko 80 = 20 + 60 · …" (a player read
    running totals in place order as a mistake, play-tests 2026-12-05). Past `width` the
    line breaks between two artists, never inside one ("others" / "0")."""
    values, tokens = last_round.get("values") or {}, last_round.get("tokens") or {}
    paid = [a for a in last_round.get("ranking") or [] if values.get(a)]
    earlier = {a: values[a] - tokens[a] for a in paid if a in tokens and values[a] != tokens[a]}
    number = last_round.get("round")
    if earlier:  # a line of its own (68 columns), the prices below it
        head = f"Round {number}: each painting sold for this round's value + earlier rounds'\n"
    else:
        head = f"Round {number} sold for: "
    text = Text(head, style="bold")

    def price(artist: str) -> Text:
        text = Text.assemble(artist_text(artist), f" {values[artist]}")
        if artist in earlier:
            text.append(f" = {tokens[artist]} + {earlier[artist]}", style="dim")
        return text

    parts = [price(a) for a in paid]
    parts.append(Text("others 0" if paid else "nothing", style="dim"))
    line = len(text.plain.rpartition("\n")[2])
    for i, part in enumerate(parts):
        if i and line + 3 + len(part) > width:
            text.append("\n")
            line = 0
        elif i:
            text.append(" · ", style="dim" if i == len(paid) else "")
            line += 3
        text.append_text(part)
        line += len(part)
    return text


class RoundSummary(Dialog[None]):
    """What the round scored; Enter or Escape returns to the table."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,escape,space", "dismiss", "Continue")]

    def __init__(
        self,
        event: dict[str, Any],
        names: Sequence[str],
        bought: Sequence[list[str]],
        clock: Callable[[str], Text | None] | None = None,
    ) -> None:
        super().__init__()
        self.event, self.names, self.bought = event, names, bought
        self.clock = clock  # the table's turn clock: it keeps running behind this summary
        # Kept, not queried: a tick may come after a dismiss has removed the children.
        self._clock_panel = LinePanel(id="summary-clock")

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(
                Text(f"Round {self.event.get('round')} is over", style="bold"), classes="title"
            )
            yield Static(round_table(self.event, self.names, self.bought))
            yield self._clock_panel
            yield Static(Text("Enter: continue", style="dim"), classes="hint")

    def on_mount(self) -> None:
        self._tick()
        if self.clock is not None:
            self.set_interval(1.0, self._tick)

    def _tick(self) -> None:
        line = self.clock("Your turn next: ") if self.clock is not None else None
        clock = self._clock_panel
        clock.display = line is not None
        clock.set_lines(line or "")

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)


class GameOver(Dialog[str]):
    """All money revealed (R27), the winners (R26), the last round's scoring (R20–R24: its
    summary may have gone by with a key press), and the offer to save the record."""

    BINDINGS: ClassVar[list[BindingType]] = GAME_OVER_BINDINGS

    def __init__(
        self,
        event: dict[str, Any],
        names: Sequence[str],
        last_round: dict[str, Any] | None = None,
        bought: Sequence[list[str]] = (),
    ) -> None:
        super().__init__()
        self.event, self.names = event, names
        self.last_round, self.bought = last_round, bought

    def compose(self) -> ComposeResult:
        winners = winners_line([self.names[s] for s in self.event.get("winners") or []])
        with Vertical(id="dialog"):
            yield Static(
                Text(
                    f"Game over — {winners}!",
                    style="bold yellow",
                ),
                classes="title",
            )
            if self.last_round:
                yield Static(values_line(self.last_round))
            yield Static(money_table(self.event, self.names, self.last_round, self.bought))
            yield RematchLine()
            yield Static(Text(DIALOG_KEYS, style="dim"), classes="hint")

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)
