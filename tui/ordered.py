"""Inputs whose keys take effect in the order they were typed, however fast they come.

Textual inserts a printable key in the focused Input's own handler, but runs the Input's key
bindings (Backspace, Enter, ←, Home, …) only when the key has bubbled back up to the App,
through the queue of every widget on the way. Keys that arrive in one read (a fast typist,
a paste, an SSH link that batches keys, a browser terminal) are all queued before the first
is handled, so "⌫ ⌫ 5 5 ⏎" inserted "55", then deleted it, then sent an empty amount
(issue 28). Here the Input runs its own bindings in its own handler, in order with the
characters it inserts.
"""

from __future__ import annotations

import string
from functools import cache

from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.keys import key_to_character
from textual.reactive import Reactive
from textual.widget import Widget
from textual.widgets import Input

from .textual_internals import character_to_key

# Keys whose names Textual does not turn back into their character ("plus" for "+"): an
# Input types them all the same, so the footer must not offer them ("+ Min" beside the chat).
UNNAMED = {
    character_to_key(c): c for c in string.punctuation if key_to_character(character_to_key(c)) != c
}


@cache
def own_bindings(widget_class: type[Input]) -> dict[str, tuple[Binding, ...]]:
    """Each key bound by `widget_class` or its bases, to its bindings (a subclass's first)."""
    keys: dict[str, list[Binding]] = {}
    for klass in widget_class.__mro__:
        for binding in Binding.make_bindings(klass.__dict__.get("BINDINGS", ())):
            keys.setdefault(binding.key, []).append(binding)
    return {key: tuple(bindings) for key, bindings in keys.items()}


def shown(widget: Widget) -> bool:
    """Whether the widget and every container above it is displayed now."""
    return all(node.display for node in widget.ancestors_with_self if isinstance(node, Widget))


class OrderedInput(Input):
    """An Input that runs its own key bindings at once, in the order of the keys."""

    # An Input sets its virtual size (its text's width) with every key, and a widget's
    # virtual size is laid out (Textual's `Widget.virtual_size`): each key typed laid the
    # whole screen out again. An Input has no scroll bars; its scrolling reads the size
    # when it scrolls, so a repaint is all a new one needs (issue 31).
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    def _on_hide(self, event: events.Hide) -> None:
        """Textual tells a widget it was hidden after the screen's next refresh, and the
        widget then gives its focus away. A table that hides its entry for one update and
        shows it again for the next (a sale, then your sealed bid) had taken the focus
        back before that news came: the late news then sent the focus to the hand, where
        ↑ and Enter did nothing, while the entry asked for the bid (issue 28, the browser
        test that stood still). Shown again, the entry keeps the focus."""
        if shown(self):
            event.prevent_default()

    def check_consume_key(self, key: str, character: str | None) -> bool:
        return super().check_consume_key(key, character or UNNAMED.get(key))

    async def _on_key(self, event: events.Key) -> None:
        bindings = own_bindings(type(self)).get(event.key, ())
        if bindings:
            event.stop()
            event.prevent_default()  # Input's own handler, after this one, must not see it
            await self.run_action(bindings[0].action)
