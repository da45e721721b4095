"""The client in the browser door's page (server/doors/web/): what differs from a terminal.

A browser keeps some keys for itself, and a page cannot take them back: Firefox on Linux
quits itself on Ctrl+Q (Chrome, Edge and Safari pass it to the page, where it quits the
session as anywhere). So in a browser the footer does not offer Ctrl+Q (it still works
where it arrives) and F1 says how to leave: close the tab, the seat is kept
(docs/decisions/28-web.md)."""

from __future__ import annotations

from textual.binding import Binding, BindingsMap

QUIT_KEY = "ctrl+q"

HELP = (
    "In a browser: to stop playing, close the tab; your seat is kept, and this page "
    "brings you back to it. Ctrl+Q quits here as well where the browser lets it through "
    "(Chrome, Edge, Safari), so the footer does not offer it: Firefox on Linux quits "
    "itself on Ctrl+Q. Your finished games' records: **Your finished games** below the "
    "terminal."
)


def seat_kept(where: str) -> str:
    """The quit dialog's line on coming back, `where` the client runs (ClientApp.where)."""
    if where == "browser":
        return "Your seat is kept: press a key here (or open the page again) to come back."
    return "Your seat is kept: run the same command again to come back."


def unlist_quit(bindings: BindingsMap) -> None:
    """Ctrl+Q stays bound, out of the footer (a browser may take it for itself)."""
    bindings.key_to_bindings[QUIT_KEY] = [
        Binding(QUIT_KEY, "quit", "Quit", show=False, priority=True)
    ]
