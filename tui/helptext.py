"""F1's text as lines: Markdown rendered once per width by Rich, drawn with Textual's Line API.

Textual's own Markdown widget mounts a widget per block: opening the rules cost 0.6–0.9 s of
CPU each time (6 s the first time over SSH), and in a terminal worker shared by eight
sessions that stalled the neighbours' keys (issue 33, item 7). Here a help text is parsed
and laid out at most once per text and width, in ~20 ms, and the zygote does it for the
usual widths before it forks (`warm`), so a session's first F1 costs only the drawing.
"""

from __future__ import annotations

from functools import lru_cache

from rich.console import Console
from rich.markdown import Markdown
from rich.theme import Theme
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

# The widths F1's text is laid out at in an 80-, 100- or 120-column terminal (the dialog's
# border, padding and scroll bar taken off), prepared in the zygote.
USUAL_WIDTHS = (76, 96, 116)


# Headings in the terminal's own colour, bold: Rich's are magenta (3:1 on black in the
# browser, play-test 2026-12-05).
HEADINGS = Theme({"markdown.h2": "bold underline", "markdown.h3": "bold", "markdown.h4": "italic"})


@lru_cache(maxsize=32)
def help_lines(text: str, width: int) -> tuple[Strip, ...]:
    """`text` (Markdown) laid out `width` cells wide: one Strip a line."""
    console = Console(
        width=width, color_system="truecolor", force_terminal=True, record=False, theme=HEADINGS
    )
    lines = console.render_lines(Markdown(text), console.options.update_width(width), pad=True)
    return tuple(Strip(line, width) for line in lines)


def warm(texts: list[str]) -> None:
    """Lay out these help texts at the usual widths now (in the zygote: every session
    forked from it finds them done)."""
    for text in texts:
        for width in USUAL_WIDTHS:
            help_lines(text, width)


class HelpText(ScrollView, can_focus=True):
    """A long Markdown text that scrolls; nothing is laid out again unless the width changes."""

    def __init__(self, text: str, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.text = text
        self._lines: tuple[Strip, ...] = ()

    def on_resize(self) -> None:
        width = max(20, self.scrollable_content_region.width)
        if not self._lines or self._lines[0].cell_length != width:
            self._lines = help_lines(self.text, width)
            self.virtual_size = Size(width, len(self._lines))
            self.refresh()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = y + scroll_y
        if index >= len(self._lines):
            return Strip.blank(self.size.width, self.rich_style)
        return self._lines[index].crop(scroll_x, scroll_x + self.size.width)
