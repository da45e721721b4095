"""Keys typed after an action and before the server's answer to it (play-tests 2026-12-03,
#1): `Enter 7 Enter` in one burst, playing a sealed card and bidding 7, played the card and
lost the bid, because the 7 came before the view that asked for it.

While an answer is due (an action sent, and no view since whose choices differ from the
ones it was chosen from), digits that no widget takes, and the Enter and Backspace typed
after them, are held instead of going to whatever has the focus (the hand's Enter would
play another card). The answer's view hands them to the game (`take_ahead`): Modern Art
types them into the amount it asks for, and sends it if Enter was held too. A game, or a
view, that asks for no amount drops them, and the log says so: nothing is sent that the
player did not see asked."""

from __future__ import annotations

from typing import Any

from textual import events

HELD_AFTER_DIGITS = ("enter", "backspace")


class TypeAhead:
    """Mixed into `GameTable` (tui/gametable.py): `expect_answer` when an action is sent,
    `hold` from a game's key handler, `answered` with every view."""

    _due_from: dict[str, Any] | None = None  # the choices the action came from
    _ahead: tuple[str, ...] = ()  # keys held for the answer (while `_due_from` is set)

    def expect_answer(self, legal: dict[str, Any]) -> None:
        """An action chosen from `legal` is on its way (the keys already held for it stay:
        a key that acts may say so before its action is sent)."""
        if self._due_from != legal:
            self._due_from, self._ahead = legal, ()

    def hold(self, event: events.Key) -> bool:
        """Whether `event` is held for the answer (the caller stops it)."""
        if self._due_from is None:
            return False
        char = event.character or ""
        digit = char.isdigit()
        if digit or (self._ahead and event.key in HELD_AFTER_DIGITS):
            self._ahead += (char if digit else event.key,)
            return True
        return False

    def answered(self, legal: dict[str, Any]) -> None:
        """A new view: if its choices differ from those the action came from, it is the
        answer, and the held keys are the game's to use."""
        if self._due_from is not None and legal != self._due_from and (keys := self._held()):
            self.take_ahead(keys)

    def refused(self) -> None:
        """The server refused the action: what was typed after it goes with it."""
        if keys := self._held():
            self.drop_ahead(keys)

    def _held(self) -> tuple[str, ...]:
        """The keys held (none unless a digit is among them); nothing is due any more."""
        keys, self._due_from, self._ahead = self._ahead, None, ()
        return keys if any(key.isdigit() for key in keys) else ()

    def take_ahead(self, keys: tuple[str, ...]) -> None:
        """Use the keys held for this answer (digits, "enter", "backspace")."""
        self.drop_ahead(keys)

    def drop_ahead(self, keys: tuple[str, ...]) -> None:
        typed = ""
        for key in keys:
            if key == "enter":
                break
            typed = typed[:-1] if key == "backspace" else typed + key
        if typed:
            self.note(f"{typed} was typed before anything asked for it: not sent")

    def note(self, text: str, style: str = "dim") -> None:
        raise NotImplementedError  # the table's log (GameTable.note)
