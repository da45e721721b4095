"""Who of a worker's sessions takes the game's news first (issue 31).

A new auction or a shout reaches every session at its table at once, and the apps of
one worker draw it one after the other on one event loop: 20–40 ms of CPU each. When
CPU is short, that order decides whose shout comes late. So the server's messages do
not go straight to the apps: the worker collects those that arrive in one turn of
its loop and hands them on in order of rank (`rank_of`):

1. `ACTING`: the player must act now (its seat is in the view's `to_act` with legal
   actions: its turn, or an open auction it may shout in);
2. `SEATED`: a player at a table, not to act;
3. `WATCHING`: spectators and sessions in the lobby.

and a session of a lower rank gets its news only once the news handed to every
session of a higher rank is on their screens (Textual's `call_after_refresh`: the
app handled it and its screen was drawn), or after `HOLD` seconds (an app that never
draws does not hold the others for long). Nothing is dropped or reordered within a
session: each session's messages are handed on in the order they came.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from modernart.server.doors.terminal.fairness import NOBODY

ACTING, SEATED, WATCHING = 0, 1, 2
HOLD = 0.25  # seconds a higher rank's news may keep the lower ranks' waiting


class App(Protocol):
    """What the order needs of a client app (Textual's `App` has both)."""

    def post_message(self, message: Any) -> bool: ...

    def call_after_refresh(self, callback: Callable[[], None]) -> bool: ...


def rank_of(msg: dict[str, Any], rank: int) -> int:
    """The rank of a session after the server's `msg`: a game update says whether its
    player is seated and must act; the room list that the player is in the lobby; any
    other message leaves the rank as it was (`rank`)."""
    kind = msg.get("t")
    if kind == "update":
        view = msg.get("view")
        you = view.get("you") if isinstance(view, dict) else None
        if not isinstance(you, int) or isinstance(you, bool):
            return WATCHING
        to_act = view.get("to_act")  # type: ignore[union-attr]
        acting = isinstance(to_act, list) and you in to_act and view.get("legal")  # type: ignore[union-attr]
        return ACTING if acting else SEATED
    if kind == "rooms":
        return WATCHING
    return rank


class News:
    """One session's messages from its connection on their way to its app."""

    def __init__(self, order: NewsOrder, app: App) -> None:
        self.order = order
        self.app = app
        self.rank = WATCHING
        self.held: deque[Any] = deque()  # the app's messages, in the order they came
        self.drawing = 0  # messages handed on whose screen is not drawn yet
        self.since = 0.0  # when the oldest of those was handed on

    def deliver(self, message: Any) -> None:
        """A message for this session's app from its connection: one from the server
        (`message.msg`: its fields) or a change of the connection's state."""
        msg = getattr(message, "msg", None)
        if isinstance(msg, dict):
            self.rank = rank_of(msg, self.rank)
        self.held.append(message)
        self.order.want(self)

    def close(self) -> None:
        """The session ended: what it still holds goes nowhere, and holds nobody."""
        self.held.clear()
        self.drawing = 0
        self.order.forget(self)


class NewsOrder:
    """The order in which one worker's sessions get their news (the module's docstring)."""

    def __init__(self, hold: float = HOLD, clock: Callable[[], float] = time.monotonic) -> None:
        self.hold = hold
        self.clock = clock
        self.waiting: list[News] = []  # sessions holding news, in the order it came
        self.drawing: set[News] = set()  # sessions whose news is being drawn
        self._flush: asyncio.Handle | None = None
        self._timer: asyncio.TimerHandle | None = None

    def session(self, app: App) -> News:
        return News(self, app)

    def want(self, news: News) -> None:
        if news not in self.waiting:
            self.waiting.append(news)
        self._soon()

    def forget(self, news: News) -> None:
        if news in self.waiting:
            self.waiting.remove(news)
        self.drawing.discard(news)
        self._soon()

    def floor(self) -> int:
        """The lowest rank whose news may be handed on now: none below the highest
        rank still drawing its news (for `hold` seconds at most)."""
        now = self.clock()
        ranks = [n.rank for n in self.drawing if now - n.since < self.hold]
        return min(ranks, default=WATCHING)

    def _soon(self) -> None:
        """Hand news on at the loop's next turn: whatever arrives in this one is ordered
        with it."""
        if self._flush is None:
            loop = asyncio.get_running_loop()
            self._flush = loop.call_soon(self._hand_on, context=NOBODY)

    def _hand_on(self) -> None:
        self._flush = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for news in sorted(self.waiting, key=lambda n: n.rank):  # stable: first come first
            if news.rank > self.floor():
                break
            self.waiting.remove(news)
            while news.held:
                self._post(news, news.held.popleft())
        now = self.clock()
        ends = [n.since + self.hold for n in self.drawing if n.since + self.hold > now]
        if self.waiting and ends:  # held back: at the latest until the hold ends
            loop = asyncio.get_running_loop()
            self._timer = loop.call_later(min(ends) - now, self._soon, context=NOBODY)

    def _post(self, news: News, message: Any) -> None:
        if not news.app.post_message(message) or news.rank == WATCHING:
            return  # nobody waits for a spectator's or the lobby's screen
        if news.drawing == 0:
            news.since = self.clock()
        if news.app.call_after_refresh(lambda: self._drawn(news)):
            news.drawing += 1
            self.drawing.add(news)

    def _drawn(self, news: News) -> None:
        news.drawing = max(0, news.drawing - 1)
        if news.drawing == 0 and news in self.drawing:
            self.drawing.discard(news)
            if self.waiting:
                self._soon()
