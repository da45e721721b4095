"""What happens to a game while you are away from it, in the words a player reads before
leaving (`L`, Ctrl+Q) and in the log when a game waits for its players (issue 28: the
leave dialog promised a stand-in bot to a player whose game then paused)."""

from __future__ import annotations

from typing import Any


def _others_here(view: dict[str, Any]) -> bool:
    """Another seated human is connected (a bot or a stand-in is not one)."""
    you = view.get("you")
    return any(
        info.get("connected", True) and not info.get("bot")
        for seat, info in enumerate(view.get("seats") or [])
        if seat != you
    )


def _duration(seconds: int) -> str:
    return f"{seconds} s" if seconds < 120 else f"{seconds // 60} min"


def while_away(view: dict[str, Any], room: dict[str, Any]) -> str:
    """What the server does with your seat once you are gone: the game pauses if no
    other player is at the table (bots never play a whole game alone on a public
    server), else a stand-in bot or the turn clock moves for you (the room's options)."""
    if not _others_here(view):
        return (
            "No other player is at the table: the game pauses (no bot moves, no clock "
            "runs) until one comes back; after a long while (usually 30 min) with nobody, "
            "it ends as abandoned, a loss for you."
        )
    options = room.get("options") or {}
    takeover, clock = options.get("takeover_s", 60), options.get("turn_timeout_s", 0)
    if takeover:
        return f"The others play on: a stand-in bot plays for you after {_duration(takeover)}."
    if clock:
        return "The others play on: when your turn's clock runs out, the server moves for you."
    return "The others play on and wait for you at your turns."


def pause_line(previous: dict[str, Any], view: dict[str, Any]) -> tuple[str, str] | None:
    """The log's line when the game stops waiting or starts to (the view's `paused`)."""
    if view.get("paused") and not previous.get("paused"):
        return "No player is at the table: the game is paused until one comes back", "bold"
    if previous.get("paused") and not view.get("paused") and view.get("status") == "playing":
        return "The game goes on", "bold"
    return None


def status_word(room: dict[str, Any]) -> str:
    """A room summary's status for the lobby: a running game nobody is at is "paused"."""
    status = str(room.get("status", "?"))
    return "paused" if status == "playing" and room.get("paused") else status
