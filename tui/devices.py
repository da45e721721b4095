"""This identity's devices (issue 33): `d` in the lobby lists them; `x` revokes one.

Every device that plays the identity (this one, and each that took a `k` code)
holds a token of its own; the list shows where each one was last used from and
when, never a token (`devices`, `revoke_device`: docs/protocol.md). A revoked
device's token stops working at once. One identity plays in one place at a time:
a window whose identity another device took over stops and says which
(`replaced_note`).
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Static

from .confirm import Confirm
from .messages import SendToServer
from .people import PeopleScreen


def replaced_note(name: str, by: str) -> str:
    """Why this window stopped (close 4000): `by` names the device that took over, ""
    when it was this device again (another window) or the server did not say."""
    if not by:
        return (
            f"{name} is now open in another window on this server (one name is one "
            "player). This window stopped: quit it with Ctrl+Q, or play under another name."
        )
    return (
        f"{name} is now played from another device ({by}): one identity plays in one "
        f"place at a time. This window stopped: quit it with Ctrl+Q; start it again to "
        f"play {name} here (d in the lobby lists the devices)."
    )


def when(stamp: Any) -> str:
    return time.strftime("%m-%d %H:%M", time.localtime(stamp)) if isinstance(stamp, int) else ""


class DevicesScreen(PeopleScreen):
    """The devices that play this identity, oldest first; `x` revokes the selected one."""

    TITLE_TEXT = "Your devices"
    ANSWER = "devices"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("x,delete", "revoke", "Revoke")]

    def __init__(self) -> None:
        super().__init__()
        self.devices: list[dict[str, Any]] = []

    def columns(self) -> tuple[str, ...]:
        return ("Device", "Added", "Last here")

    def request(self) -> dict[str, Any]:
        return {"t": "devices"}

    def show(self, msg: dict[str, Any]) -> None:
        self.devices = [d for d in msg.get("devices") or [] if isinstance(d, dict)]
        table = self.query_one(DataTable)
        table.clear()
        for d in self.devices:
            label = Text(str(d.get("label", "?")))
            if d.get("current"):
                label.append(" (this one)", style="bold")
            seen = "now" if d.get("current") else when(d.get("seen"))
            table.add_row(label, when(d.get("created")), seen)
        count = len(self.devices)
        self.draw_title("1 device plays" if count == 1 else f"{count} devices play")
        hint = "x: revoke the selected device (it must take a new code, k, to play here)"
        if msg.get("revoked"):
            hint = "Revoked: its token no longer works. " + hint
        self.query_one("#people-hint", Static).update(Text(hint, style="dim"))

    def action_revoke(self) -> None:
        table = self.query_one(DataTable)
        if not self.devices or table.cursor_row >= len(self.devices):
            self.app.bell()
            return
        device = self.devices[table.cursor_row]
        if device.get("current"):
            self.query_one("#people-hint", Static).update(
                Text("That is this device: revoke another one, or quit here.", style="bold red")
            )
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self.post_message(SendToServer({"t": "revoke_device", "device": device["id"]}))

        label = str(device.get("label", "?"))
        detail = "Its token stops working at once; a session open there ends."
        self.app.push_screen(Confirm(f"Revoke {label}?", detail, "keep it"), answer)
