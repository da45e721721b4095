"""Helpers for pilot tests: wait for a condition; choose key presses from what the view allows."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot


async def until(pilot: Pilot[Any], cond: Callable[[], object], timeout: float = 10.0) -> None:
    """Let the app run until `cond()` is true; fail after `timeout` seconds."""
    async with asyncio.timeout(timeout):
        while not cond():
            await pilot.pause(0.02)


def shown(app: Any, screen_class: type) -> bool:
    """Whether `app` shows a `screen_class` whose widgets are composed: a pushed screen
    is `app.screen` at once, its children only once it has mounted."""
    return isinstance(app.screen, screen_class) and app.screen.is_mounted


def digits(amount: int) -> list[str]:
    return list(str(amount))


def keys_for(view: dict[str, Any]) -> list[str]:
    """The key presses of a simple but complete player: every decision uses the keyboard."""
    legal = view.get("legal") or {}
    phase = view.get("phase")
    if "play" in legal:
        return ["enter"]
    if "add" in legal:
        return ["enter"] if legal["add"] else ["d"]
    if "sealed" in legal:
        low, high = legal["sealed"]
        return ["backspace", "backspace", *digits(min(high, 2)), "enter"]
    if "price" in legal:
        low, high = legal["price"]
        return ["backspace", "backspace", *digits(max(low, min(high, 6))), "enter"]
    if "buy" in legal:
        return ["y"] if (view.get("price") or 0) <= 4 else ["p"]
    if phase == "open":
        if view.get("high") is None and "bid" in legal:
            return ["plus"]  # the quick raise: the minimum bid at once
        return ["p"] if "pass" in legal else []
    if phase == "once_around" and "pass" in legal:
        return ["enter"] if view.get("high") is None and "bid" in legal else ["p"]
    return []


def text_of(widget: Any) -> str:
    """The plain text a Static shows now."""
    return str(widget.content)


def log_text(app: Any) -> str:
    """Everything the event log shows, as one string (wrapped lines joined by spaces)."""
    from modernart.tui.eventlog import EventLog

    return " ".join(strip.text.rstrip() for strip in app.table.query_one(EventLog).lines)
