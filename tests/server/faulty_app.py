"""The client with faults on keys, for the terminal sessions' fault tests (the zygote
serves it when `SshSettings.app` names it): F9 raises in the app, F10 blocks its
event loop, F11 spins in a loop that never yields."""

from __future__ import annotations

import time
from typing import ClassVar

from textual.binding import Binding, BindingType

from modernart.tui.app import ClientApp


class FaultyApp(ClientApp):
    BINDINGS: ClassVar[list[BindingType]] = [
        *ClientApp.BINDINGS,
        Binding("f9", "fault_raise", priority=True),
        Binding("f10", "fault_block", priority=True),
        Binding("f11", "fault_spin", priority=True),
    ]

    def action_fault_raise(self) -> None:
        raise RuntimeError("a fault injected by a test")

    def action_fault_block(self) -> None:
        time.sleep(3600)

    def action_fault_spin(self) -> None:
        while True:
            pass
