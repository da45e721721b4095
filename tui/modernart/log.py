"""Modern Art's event log: each event told in plain language, the round's end in bold."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from ..eventlog import EventLog
from .narrate import mark_round_enders, narrate

_EMPHASIS = {"sold": "bold", "free": "bold", "round_end": "bold yellow", "game_end": "bold yellow"}
# The hammer's ticks are shown by the auction panel's clock; in the log they would
# push the bids out of sight.
_NOT_LOGGED = {"going"}
SHOUTS_SHOWN = 12  # a run of shouts' line shows the last this many


class ModernArtLog(EventLog):
    """The event log told in Modern Art's words (narrate.py)."""

    def add_events(
        self, events: list[dict[str, Any]], names: Sequence[str], you: int | None = None
    ) -> None:
        for event in mark_round_enders(events):
            if event.get("type") in _NOT_LOGGED:
                continue
            line = narrate(event, names, you)
            if not line:
                continue
            kind = event.get("type")
            if not self.suffixed and (kind == "bid" or (kind == "pass" and self.run)):
                self._shout(line)
                continue
            style = "bold red" if event.get("ends_round") else ""
            self._add(Text(line, style=_EMPHASIS.get(event.get("type", ""), style)))

    def _shout(self, line: str) -> None:
        """R12: a run of bids is one line that grows ("Bids: Bob 12, Cy 15, you 18"),
        not a line per shout; anything else told ends the run."""
        if line.endswith((" pass", " passes")):  # a pass inside the run ("Cy passes")
            who, _, verb = line.rpartition(" ")
            shout = f"{'you' if who == 'You' else who} {verb}"
        else:
            who, _, amount = line.rpartition(" bid")
            shout = f"{'you' if who == 'You' else who} {amount.removeprefix('s').strip()}"
        if self.run is None:
            self._add(Text(line))
            self.run = [shout]
            return
        shouts = [*self.run, shout]
        self.replace_last(Text("Bids: " + ", ".join(shown_shouts(shouts))))
        self.run = shouts


def shown_shouts(shouts: list[str]) -> list[str]:
    """The shouts a run's line shows: the last SHOUTS_SHOWN, "…" for those left out,
    and your own latest bid kept in its place among them, so that you see it was taken
    however long the auction runs (issue 28)."""
    if len(shouts) <= SHOUTS_SHOWN:
        return shouts
    cut = len(shouts) - SHOUTS_SHOWN
    bids = [i for i, s in enumerate(shouts) if s.startswith("you ") and not s.endswith(" pass")]
    if not bids or bids[-1] >= cut:
        return ["…", *shouts[cut:]]
    mine = bids[-1]
    before = ["…"] if mine > 0 else []
    between = ["…"] if mine < cut - 1 else []
    return [*before, shouts[mine], *between, *shouts[cut:]]
