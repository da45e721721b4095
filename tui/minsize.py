"""Below the size a screen is drawn for, say so plainly instead of losing rows silently."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.screen import Screen
from textual.widgets import Static

MIN_WIDTH, MIN_HEIGHT = 80, 24  # every screen is laid out for at least this


class SizeNotice(Static):
    """Covers a screen that is smaller than 80×24 with what size is needed; gone as soon
    as the terminal is large enough again."""

    DEFAULT_CSS = """
    SizeNotice {
        dock: top;
        width: 100%;
        height: 100%;
        content-align: center middle;
        text-align: center;
        background: $background;
        padding: 1 2;
        display: none;
    }
    """

    def fit(self, width: int, height: int) -> None:
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        self.display = small
        if small:
            self.update(
                Text.assemble(
                    ("The terminal is too small.\n\n", "bold red"),
                    f"This screen needs at least {MIN_WIDTH}×{MIN_HEIGHT} "
                    f"(columns × rows); it has {width}×{height}.\n",
                    "Make the window larger or the font smaller: the table comes back.\n\n",
                    ("Ctrl+Q quits.", "dim"),
                )
            )


def watch_size(screen: Screen[Any]) -> None:
    """Give `screen` its notice (call from `on_mount`, twice is once; `fit_size` on
    every resize). A screen already taken down needs none: a session closed as its
    first screen mounts (issue 21's session churn) raised `MountError` here."""
    if not screen.is_attached:
        return
    if not screen.query(SizeNotice):
        screen.mount(SizeNotice())
    fit_size(screen)


def fit_size(screen: Screen[Any]) -> None:
    for notice in screen.query(SizeNotice):
        notice.fit(screen.size.width, screen.size.height)
