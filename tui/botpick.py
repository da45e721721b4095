"""The waiting room's bot picker: the room's game's levels, each with its one line."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from modernart.engine.games import GameInfo

from .dialog import Dialog

MARK = "▶"  # beside the highlighted level: not by colour only (playtests #12)


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
    """Which bot to seat: Enter takes the highlighted level, Escape none. The highlighted
    level has a mark, the default says so, and the line below names what Enter seats."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, info: GameInfo) -> None:
        super().__init__()
        self.info = info
        self.choices = bot_choices(info)

    def _prompt(self, at: int, highlighted: bool) -> Text:
        level, help_line = self.choices[at]
        default = ("default · ", "bold") if level == self.info.default_bot else ""
        return Text.assemble(
            f"{MARK if highlighted else ' '} ", (f"{level:<9}", "bold"), default, help_line
        )

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(f"Add a bot to this {self.info.title} room:")
            yield OptionList(
                *(
                    Option(self._prompt(at, False), id=level)
                    for at, (level, _) in enumerate(self.choices)
                ),
                id="bot-levels",
            )
            yield Static(id="bot-keys")

    def on_mount(self) -> None:
        levels = [level for level, _ in self.choices]
        options = self.query_one(OptionList)
        at = levels.index(self.info.default_bot) if self.info.default_bot in levels else 0
        options.highlighted = at
        self.call_after_refresh(setattr, options, "highlighted", at)  # after its own reset
        self._marked = at
        self._show(at)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show(event.option_index)

    def _show(self, at: int) -> None:
        """The mark on level `at` (off the one before), and what Enter seats."""
        options = self.query_one(OptionList)
        if self._marked != at:
            options.replace_option_prompt_at_index(self._marked, self._prompt(self._marked, False))
        options.replace_option_prompt_at_index(at, self._prompt(at, True))
        self._marked = at
        level = self.choices[at][0]
        keys = f"↑↓ another level · Enter: seat a {level} bot · Escape: none"
        self.query_one("#bot-keys", Static).update(Text(keys, style="dim"))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id or "")

    def action_cancel(self) -> None:
        self.dismiss("")
