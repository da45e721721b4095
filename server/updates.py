"""An update's frames for every member of a room, built and packed once per update.

A view differs from the spectators' view (`view(None)`) only in the entries
its game names in `GameInfo.seat_keys` (Modern Art: `you`, `hand`, `money`,
`legal`, `my_sealed` and `seats`, for the seat's own money). So the public
view, with the room's fields, is built and msgpack-packed once per update, and
each seated member's frame is that shared part plus its own entries packed
alone (from the game's `seat_view` when it has one, else from `view(seat)`).
A game that names no such keys gets each seat's `view(seat)` packed whole.

The packed views (`PackedViews`) hold everything of a frame but its `seq`, its
events and the view's `deadline_ms`, so a room sends an update that is no
action (the hammer's `going`, a spectator count) from the views it packed for
the last one while its game and its own fields are unchanged (`Room.update_frames`),
and each frame is one join of those bytes, WebSocket header included.
tests/server/test_updates.py checks at every step of whole games of every game
that each frame decodes to exactly `view(seat)` plus the room's fields, and that
frames from views packed for an earlier update are the bytes packed afresh.
"""

from __future__ import annotations

from typing import Any

from modernart.engine.games import GameInfo, GameState, game_of

from .codec import encode, encode_entries, map_header, ws_frame

# The room's own fields in each seat's entry of `view.seats` (Room.view_for).
SEAT_FLAGS = ("connected", "bot", "autopilot")
DEADLINE = "deadline_ms"
_INTRO = map_header(4) + encode_entries({"t": "update"})
_VIEW = encode("view")
_DEADLINE = encode(DEADLINE)


class PackedViews:
    """One state's views, packed: the public view's entries but `deadline_ms` (packed
    into each frame) and, per seat and for the spectators, the seat's own entries
    (packed at the first frame that needs them). `key`: what the state was built from
    (`Room.update_frames` reuses the views while it stays the same)."""

    def __init__(
        self,
        game: GameState,
        public: dict[str, Any],
        info: GameInfo | None = None,
        key: object = None,
    ) -> None:
        self.game = game
        self.info = info or game_of(game)  # `info`: the game's, or a variation of it
        self.public = public
        self.key = key
        self.seat_keys = self.info.seat_keys
        self._own: dict[int | None, bytes] = {}  # seat (None: spectators) -> its entries
        if self.seat_keys is None:
            return
        keys = self.seat_keys
        shared = {k: v for k, v in public.items() if k not in keys}
        head = map_header(len(shared) + len(keys))
        self.after: bytes | None = None  # the packed entries after `deadline_ms`, if any
        if DEADLINE in shared:
            names = list(shared)
            tail = {k: shared.pop(k) for k in names[names.index(DEADLINE) :]}
            del tail[DEADLINE]
            self.after = encode_entries(tail)
        self.before = head + encode_entries(shared)

    def _full_view(self, seat: int) -> dict[str, Any]:
        """`view(seat)` with the room's fields of the public view."""
        view = self.game.view(seat)
        view["seats"] = [
            {**mine, **{k: room[k] for k in SEAT_FLAGS if k in room}}
            for mine, room in zip(view["seats"], self.public["seats"], strict=True)
        ]
        return {**self.public, **view}

    def secrets(self, seat: int) -> dict[str, Any]:
        """What `view(seat)` holds in place of the spectators' entries."""
        assert self.seat_keys is not None
        if self.info.seat_view is not None:
            return self.info.seat_view(self.game, seat, self.public)
        view = self._full_view(seat)
        return {k: view[k] for k in self.seat_keys}

    def own(self, seat: int | None) -> bytes:
        """The seat's own entries (None: the spectators'), packed once."""
        own = self._own.get(seat)
        if own is None:
            assert self.seat_keys is not None
            if seat is None:
                mine = {k: self.public[k] for k in self.seat_keys}
            elif self.info.seat_view is not None:
                mine = self.info.seat_view(self.game, seat, self.public)
            else:
                mine = self.secrets(seat)
            own = self._own[seat] = encode_entries(mine)
        return own

    def whole(self, seat: int | None, deadline: Any) -> bytes:
        """Without seat keys: the view of `seat` (None: the spectators') packed whole."""
        view = dict(self.public) if seat is None else self._full_view(seat)
        if DEADLINE in view:
            view[DEADLINE] = deadline
        return encode(view)


class UpdateFrames:
    """`update {seq, events, view}` frames, each a whole WebSocket frame, from one
    state's packed views (`views`; else packed here from the public view `public`,
    `view(None)` plus the room's fields, whose `deadline_ms` is the update's)."""

    def __init__(
        self,
        game: GameState,
        seq: int,
        events: list,
        public: dict[str, Any],
        info: GameInfo | None = None,
        views: PackedViews | None = None,
    ) -> None:
        views = self.views = views or PackedViews(game, public, info)
        self.public = public
        self._deadline = public.get(DEADLINE)
        # The frames' first bytes: `t`, `seq`, `events` and the shared entries of the view.
        head = [_INTRO, encode_entries({"seq": seq, "events": events}), _VIEW]
        if views.seat_keys is not None:
            head.append(views.before)
            if views.after is not None:
                head += (_DEADLINE, encode(self._deadline), views.after)
        self._head = b"".join(head)

    def for_seat(self, seat: int) -> bytes:
        """The seat's frame."""
        views = self.views
        if views.seat_keys is None:
            return ws_frame(self._head + views.whole(seat, self._deadline))
        return ws_frame(self._head + views.own(seat))

    def for_spectators(self) -> bytes:
        """The spectators' frame (one for all of them)."""
        views = self.views
        if views.seat_keys is None:
            return ws_frame(self._head + views.whole(None, self._deadline))
        return ws_frame(self._head + views.own(None))
