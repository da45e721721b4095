"""The lobby's room list: bounded pages, each built and packed once per change.

A `rooms` request or push never walks the rooms nor packs a summary itself: it
takes the page's packed entries from the cache (rebuilt after a change, and at
least once a second so that a summary change nobody announced shows too) and
only adds its own `re`. However many rooms wait, a page holds at most
`PAGE_SIZE` summaries, far below any client's frame limit.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from modernart.server.rooms.room import FINISHED, PLAYING, WAITING, Room
from modernart.server.wire.codec import encode, encode_entries, map_header

PAGE_SIZE = 50  # summaries in one `rooms` message (each well under 1 KiB)
MAX_AGE = 1.0  # seconds a built page is served without a known change
STATUSES = (WAITING, PLAYING, FINISHED)


class RoomList:
    """Pages of the lobby list: waiting rooms, newest first, then running games,
    then finished ones (for `finished_listed_s`), each newest first (or only one of
    them, with `status`)."""

    def __init__(self, rooms: Callable[[], Iterable[Room]]) -> None:
        self._rooms = rooms
        self._pages: dict[tuple[str | None, str | None, int], tuple[int, bytes]] = {}
        # (game or None for all) -> (status or None for both) -> rooms in list order
        self._order: dict[str | None, dict[str | None, list[Room]]] = {}
        self._built = 0.0

    def changed(self) -> None:
        self._pages.clear()
        self._order.clear()

    def _ordered(self, status: str | None, game: str | None = None) -> list[Room]:
        orders = self._order.get(game)
        if orders is None:
            newest_first = list(self._rooms())[::-1]
            if game is not None:
                newest_first = [r for r in newest_first if r.info.name == game]
            by_status: dict[str | None, list[Room]] = {
                s: [r for r in newest_first if r.status == s] for s in STATUSES
            }
            by_status[None] = by_status[WAITING] + by_status[PLAYING] + by_status[FINISHED]
            orders = self._order[game] = by_status
        return orders[status]

    def page(self, status: str | None, page: int, game: str | None = None) -> tuple[int, bytes]:
        """(entry count, packed entries) of `rooms {rooms, more, page, waiting, playing}`
        (of one game's rooms only, with `game`)."""
        if time.monotonic() - self._built > MAX_AGE:
            self.changed()
            self._built = time.monotonic()
        key = (status, game, page)
        cached = self._pages.get(key)
        if cached is None:
            listed = self._ordered(status, game)
            first = page * PAGE_SIZE
            body: dict[str, Any] = {
                "t": "rooms",
                "rooms": [r.summary() for r in listed[first : first + PAGE_SIZE]],
                "more": max(0, len(listed) - first - PAGE_SIZE),
                "page": page,
                "waiting": len(self._ordered(WAITING, game)),
                "playing": len(self._ordered(PLAYING, game)),
                "finished": len(self._ordered(FINISHED, game)),
            }
            cached = (len(body), encode_entries(body))
            if body["rooms"] or page == 0:  # pages past the end are not kept
                self._pages[key] = cached
        return cached

    def message(
        self, status: str | None, page: int, rid: int | None, game: str | None = None
    ) -> bytes:
        """The packed `rooms` message, with `re` when it answers a request."""
        count, entries = self.page(status, page, game)
        if rid is None:
            return map_header(count) + entries
        return map_header(count + 1) + entries + encode("re") + encode(rid)
