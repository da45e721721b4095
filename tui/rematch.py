"""The rematch in sight (issue 28): the table's keys for it (`R` accepts, `D` declines), its
state in words for the log, the status line and the game-over dialog, and the dialog's
line that follows the answers as they come (`rematch`, docs/protocol.md).

`RematchKeys` is mixed into `GameTable` (tui/gametable.py); each game's end dialog yields a
`RematchLine` and names `R` in its hint (`DIALOG_KEYS`); Modern Art's and Serengeti's
dialogs take their keys from `GAME_OVER_BINDINGS`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.screen import Screen

from .lines import LinePanel
from .messages import SendToServer
from .reviewing import REVIEW_KEY

# The rematch's key as every place names it: the end dialogs' hint, the log, the footer
# ("R Rematch") and F1 (play-tests 2026-12-03 evening #3: it was "r", "R" and "R: accept").
REMATCH_KEY = "R: rematch"
# The end dialogs' hint line: every key they take (R, D, a, s, Enter, q; r and d work
# too). Within 70 columns: the dialogs' width at 80×24.
DIALOG_KEYS = f"{REMATCH_KEY}  D: decline  {REVIEW_KEY}  s: save  Enter: close  q: quit"
# A game-over dialog's keys (its `choose` dismisses with the word)
GAME_OVER_BINDINGS: list[BindingType] = [
    Binding("s", "choose('save')", "Save record"),
    Binding("a", "app.review_here", "Review"),  # over the dialog (tui/reviewing.py)
    Binding("R,r", "choose('rematch')", "Rematch"),
    Binding("D,d", "choose('decline')", "Decline"),
    Binding("enter,escape", "choose('close')", "Back to the table"),
    Binding("q", "choose('quit')", "Quit"),
]

AFTER_GAME_HELP = (
    "## After the game\n\n"
    "**R** (at the table or in the game-over dialog) asks for a rematch: the same "
    "table again (seats, bots, options; the next player starts) in a new room named "
    '"… · rematch". It starts when every player has accepted; the status line, the '
    "dialog and the log say who has. **D** declines (or takes an accept back). Those "
    "watching the table watch the rematch too. **s** saves the game record; **L** leaves. "
    "**a** in the game-over dialog (or in past games, **p** in the lobby) asks for the "
    "expert's review of the game: each decision marked, the better move named; the "
    "server computes it once, then the game opens in the replay viewer."
)


def _names(seats: Any, names: Sequence[str], you: int | None) -> list[str]:
    seats = seats if isinstance(seats, list) else []
    return [
        "you" if s == you and you is not None else names[s] if 0 <= s < len(names) else "?"
        for s in seats
        if isinstance(s, int)
    ]


def rematch_words(msg: dict[str, Any], names: Sequence[str], you: int | None) -> str:
    """ "Rematch: Ann accepted (1 of 2); waiting for Bob" — who has answered what."""
    humans = msg.get("humans") or []
    accepted = _names(msg.get("accepted"), names, you)
    declined = _names(msg.get("declined"), names, you)
    if msg.get("new_room"):
        if you is None:
            return "The players started a rematch: you watch it too (L leaves)."
        return "Rematch: everyone accepted; the new game starts."
    answered = set(msg.get("accepted") or []) | set(msg.get("declined") or [])
    waiting = _names([s for s in humans if s not in answered], names, you)
    parts = [f"{', '.join(accepted) or 'nobody'} accepted ({len(accepted)} of {len(humans)})"]
    if declined:
        parts.append(f"{', '.join(declined)} declined")
    if waiting:
        parts.append(f"waiting for {', '.join(waiting)}")
    return "Rematch: " + "; ".join(parts)


def _your_keys(you: int, msg: dict[str, Any]) -> str:
    """What you may still answer: an accept can be taken back, a decline changed."""
    if you in (msg.get("accepted") or []):
        return "D: take it back"
    if you in (msg.get("declined") or []):
        return f"{REMATCH_KEY} after all"
    return f"{REMATCH_KEY}, D: decline"


class RematchLine(LinePanel):
    """The rematch's state in a game-over dialog, kept up to date by the table."""

    def on_mount(self) -> None:
        self.display = False
        for screen in self.app.screen_stack:
            if isinstance(screen, RematchKeys) and screen.rematch:
                self.show(screen.rematch_text())

    def show(self, text: str) -> None:
        self.display = bool(text)
        self.set_lines(Text(text, style="bold"))


class RematchKeys(Screen[None]):
    """The table's part of the rematch: `R`/`D`, and what it says of the answers."""

    view: dict[str, Any]
    room: str | None
    _rematch: dict[str, Any] | None = None  # the latest `rematch` message

    @property
    def rematch(self) -> dict[str, Any]:
        """The latest `rematch` of this room (a rematch's table starts with none)."""
        msg = self._rematch or {}
        return msg if msg.get("room") == self.room else {}

    @property
    def names(self) -> list[str]:
        raise NotImplementedError

    def note(self, text: str, style: str = "dim") -> None:
        raise NotImplementedError

    def draw_status(self) -> None:
        raise NotImplementedError

    def rematch_shown(self, accept: bool) -> bool:
        """`R` while you have not accepted, `D` while you have not declined: a player's
        keys once the game is over and until the rematch starts."""
        you = self.view.get("you")
        if not self.view.get("finished") or you is None or self.rematch.get("new_room"):
            return False
        answered = self.rematch.get("accepted" if accept else "declined") or []
        return you not in answered

    def rematch_status(self) -> str:
        """The status line's part: " · rematch 1/2" once someone has answered, and how
        many declined (a decline may still become an accept, so the count stays)."""
        accepted = self.rematch.get("accepted") or []
        declined = self.rematch.get("declined") or []
        if not self.view.get("finished") or self.rematch.get("new_room"):
            return ""
        if not accepted and not declined:
            return ""
        said = f" · rematch {len(accepted)}/{len(self.rematch.get('humans') or [])}"
        return said + (f", {len(declined)} declined" if declined else "")

    def rematch_text(self) -> str:
        return rematch_words(self.rematch, self.names, self.view.get("you"))

    def action_rematch(self, accept: bool) -> None:
        """R: the same table again (D: no); it starts once every human accepted."""
        if not (self.view.get("finished") and self.room and self.view.get("you") is not None):
            self.app.bell()
            return
        self.post_message(SendToServer({"t": "rematch", "room": self.room, "accept": accept}))

    def show_rematch(self, msg: dict[str, Any]) -> None:
        """Who has answered the rematch so far (`rematch`, docs/protocol.md): in the log,
        the status line, the footer's keys and an open game-over dialog."""
        self._rematch = msg
        text = self.rematch_text()
        you = self.view.get("you")
        if you is not None and not msg.get("new_room"):
            text += " · " + _your_keys(you, msg)
        self.note(text, "bold")
        for screen in self.app.screen_stack:
            for line in screen.query(RematchLine):
                line.show(self.rematch_text())
        self.draw_status()
        self.refresh_bindings()
