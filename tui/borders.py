"""A widget's border title and subtitle, set only when they change (issue 31).

Setting either repaints the whole widget, even to the text it already shows: a table
that set its boxes' titles on every update repainted those boxes whole every time.
"""

from __future__ import annotations

from textual.widget import Widget


def titled(widget: Widget, title: str | None = None, subtitle: str | None = None) -> None:
    """Give `widget`'s border `title` and `subtitle` (None: leave it) where they differ."""
    if title is not None and widget.border_title != title:
        widget.border_title = title
    if subtitle is not None and widget.border_subtitle != subtitle:
        widget.border_subtitle = subtitle
