"""Presence at every table, told the same way in every game: who is connected, away (a
stand-in bot plays for them), left or watching, whether a turn clock runs, and what a
stand-in did for you. `GameTable` uses it; a game's own code never tells these events.

The server's presence events (docs/protocol.md): `connected`, `disconnected`, `left`,
`autopilot` (a stand-in starts), `timeout` and `stand_in` (the events after it in the
same update are the move the server or the stand-in made for that seat), `watching`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from .words import seat_name

# Events that no game's `tell` sees: the table tells them (or shows them) itself.
PRESENCE_EVENTS = frozenset(
    {"connected", "disconnected", "left", "autopilot", "timeout", "stand_in", "watching"}
)
# Markers: the next event of that seat is a move made for it (see `stand_in_names`).
MARKERS = frozenset({"stand_in"})


class PresenceTeller:
    """Tells presence events in the log, once each: it remembers whose seat a stand-in
    plays, so that "is back" says the stand-in stops."""

    def __init__(self) -> None:
        self.stand_ins: set[int] = set()

    def line(
        self, event: dict[str, Any], names: Sequence[str], you: int | None
    ) -> tuple[str, str] | None:
        """(line, style) for a presence event, or None for one not told in words."""
        kind, seat = event.get("type"), event.get("seat")
        who = seat_name(names, seat, you)
        mine = who == "You"
        match kind:
            case "connected":
                if seat in self.stand_ins:
                    self.stand_ins.discard(seat)
                    back = "You are back" if mine else f"{who} is back"
                    return f"{back}: the stand-in stops", "bold"
                return ("You are back" if mine else f"{who} is back"), "dim"
            case "disconnected":
                return f"{who} lost the connection", "yellow"
            case "left":
                return f"{who} left the table", "yellow"
            case "autopilot":
                if seat in self.stand_ins:
                    return None
                if isinstance(seat, int):
                    self.stand_ins.add(seat)
                if mine:
                    return "You are away: a stand-in bot plays for you until you are back", "bold"
                return f"{who} is away: a stand-in bot plays for them until they are back", "bold"
            case "timeout":  # yours stands out: you may have been away (playtests)
                if mine:
                    return "Time ran out for you: the server moves for you", "bold yellow"
                return f"Time ran out for {who}: the server moves for them", ""
        return None


def stand_in_names(
    names: Sequence[str], seat: int, you: int | None, mover: str = "stand-in"
) -> tuple[list[str], str]:
    """The names to tell a move made for a seat with, and what to add to its line: your
    stand-in's move is "The stand-in bid 91 for you", another's "Bob's stand-in bid 91";
    `mover` "clock": your turn clock's is "The clock has sealed a bid for you"."""
    out = list(names)
    if seat == you:
        out[seat] = f"The {mover}"
        return out, " for you"
    out[seat] = f"{out[seat]}'s {mover}"
    return out, ""


def host_line(view: dict[str, Any]) -> str:
    """The waiting room's words to its host: bots while a seat is free, then the start
    (at 4/4 seated it still offered a bot: play-test 2026-12-05)."""
    seats = view.get("seats") or []
    if any(s.get("free") for s in seats):
        return "You host: b adds a bot (B: its level), s starts when all seats are taken."
    return "You host: every seat is taken; s starts the game."


def seat_presence(info: dict[str, Any]) -> str | None:
    """A seat's presence in a few words when it is not simply there: None for a
    connected player or a bot."""
    if info.get("free") or (info.get("bot") and not info.get("autopilot")):
        return None
    if info.get("autopilot"):  # gone (left or not) and played for: the short word
        return "stand-in"
    if info.get("left"):
        return "left"
    if not info.get("connected", True):
        return "offline"
    return None


def seat_status(info: dict[str, Any]) -> Text:
    """The short "on" column of a players table: bot, connected, away (a stand-in plays
    for them), left or off; in a replay (no presence) only whether a bot played."""
    if info.get("replay"):
        return Text("bot", style="cyan") if info.get("bot") else Text("")
    if info.get("free"):
        return Text("")
    if info.get("autopilot"):
        return Text("away", style="yellow")
    if info.get("left"):
        return Text("left", style="red")
    if info.get("bot"):
        return Text("bot", style="cyan")
    if info.get("connected", True):
        return Text("●", style="green")
    return Text("off", style="red")


def presence_text(view: dict[str, Any]) -> Text:
    """For the status line: the players not at the table ("Bob: stand-in", "Cy left"),
    after "paused" when the game waits for a player to come back (issue 28)."""
    text = Text()
    if view.get("paused"):
        text.append(" · paused", style="bold yellow")
    for seat, info in enumerate(view.get("seats") or []):
        if seat == view.get("you"):
            continue
        words = seat_presence(info)
        if words is not None:
            text.append(" · ")
            sep = ": " if words == "stand-in" else " "
            text.append(f"{info.get('name', '?')}{sep}{words}", style="yellow")
    return text


def table_facts(view: dict[str, Any], room: dict[str, Any]) -> list[str]:
    """For the log's title: how many watch, and "no clock" when decisions are not timed."""
    facts = []
    watching = view.get("spectators", room.get("spectators")) or 0
    if watching:
        facts.append(f"{watching} watching")
    options = room.get("options") or {}
    if view.get("status") == "playing" and options.get("turn_timeout_s", 1) == 0:
        facts.append("no clock")
    return facts
