"""Textual's Footer, without its leak and with its keys updated in place: every screen's
footer, compact.

Textual's `Footer` composes its keys again whenever the bindings change (a
focus change, a screen pushed) and binds each new `FooterKey` to its own
`compact` reactive with `data_bind`. That leaves a watcher on the footer for
every key it ever showed, and with it the key, its styles and its message
queue: a client that watched a whole game held about 2,000 dead keys, the most
of its growth (docs/decisions/client-performance.md). And while a modal (a round's
summary) covers the table, its screen keeps every widget that asked to be
redrawn in a set that only a visible screen empties: the removed keys again.
Both are dropped after each change of the keys.

And it composes its keys again on every `refresh_bindings()`, which a game's table
calls on every update: most change nothing the footer shows, yet rebuilding it (a
dozen widgets, their styles and layout) was the largest cost of a playing session
(issue 16, third session: 38% of a worker's time). A change that would show the same
keys is skipped.

Most decisions do change the keys shown (about every other update of a game), and
composing them again mounted, styled and laid out 3–5 new keys each time. The keys are
updated in place instead (issue 16, fifth session): the key widget at each place takes
the binding shown there now (its key, label, action, enabled or not, tooltip), the keys
not needed now are hidden (and kept for later: most decisions come back), keys are
mounted only when more are shown than ever before, and a key is laid out only when its
width changed. Keys in groups (`Binding.Group`) or the command palette's
key, which our tables do not show, are composed again as Textual does.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.dom import NoScreen
from textual.widgets import Footer as TextualFooter

from .textual_internals import FooterKey, key_disabled, set_key_disabled


class Key(NamedTuple):
    """What one footer key shows (the arguments of `FooterKey`)."""

    key: str
    key_display: str
    description: str
    action: str
    disabled: bool
    tooltip: str


class Footer(TextualFooter):
    def __init__(self, *children, **kwargs) -> None:  # type: ignore[no-untyped-def]
        kwargs.setdefault("compact", True)
        super().__init__(*children, **kwargs)
        self._shown: tuple[Any, ...] | None = None  # what the keys show now

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

    def plain_keys(self, shown: tuple[Any, ...]) -> list[Key] | None:
        """The keys `compose` would show for `shown`, one per action in the bindings' order,
        when all are plain keys (None: a group of keys, or the command palette's key)."""
        keys, _, show_palette, _ = shown
        if show_palette and self.app.ENABLE_COMMAND_PALETTE:
            return None
        first: dict[str, Key] = {}  # compose shows an action's first binding
        for binding, enabled, tooltip in keys:
            if binding.group is not None:
                return None
            if binding.action not in first:
                display = self.app.get_key_display(binding)
                first[binding.action] = Key(
                    binding.key, display, binding.description, binding.action, not enabled, tooltip
                )
        return list(first.values())

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, FooterKey) and self.compact:
                widget.add_class("-compact", update=False)  # its watcher finds it: no restyle
            yield widget

    async def recompose(self) -> None:
        shown = self.shown()
        if shown is not None and shown == self._shown and self.is_attached:
            return  # the same keys: nothing to change
        self._shown = shown
        keys = self.plain_keys(shown) if shown is not None else None
        current = list(self.children)
        if keys is None or not self.is_attached or not all(type(w) is FooterKey for w in current):
            await super().recompose()
        else:
            await self.update_keys(current, keys)  # type: ignore[arg-type]
        self.drop_dead_watchers()

    async def update_keys(self, current: list[FooterKey], keys: list[Key]) -> None:
        """Show `keys` with the key widgets there are: the ones not needed now are hidden
        and kept for the next keys, and new ones mounted only when more keys are shown
        than ever before."""
        # Not `styles.grid_size_columns = len(keys)` as `compose` does: the footer's layout
        # is horizontal, and setting it lays out every key again.
        for widget, key in zip(current, keys, strict=False):
            set_key(widget, key)
            widget.display = True
        for widget in current[len(keys) :]:
            widget.display = False
        if len(keys) > len(current):
            await self.mount_all([self.new_key(key) for key in keys[len(current) :]])

    def new_key(self, key: Key) -> FooterKey:
        """A key as `compose` makes it (born compact, see the module docstring)."""
        widget = FooterKey(*key).data_bind(compact=TextualFooter.compact)
        if self.compact:
            widget.add_class("-compact", update=False)
        return widget

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


def set_key(widget: FooterKey, key: Key) -> None:
    """Make `widget` show `key`: repainted if its text or state changed, and laid out
    only if its label's width changed (a key is as wide as its label)."""
    old = Key(
        widget.key,
        widget.key_display,
        widget.description,
        widget.action,
        key_disabled(widget),
        widget.tooltip or "",
    )
    if old == key:
        return
    widget.key, widget.key_display, widget.description, widget.action = key[:4]
    if key.disabled != key_disabled(widget):
        set_key_disabled(widget, key.disabled)
        widget.set_class(key.disabled, "-disabled")
    if key.tooltip != old.tooltip:
        widget.tooltip = key.tooltip or None
    if label_width(key) != label_width(old):
        widget.refresh(layout=True)
    else:
        widget.refresh()


def label_width(key: Key) -> tuple[int, bool]:
    """What a key's width follows: its label's cells, and whether it has a description
    (which brings its own padding)."""
    return cell_len(key.key_display) + cell_len(key.description), bool(key.description)
