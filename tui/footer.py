"""Every screen's footer: the keys you may press now, drawn as one line of one widget.

Textual's `Footer` is a container of one `FooterKey` widget per key, composed again
whenever the bindings change. That leaked a watcher and the key per change (about 2,000
dead keys after a watched game) and cost the most of a playing session (issue 16), so we
updated its keys in place instead. Yet a key is as wide as its label, the keys shown
change with the legal actions, and Textual lays out the whole screen for any layout
request: the footer still caused about three whole-screen layouts' worth of refreshes
per game update (issue 31, `scripts/bench_redraw.py --trace`).

This footer is one widget of height 1 and width 1fr drawn with Textual's Line API
(`render_line`): a change of keys lays nothing out; its line is drawn once per change,
kept as a `Strip`, and repainted only when it differs from the line shown. It has no
children, so there is nothing to leak.

It shows what Textual's compact footer shows, as near as one line can: for each shown
binding of the screen's active bindings, the first binding of each action, its key
display (`App.get_key_display`) then its description, in the bindings' order; a binding
`check_action` answers None for is drawn dim, and one it answers False for is not shown.
Keys past the right edge are cut. A mouse press on a key presses the key, as on
Textual's `FooterKey`. Dropped (docs/decisions/client-performance.md): the hover style,
tooltips, `Binding.Group`'s grouped keys (drawn as plain keys) and the command palette's
key (our apps disable the palette).
"""

from __future__ import annotations

from typing import ClassVar, NamedTuple

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.dom import NoScreen
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget

KEPT = 16  # lines of keys kept drawn


class Key(NamedTuple):
    """One key as the footer draws it."""

    key: str  # what a click presses (`App.simulate_key`)
    display: str  # `App.get_key_display`
    description: str
    disabled: bool  # `check_action` answered None: drawn dim, a click rings the bell


class Place(NamedTuple):
    """Where a key is drawn on the line: cells `start` to `end` (exclusive)."""

    start: int
    end: int
    key: Key


class Footer(Widget, can_focus=False):
    """The screen's keys on one line (see the module docstring for why one widget)."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "footer-key--key",
        "footer-key--description",
        "footer-key--disabled",
    }
    # The looks of Textual's Footer and FooterKey (textual/widgets/_footer.py), whose
    # `-compact` class is our `compact`: a key's padding and the gap between keys are
    # drawn as spaces, so the component styles have none.
    DEFAULT_CSS = """
    Footer {
        dock: bottom;
        height: 1;
        width: 1fr;
        color: $footer-foreground;
        background: $footer-background;
        text-wrap: nowrap;
        .footer-key--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .footer-key--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        .footer-key--disabled {
            text-style: dim;
        }
    }
    """

    def __init__(
        self,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        compact: bool = True,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.compact = compact
        self._shown: tuple[tuple[Binding, bool], ...] | None = None  # bindings drawn
        self._keys: tuple[Key, ...] = ()
        self._places: tuple[Place, ...] = ()
        self._strip: Strip | None = None  # the keys' line, as long as they are
        self._base = Style()  # the footer's own style, which fills the rest of the line
        self._line: tuple[int, Strip] | None = None  # (width, the line at that width)
        self._pending = False  # an update waits for the screen's next refresh
        # Lines drawn, by their keys: a table's keys come and go with whose turn it is,
        # between a few sets (its last `KEPT` kept; forgotten with the styles).
        self._drawn: dict[tuple[Key, ...], tuple[Strip, tuple[Place, ...]]] = {}

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)
        self.bindings_changed(self.screen)  # the keys there are already

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen[object]) -> None:
        """The screen's bindings changed: look at them after its next refresh (as
        Textual's Footer does, when the focus and the screen's state have settled);
        several changes before then are looked at once."""
        if not screen.app.app_focus or self._pending:
            return
        if self.is_attached and screen is self.screen:
            self._pending = True
            self.call_after_refresh(self.update_keys)

    def shown(self) -> tuple[tuple[Binding, bool], ...] | None:
        """The shown bindings now with whether each is enabled, the first of each action
        in the bindings' order (None: no screen)."""
        try:
            active = self.screen.active_bindings
        except NoScreen:
            return None
        first: dict[str, tuple[Binding, bool]] = {}
        for _, binding, enabled, _ in active.values():
            if binding.show and binding.action not in first:
                first[binding.action] = (binding, enabled)
        return tuple(first.values())

    def update_keys(self) -> None:
        """Draw the keys shown now; repaint the line only if it changed."""
        self._pending = False
        shown = self.shown()
        if shown is None or shown == self._shown:
            return  # most changes of the bindings change nothing shown
        self._shown = shown
        keys = tuple(
            Key(binding.key, self.app.get_key_display(binding), binding.description, not on)
            for binding, on in shown
        )
        if keys == self._keys:
            return
        self._keys = keys
        self._redraw()

    def _redraw(self) -> None:
        """Draw the line again (or take it from the lines drawn); repaint it only if it
        changed."""
        drawn = self._drawn.pop(self._keys, None) or self.draw(self._keys)
        self._drawn[self._keys] = drawn  # the newest last
        if len(self._drawn) > KEPT:
            del self._drawn[next(iter(self._drawn))]
        self._show(drawn)

    def _show(self, drawn: tuple[Strip, tuple[Place, ...]]) -> None:
        """Show a drawn line; repaint it only if it changed."""
        strip, self._places = drawn
        base = Style(bgcolor=self.rich_style.bgcolor)
        if strip == self._strip and base == self._base:
            return
        self._strip, self._base, self._line = strip, base, None
        self.refresh()  # a repaint of the one line: nothing is laid out

    def draw(self, keys: tuple[Key, ...]) -> tuple[Strip, tuple[Place, ...]]:
        """The line of `keys` with the footer's styles, and where each key is on it.

        As Textual's compact FooterKey: the key, a space and the description, then one
        space of the footer's background between keys; not compact: a space either side
        of the key and one after the description, no gap."""
        key_style = self.get_component_rich_style("footer-key--key")
        description_style = self.get_component_rich_style("footer-key--description")
        dim = self.get_component_rich_style("footer-key--disabled", partial=True)
        base = self.rich_style
        gap = Style(bgcolor=base.bgcolor)  # blank: the footer's background only
        text = Text(no_wrap=True, end="")
        places: list[Place] = []
        for key in keys:
            start = text.cell_len
            display = key.display if self.compact else f" {key.display} "
            label = Text.assemble((display, key_style))
            if key.description:
                description = f" {key.description}" if self.compact else f"{key.description} "
                label.append(description, description_style)
            label.stylize_before(base + dim if key.disabled else base)
            text.append_text(label)
            places.append(Place(start, text.cell_len, key))
            if self.compact:
                text.append(" ", gap)
        segments = text.render(self.app.console) if keys else ()
        return Strip(segments, text.cell_len), tuple(places)

    def notify_style_update(self) -> None:
        """A new theme or class may change the styles the line was drawn with."""
        super().notify_style_update()
        self._drawn.clear()  # drawn with the styles before
        if self._strip is not None:
            # Drawn afresh and not kept: a component's styles may come after this news.
            self._show(self.draw(self._keys))

    def render_line(self, y: int) -> Strip:
        """The keys' line, cut or filled with the footer's background to its width."""
        width = self.size.width
        if self._line is not None and self._line[0] == width:
            return self._line[1]
        if self._strip is None:
            self._strip, self._places = self.draw(self._keys)
            self._base = Style(bgcolor=self.rich_style.bgcolor)
        line = self._strip.adjust_cell_length(width, self._base)
        self._line = (width, line)
        return line

    def key_at(self, x: int) -> Key | None:
        """The key drawn at cell `x` of the line (None: none, or past the right edge)."""
        if x >= self.size.width:
            return None
        for place in self._places:
            if place.start <= x < place.end:
                return place.key
        return None

    def on_mouse_down(self, event: events.MouseDown) -> None:
        """Press the key under the pointer, as Textual's FooterKey does."""
        key = self.key_at(event.x)
        if key is None:
            return
        if key.disabled:
            self.app.bell()
        else:
            self.app.simulate_key(key.key)

    @property
    def keys(self) -> tuple[Key, ...]:
        """The keys shown now, in order."""
        return self._keys

    @property
    def text(self) -> str:
        """The line's text, as long as its keys (not cut to the width)."""
        if self._strip is None:
            self._strip, self._places = self.draw(self._keys)
        return self._strip.text
