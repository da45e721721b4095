"""Showing new content in a `Static` without the work it does not need (issue 16, fourth
session).

`Static.update()` asks for a layout of the whole screen every time (`refresh(layout=True)`):
Textual then arranges every widget again, sends each its size and redraws what moved,
even when the widget keeps its size, as a table's status line, a clock or a one-line
note always do. A game's update calls it for most of a table's lines, so a playing
session laid its screen out about twice an update (docs/decisions/client-performance.md).

`quiet_update(widget, content)` does nothing when the widget already shows that content, a repaint
of the widget alone when the new content takes the room the old one took, and Textual's
`update()` (a layout) only when the widget's size could change.

A game's table draws its lines in line panels (tui/lines.py); this is for the few
`Static`s left that change while a screen is up (clocks, a review's progress).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.content import Content
from textual.widgets import Static

_TEXT_FIELDS = ("plain", "_spans", "style", "justify", "overflow", "no_wrap", "end", "tab_size")


def same(old: Any, new: Any) -> bool:
    """Whether `old` and `new` show the same: equal strings, or Rich texts equal in their
    characters, styles and wrapping (Rich's own `==` ignores the whole text's style).
    Other renderables are never taken as the same."""
    if isinstance(old, str) or isinstance(new, str):
        return type(old) is type(new) and old == new
    if isinstance(old, Text) and isinstance(new, Text):
        return all(getattr(old, f) == getattr(new, f) for f in _TEXT_FIELDS)
    if isinstance(old, Content) and isinstance(new, Content):
        return old == new
    return False


def quiet_update(widget: Static, content: Any) -> None:
    """Show `content` in `widget`, laying the screen out only if the widget's size may
    change (see the module docstring)."""
    old = widget.content
    if same(old, content):
        return
    old_visual = widget.visual
    widget.update(content, layout=False)
    if needs_layout(widget, old_visual):
        widget.refresh(layout=True)


def laid_out(widget: Static) -> bool:
    """The widget has been laid out and is shown: its size is known."""
    return widget.is_mounted and widget.display and bool(widget.outer_size.width)


def needs_layout(widget: Static, old_visual: Any) -> bool:
    """Whether `widget`, now showing its new visual, may take another size than with
    `old_visual`: never laid out yet, or its width or height follows its content and the
    new content measures differently. The old content's measure is the size it was laid
    out at (measuring a table renders it), unless a minimum or maximum bounded it."""
    if not laid_out(widget):
        return True
    size, styles = widget.outer_size, widget.styles  # the size of its last layout (Textual's)
    gutter_width, gutter_height = styles.gutter.totals
    width, height = size.width - gutter_width, size.height - gutter_height
    visual = widget.visual
    if styles.width is not None and styles.width.is_auto:
        container = widget.container_size.width
        laid_out_width = width
        if styles.min_width is not None or styles.max_width is not None:
            laid_out_width = old_visual.get_optimal_width(styles, container)
        if visual.get_optimal_width(styles, container) != laid_out_width:
            return True
    if styles.height is not None and styles.height.is_auto:
        if styles.min_height is not None or styles.max_height is not None:
            height = old_visual.get_height(styles, width)
        return visual.get_height(styles, width) != height
    return False
