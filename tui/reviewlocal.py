"""The review computed in the viewer itself (`modernart view FILE`, key a): the expert
reviews the record in a worker thread, decision after decision, while the table stays
live; the status line tells "review: decision k of n", and the finished review is
handed to the open viewer (`show_review`) as a stored one would be.

An app that can get a review offers `request_review(replay)` (the replay viewer's key a
asks for one only then): this mixin computes it here; a client of a server would ask
the server for its stored one instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.worker import get_current_worker

from modernart.engine.review import ReviewError, review_decisions, review_object

if TYPE_CHECKING:
    from .replay import Replay


def decisions_in(replay: Replay) -> int:
    """How many decisions a review of the replay's record weighs (its players' actions)."""
    seat = [a.get("seat") for a in replay.record.actions if isinstance(a, dict)]
    return sum(1 for s in seat if isinstance(s, int) and not isinstance(s, bool))


class ReviewWorker:
    """Mixed into an App: `request_review` computes a review with `review_worlds` worlds."""

    review_worlds: int

    def request_review(self, replay: Replay) -> None:
        replay.reviewing = (0, decisions_in(replay))
        self._redraw(replay)
        self.run_worker(  # type: ignore[attr-defined]
            lambda: self._review(replay), thread=True, exclusive=True, group="review"
        )

    def _review(self, replay: Replay) -> None:
        """In the worker thread: the decisions one at a time, each told to the app."""
        worker = get_current_worker()
        call = self.call_from_thread  # type: ignore[attr-defined]
        done = []
        try:
            for decision in review_decisions(replay.record, self.review_worlds):
                if worker.is_cancelled:
                    return
                done.append(decision)
                call(self._progress, replay, len(done))
        except ReviewError as exc:
            call(self._failed, replay, str(exc))
            return
        if not worker.is_cancelled:
            call(self._done, replay, review_object(replay.record, self.review_worlds, done))

    def _screen(self, replay: Replay) -> Any:
        stack = self.screen_stack  # type: ignore[attr-defined]
        return next((s for s in stack if getattr(s, "replay", None) is replay), None)

    def _redraw(self, replay: Replay) -> None:
        screen = self._screen(replay)
        if screen is not None and screen.is_mounted:
            screen.draw_status()
            screen.refresh_bindings()

    def _progress(self, replay: Replay, done: int) -> None:
        if replay.reviewing is not None:
            replay.reviewing = (done, replay.reviewing[1])
        self._redraw(replay)

    def _failed(self, replay: Replay, message: str) -> None:
        replay.reviewing = None
        self._redraw(replay)
        screen = self._screen(replay)
        if screen is not None:
            screen.note(f"No review: {message}", "bold red")

    def _done(self, replay: Replay, review: dict[str, Any]) -> None:
        replay.reviewing = None
        screen = self._screen(replay)
        if screen is None:
            replay.set_review(review)
        else:
            screen.show_review(review)
