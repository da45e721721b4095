"""The event log's story from a table's events (live, or a `history` answer): presence and
stand-ins told by the table, the game's own events by its `tell`, ratings at the end, and
what was said before the player came in. Mixed into `GameTable` (tui/gametable.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .away import pause_line
from .eventlog import EventLog
from .presence import MARKERS, PRESENCE_EVENTS, PresenceTeller, stand_in_names
from .ratingwords import rated_line


class TableHistory:
    """`add_history` and `history_done`, the app's calls for the log (see GameTable)."""

    view: dict[str, Any]
    presence: PresenceTeller
    earlier_chat: list[Any]

    if TYPE_CHECKING:  # the table's own, for the type checker
        names: list[str]

        def _later(self, call: Callable[[], None]) -> bool: ...
        def tell(
            self, events: list[dict[str, Any]], names: Sequence[str], you: int | None
        ) -> None: ...
        def note(self, text: str, style: str = "dim") -> None: ...
        def add_chat(self, sender: str, text: str, watching: bool = False) -> None: ...
        def query_one(self, selector: str, expect_type: type[EventLog]) -> EventLog: ...

    def add_history(self, events: list[dict[str, Any]]) -> None:
        """Events for the log (live, or a `history` answer): presence told here, the
        game's events by `tell`; a stand-in's move is told as the stand-in's."""
        if self._later(lambda: self.add_history(events)):
            return
        names, you = self.names, self.view.get("you")
        run: list[dict[str, Any]] = []  # the game's events not yet told
        told = False  # `tell` has had this update (a game may tell the state's news)

        def flush() -> None:
            nonlocal told
            if run:
                self.tell(list(run), names, you)
                run.clear()
                told = True

        stand_in: int | None = None  # the seat whose next event is a move made for it
        mover = "stand-in"
        for i, event in enumerate(events):
            kind, seat = event.get("type"), event.get("seat")
            if kind in PRESENCE_EVENTS:
                flush()
                if kind in MARKERS:
                    stand_in = seat if isinstance(seat, int) and 0 <= seat < len(names) else None
                    mover = "stand-in"
                    continue
                if kind == "timeout" and seat == you and seat is not None:
                    # "You have sealed a bid" read as the player's own (play-test 2026-12-05)
                    stand_in, mover = seat, "clock"
                told = self.presence.line(event, names, you)
                if told is not None:
                    self.note(*told)
                continue
            if stand_in is not None and seat == stand_in and not self._ends_round(events, i):
                flush()
                self._tell_stand_in(event, stand_in, names, you, mover)
                stand_in = None
                continue
            run.append(event)
        flush()
        if not told:
            self.tell([], names, you)  # e.g. Serengeti's first auction, which has no event
        for event in events:
            if event.get("type") == "rated":
                self.note(rated_line(self.names, event), "bold")

    def history_done(self) -> None:
        """The history is in the log: what was said before you came in follows it, where
        the eye is (`joined.chat`, issue 28; seats are told by the history's presence)."""
        if self._later(self.history_done):
            return
        lines, self.earlier_chat = [x for x in self.earlier_chat if isinstance(x, dict)], []
        if lines:
            self.note(f"Said here before you came in (the last {len(lines)}):")
        for line in lines:
            name, text = str(line.get("from", "?")), str(line.get("text", ""))
            self.add_chat(name, text, watching="seat" in line and line["seat"] is None)
        if (paused := pause_line({}, self.view)) is not None:  # the state now, last
            self.note(*paused)

    @staticmethod
    def _ends_round(events: list[dict[str, Any]], i: int) -> bool:
        """The move is told with the round's end that follows it (Modern Art's R18)."""
        return i + 1 < len(events) and events[i + 1].get("type") == "round_end"

    def _tell_stand_in(
        self, event: dict[str, Any], seat: int, names: Sequence[str], you: int | None, mover: str
    ) -> None:
        """ "The stand-in bid 91 for you": the move in the third person, never "You bid"."""
        names_now, after = stand_in_names(names, seat, you, mover)
        log = self.query_one("#log", EventLog)
        with log.appending(after):
            self.tell([event], names_now, None)
