"""The amount entry every table's bids and prices use: digits only, ↑/↓ steps within bounds."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import events
from textual.binding import Binding, BindingType

from .ordered import OrderedInput

# Keys that leave the amount as it is: moving about, sending it, leaving the entry.
UNTYPED = frozenset(
    {"tab", "shift+tab", "enter", "escape", "pageup", "pagedown", "left", "right", "home", "end"}
)


class AmountInput(OrderedInput):
    """Digits only; every other key falls through to the screen's bindings (p, y, d, +, …)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "step(1)", "+1", show=False),
        Binding("down", "step(-1)", "-1", show=False),
        # An Input scrolls itself with PgUp/PgDn; here they scroll the event log.
        Binding("pageup", "screen.log(-1)", "Log ↑"),
        Binding("pagedown", "screen.log(1)", "Log ↓", show=False),
    ]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(restrict=r"\d{0,4}", max_length=4, compact=True, **kwargs)
        self.cursor_blink = False  # no redraws twice a second over SSH
        self.bounds: tuple[int, int] = (0, 0)
        # The player changed the amount since it was last put there for them (`offer`).
        # Told by keys, not by the value: a typed 5 over an offered 5 is the same value.
        self.typed = False
        self.asking = True  # False: the entry rests (`ask`)

    def ask(self, asking: bool) -> None:
        """Ask for an amount, or rest: a resting entry keeps its place on the screen but
        shows nothing (empty, the background of what is behind it) and takes no focus.
        A table's entry rests instead of being hidden, since a widget shown or hidden lays
        the whole screen out again; and by an inline style and `allow_focus`, not a CSS
        class or `disabled`, which make Textual match the stylesheet again (issue 31)."""
        if asking == self.asking:
            return
        self.asking = asking
        if asking:
            self.styles.clear_rule("background")
            return
        self.offer("")
        self.placeholder = ""
        self.styles.background = "ansi_default"
        if self.has_focus:
            self.blur()

    def allow_focus(self) -> bool:
        return self.asking and super().allow_focus()

    def offer(self, value: str) -> None:
        """Put `value` (a suggestion, or nothing) in the entry for the player."""
        self.value = value
        self.typed = False

    def check_consume_key(self, key: str, character: str | None) -> bool:
        return character is not None and character.isdigit()

    async def _on_key(self, event: events.Key) -> None:
        char = event.character
        if event.key not in UNTYPED and (char is None or char.isdigit()):
            self.typed = True  # a digit, ⌫, Delete, ↑/↓, …: the amount is the player's
        if char is not None and char.isprintable() and not char.isdigit():
            # Input's own handler (called after this one) would swallow the key:
            # skip it, so the key reaches the screen's bindings (p, y, d, +, …).
            event.prevent_default()

    def start_typing(self, digit: str) -> None:
        """Take the focus with `digit` as the amount's first key, as if typed here
        (the focus would select the offered amount: the next digit must not replace it).
        The focus moves only once the keys already read are handled: the digits of a burst
        typed before it arrives come here one by one, and each one adds to the amount."""
        first = self.select_on_focus  # False while an earlier digit waits for the focus
        self.select_on_focus = False
        self.focus()
        self.value = digit if first else self.value + digit
        self.typed = True
        self.cursor_position = len(self.value)

    def _on_blur(self, event: events.Blur) -> None:
        self.select_on_focus = True  # the next time the focus comes, typing replaces

    @property
    def amount(self) -> int | None:
        return int(self.value) if self.value.isdigit() else None

    def action_step(self, step: int) -> None:
        low, high = self.bounds
        current = self.amount if self.amount is not None else low - (1 if step > 0 else -1)
        self.value = str(max(low, min(high, current + step)))
        self.cursor_position = len(self.value)
