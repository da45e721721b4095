"""Textual's Footer, without its leak: every screen's footer, compact.

Textual's `Footer` composes its keys again whenever the bindings change (a
focus change, a screen pushed) and binds each new `FooterKey` to its own
`compact` reactive with `data_bind`. That leaves a watcher on the footer for
every key it ever showed, and with it the key, its styles and its message
queue: a client that watched a whole game held about 2,000 dead keys, the most
of its growth (docs/decisions.md, issue 16). And while a modal (a round's
summary) covers the table, its screen keeps every widget that asked to be
redrawn in a set that only a visible screen empties: the removed keys again.
Both are dropped after each recomposition.

And it composes its keys again on every `refresh_bindings()`, which a game's table
calls on every update: most change nothing the footer shows, yet rebuilding it (a
dozen widgets, their styles and layout) was the largest cost of a playing session
(issue 16, third session: 38% of a worker's time). A recomposition that would show
the same keys is skipped.

A recomposition that shows other keys (most decisions change them) made each new key
update its styles a second time: its `compact` watcher adds the `-compact` class after
the key was mounted and styled. Keys are born with the class (issue 16, fourth session).
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.dom import NoScreen
from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey


class Footer(TextualFooter):
    def __init__(self, *children, **kwargs) -> None:  # type: ignore[no-untyped-def]
        kwargs.setdefault("compact", True)
        super().__init__(*children, **kwargs)
        self._shown: tuple[Any, ...] | None = None  # what the keys composed last show

    def shown(self) -> tuple[Any, ...] | None:
        """What `compose` would show now: each shown binding, whether it is enabled, its
        tooltip, and the footer's own settings (None: nothing to show yet)."""
        if not self._bindings_ready:
            return None
        try:
            active = self.screen.active_bindings
        except NoScreen:
            return None
        keys = tuple(
            (binding, enabled, tooltip)
            for (_, binding, enabled, tooltip) in active.values()
            if binding.show
        )
        return (keys, self.compact, self.show_command_palette, self.combine_groups)

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, FooterKey) and self.compact:
                widget.add_class("-compact", update=False)  # its watcher finds it: no restyle
            yield widget

    async def recompose(self) -> None:
        shown = self.shown()
        if shown is not None and shown == self._shown and self.is_attached:
            return  # the same keys: nothing to rebuild
        self._shown = shown
        await super().recompose()
        self.drop_dead_watchers()

    def drop_dead_watchers(self) -> None:
        """Forget the keys no longer mounted (Textual's private bookkeeping, see above)."""
        watchers: dict[str, list] = getattr(self, "__watchers", {})  # textual.reactive's
        for entries in watchers.values():
            entries[:] = [(node, callback) for node, callback in entries if node.is_attached]
        try:
            screen = self.screen
        except NoScreen:  # removed meanwhile, with its screen
            return
        dirty = getattr(screen, "_dirty_widgets", None)  # textual.screen.Screen's
        if dirty:
            dirty.difference_update([widget for widget in dirty if not widget.is_attached])
