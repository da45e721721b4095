"""The waiting room's bot picker: the room's game's levels, each with its one line."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from modernart.engine.games import GameInfo

from .dialog import Dialog


def bot_choices(info: GameInfo) -> list[tuple[str, str]]:
    """(level, its one line) in level order (the registry's: easy to expert), the
    test-only random bot last and aliases left out; the dialog starts on the default."""
    levels = list(info.bots)
    levels.sort(key=lambda level: level == "random")
    return [
        (level, info.bot_help.get(level, ""))
        for level in levels
        if not info.bot_help.get(level, "").startswith("Another name for")
    ]


class BotLevelDialog(Dialog[str]):
    """Which bot to seat: Enter takes the highlighted level, Escape none."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, info: GameInfo) -> None:
        super().__init__()
        self.info = info

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(f"Add a bot to this {self.info.title} room:")
            yield OptionList(
                *(
                    Option(Text.assemble((f"{level:<9}", "bold"), help_line), id=level)
                    for level, help_line in bot_choices(self.info)
                ),
                id="bot-levels",
            )

    def on_mount(self) -> None:
        levels = [level for level, _ in bot_choices(self.info)]
        if self.info.default_bot in levels:
            at = levels.index(self.info.default_bot)
            options = self.query_one(OptionList)
            options.highlighted = at
            self.call_after_refresh(setattr, options, "highlighted", at)  # after its own reset

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id or "")

    def action_cancel(self) -> None:
        self.dismiss("")
