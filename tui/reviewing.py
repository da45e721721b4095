"""Asking the server for a finished game's review (issue 32; docs/protocol.md `review`).

`ReviewRequests.fetch` sends `review {room}`, reports each `reviewing {done, total}`
that answers it and returns the review (docs/records.md's object); the app hands it
every answer (`answer`). `ReviewReplies`, mixed into `ClientApp`, is what the
player's `a` does in the game-over dialog and in past games (`ReviewAsked`): a
small window shows the progress, then the game opens in the replay viewer with
its review. Esc closes the window; the server computes on and keeps the review,
so asking again later gets it at once.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Static

from modernart.engine.review import MARK_PLURALS

from .lines import LinePanel
from .words import count

REVIEW_KEY = "a: review"  # the key as the dialogs' hints name it


class ReviewFailed(Exception):
    """The server refused the review, or the connection was lost; the message says why."""


@dataclass
class ReviewAsked(Message):
    """The player asks for the review of the finished game in `room`."""

    room: str


Progress = Callable[[int, int], None]


class ReviewRequests:
    """The reviews asked for and not answered yet, by request id."""

    def __init__(self) -> None:
        self._waiting: dict[int, tuple[asyncio.Future[dict[str, Any]], Progress]] = {}
        self.rooms: set[str] = set()  # the rooms whose review is on its way

    async def fetch(
        self, send: Callable[[dict[str, Any]], int | None], room: str, progress: Progress
    ) -> dict[str, Any]:
        """The review of `room`: `progress(done, total)` at each `reviewing`."""
        rid = send({"t": "review", "room": room})
        if rid is None:
            raise ReviewFailed("not connected: try again in a moment")
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = (future, progress)
        self.rooms.add(room)
        try:
            return await future
        finally:
            self._waiting.pop(rid, None)
            self.rooms.discard(room)

    def answer(self, msg: dict[str, Any]) -> bool:
        """A `reviewing`, `review` or `error` answering one of ours: True if it was."""
        waiting = self._waiting.get(msg.get("re"))  # type: ignore[arg-type]
        if waiting is None:
            return False
        future, progress = waiting
        if future.done():
            return True
        kind = msg.get("t")
        if kind == "reviewing":
            done, total = msg.get("done"), msg.get("total")
            if isinstance(done, int) and isinstance(total, int):
                progress(done, total)
        elif kind == "review" and isinstance(msg.get("review"), dict):
            future.set_result(msg["review"])
        elif kind == "error":
            future.set_exception(ReviewFailed(str(msg.get("message") or msg.get("code"))))
        else:
            future.set_exception(ReviewFailed("the server's answer could not be read"))
        return True

    def lost(self) -> None:
        """The connection dropped: the answers will not come."""
        for future, _ in self._waiting.values():
            if not future.done():
                future.set_exception(ReviewFailed("the connection was lost; ask again"))


def review_summary(review: dict[str, Any]) -> str:
    """ "The expert's review: 3 decisions marked (1 blunder, 2 mistakes) of 180; 16 worlds
    a decision." """
    decisions = review.get("decisions") or []
    marks = Counter(d.get("mark") for d in decisions if isinstance(d, dict) and d.get("mark"))
    parts = [
        count(n, m, MARK_PLURALS[m])
        for m in ("blunder", "mistake", "inaccuracy")
        if (n := marks[m])
    ]
    marked = sum(marks.values())
    said = f"{count(marked, 'decision')} marked" + (f" ({', '.join(parts)})" if parts else "")
    worlds = count(review.get("worlds") or 0, "world")
    return f"The expert's review: {said} of {len(decisions)}; {worlds} a decision."


class ReviewWait(ModalScreen[None]):
    """The review's progress: "decision 12 of 180"; Esc stops waiting (the server goes on)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "stop", "Stop waiting")]

    def __init__(self) -> None:
        super().__init__()
        self.done: tuple[int, int] | None = None  # (done, total) last shown
        self.stopped = False  # the player pressed Esc

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text("The expert reviews the game", style="bold"), classes="title")
            yield LinePanel("Asking the server…", id="review-progress")
            yield Static(Text("Esc: stop waiting (the review goes on; ask again later)", "dim"))

    def show(self, done: int, total: int) -> None:
        self.done = (done, total)
        if self.is_attached:
            line = f"Decision {done} of {total} reviewed"
            if not done:
                line = f"{count(total, 'decision')} to review"
            self.query_one("#review-progress", LinePanel).set_lines(line)

    def action_stop(self) -> None:
        self.stopped = True
        self.dismiss(None)

    def close(self) -> None:
        """The review is here (or refused): the window goes, unless the player closed it."""
        if not self.stopped and self.is_attached and self.app.screen is self:
            self.dismiss(None)


class ReviewReplies(App[None]):
    """The app's part about reviews; `ClientApp` provides what is declared here."""

    table: Any  # the table shown (tui/gametable.py), if any
    reviews: ReviewRequests
    review_of: dict[str, dict[str, Any]]  # reviews received, by room (shown in the viewer)

    def send(self, msg: dict[str, Any]) -> int | None:
        raise NotImplementedError

    def _tell(self, text: str) -> None:
        raise NotImplementedError

    def on_review_asked(self, message: ReviewAsked) -> None:
        self.review_game(message.room)

    def action_review_here(self) -> None:
        """a in a game-over dialog: the review of this table's game, over the dialog
        (closing the viewer comes back to it)."""
        room = self.table.room if self.table is not None else None
        if room is not None:
            self.review_game(room)

    @work(group="reviews", exit_on_error=False)
    async def review_game(self, room: str) -> None:
        """Show the progress; once the review is here, open the game in the viewer."""
        if room in self.reviews.rooms:
            self._tell("The expert is reviewing this game; it opens when the review is done.")
            return
        if room not in self.review_of:
            wait = ReviewWait()
            self.push_screen(wait)
            try:
                review = await self.reviews.fetch(self.send, room, wait.show)
            except ReviewFailed as exc:
                wait.close()
                self._tell(f"No review: {exc}")
                return
            wait.close()
            self.review_of[room] = review
            if wait.stopped:
                self._tell(f"The review of game {room} is ready: {REVIEW_KEY} opens it.")
                return
        self.send({"t": "record", "room": room})  # `_on_record` opens the viewer

    def _on_reviewing(self, msg: dict[str, Any]) -> None:
        self.reviews.answer(msg)

    def _on_review(self, msg: dict[str, Any]) -> None:
        self.reviews.answer(msg)
