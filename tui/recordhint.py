"""How a door gives a player a game's record, said when `s` is pressed in a session that
runs on the server (SSH, browser): the door's hint (`records_hint`, ROOM: the room) in the
log, and a command to run (the SSH door's `scp …`) whole in a dialog, where it is copied
in one piece (play-tests 2026-12-03 evening #4: in the log, 35 columns wide at 80×24, the
command wrapped and its final `.` landed alone on the next line)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from .dialog import Dialog

# how the SSH door's hint gives its command (server/doors/ssh/records.py)
RUN = "run on your machine: "
SENTENCE = "To keep this game's record, "


def record_hint(hint: str, room: str) -> tuple[str, str | None]:
    """The sentence for the log and the command on its own, if the hint holds one."""
    hint = hint.replace("ROOM", room)
    if hint.startswith(RUN):
        return SENTENCE + RUN.rstrip(), hint.removeprefix(RUN)
    return SENTENCE + hint, None


class RecordCommand(Dialog[None]):
    """The command that fetches a record, on one line of its own (Esc or Enter closes)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter", "close", "Close")]

    def __init__(self, sentence: str, command: str) -> None:
        super().__init__()
        self.sentence, self.command = sentence, command

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self.sentence))
            # 70 columns: an SSH door's command fits whole (a host name of over 20 does not).
            yield Static(Text(self.command, style="bold", overflow="fold"), id="record-command")
            yield Static(Text("The log keeps it too. Enter or Esc closes.", style="dim"))

    def action_close(self) -> None:
        self.dismiss(None)
