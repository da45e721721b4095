"""The client's modal screens: dismissed once, and only from the top of the stack.

A terminal delivers keys typed ahead in one burst (an SSH session under load, a
player pressing Enter twice): the keys all reach the screen that was on top when the
app read them, so a dialog can get a second Enter after its first one dismissed it.
`ModalScreen.dismiss` pops whatever screen is on top, so that second Enter popped
the lobby under the dialog and a third raised `ScreenStackError` ("Can't pop screen")
on the last screen left. Here a dismiss of a screen that is not on top does nothing.

F1 opens the help over any dialog: Textual leaves the app's own keys out under a modal
screen (its bindings stop at the modal), so F1 over a game's final scores did nothing
(play-test, 2026-12-03). The help itself binds F1 to its close, which takes the place of this.
"""

from __future__ import annotations

from typing import ClassVar, TypeVar

from textual.await_complete import AwaitComplete
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen

ResultType = TypeVar("ResultType")


class Dialog(ModalScreen[ResultType]):
    """A modal screen whose `dismiss` is ignored unless it is the active screen; F1 opens
    the help over it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("f1", "app.help", "Help", show=False)]

    def dismiss(self, result: ResultType | None = None) -> AwaitComplete:
        if not self.is_active:  # dismissed already, or under another screen
            return AwaitComplete.nothing()
        return super().dismiss(result)
