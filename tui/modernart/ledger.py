"""Who bought what in each round, rebuilt from the public events (`sold`, `free`,
`round_end`), and a screen that shows it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from ..dialog import Dialog
from .style import paintings


class Ledger:
    """Paintings taken per round and seat, and each round's sales to the bank."""

    def __init__(self) -> None:
        self.rounds: list[dict[int, list[str]]] = [{}]
        self.sales: list[list[int]] = []

    def add(self, events: list[dict[str, Any]]) -> None:
        for event in events:
            kind = event.get("type")
            if kind == "sold":
                self._take(event.get("winner"), event.get("cards") or [])
            elif kind == "free":
                self._take(event.get("seat"), event.get("cards") or [])
            elif kind == "round_end":
                self.sales.append(list(event.get("sales") or []))
                self.rounds.append({})

    def _take(self, seat: Any, cards: list[str]) -> None:
        if isinstance(seat, int):
            self.rounds[-1].setdefault(seat, []).extend(cards)

    def _shown(self) -> list[int]:
        return [r for r in range(len(self.rounds)) if self.rounds[r] or r < len(self.sales)]

    def cells(self, names: Sequence[str]) -> list[list[Text]]:
        """Per player: the name, then per round their paintings and `+sales`."""
        rows = []
        for seat, name in enumerate(names):
            row = [Text(name)]
            for r in self._shown():
                cell = paintings(self.rounds[r].get(seat, []))
                if r < len(self.sales) and seat < len(self.sales[r]):
                    cell.append(f"{' ' if cell else ''}+{self.sales[r][seat]}", style="green")
                row.append(cell or Text("·", style="dim"))
            rows.append(row)
        return rows

    def rows(self, names: Sequence[str]) -> list[list[str]]:
        return [[cell.plain for cell in row] for row in self.cells(names)]

    def table(self, names: Sequence[str]) -> Table:
        table = Table(box=None, padding=(0, 1), show_edge=False)
        table.add_column("Player", header_style="bold", no_wrap=True)
        for r in self._shown():
            table.add_column(f"Round {r + 1}", header_style="bold")
        for row in self.cells(names):
            table.add_row(*row)
        return table


class LedgerScreen(Dialog[None]):
    """Purchases by round (`+n`: what the bank paid for them at the round's end)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,H,q", "close", "Back to the table")
    ]

    def __init__(self, ledger: Ledger, names: Sequence[str]) -> None:
        super().__init__()
        self.ledger, self.names = ledger, names

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text("Purchases by round", style="bold"), classes="title")
            yield Static(self.ledger.table(self.names))
            yield Static(
                Text("+n: what the bank paid at the round's end.  Escape: back", style="dim"),
                classes="hint",
            )

    def action_close(self) -> None:
        self.dismiss(None)
