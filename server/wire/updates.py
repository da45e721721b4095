"""An update's frames for every member of a room, built and packed once per update.

A view differs from the spectators' view (`view(None)`) only in the entries
its game names in `GameInfo.seat_keys` (Modern Art: `you`, `hand`, `money`,
`legal`, `my_sealed` and `seats`, for the seat's own money). So the public
view, with the room's fields, is built and msgpack-packed once per update, and
each seated member's frame is that shared part plus its own entries packed
alone (from the game's `seat_view` when it has one, else from `view(seat)`).
A game that names no such keys gets each seat's `view(seat)` packed whole.
tests/server/test_updates.py checks at every step of whole games of every game
that each frame decodes to exactly `view(seat)` plus the room's fields.
"""

from __future__ import annotations

from typing import Any

from modernart.engine.games import GameInfo, GameState, game_of
from modernart.server.wire.codec import encode, encode_entries, map_header

# The room's own fields in each seat's entry of `view.seats` (Room.view_for).
SEAT_FLAGS = ("connected", "bot", "autopilot")


class UpdateFrames:
    """`update {seq, events, view}` frames from one public view (`view(None)` plus the
    room's fields); the per-seat entries are filled in per seat."""

    def __init__(
        self,
        game: GameState,
        seq: int,
        events: list,
        public: dict[str, Any],
        info: GameInfo | None = None,
    ) -> None:
        self.game = game
        self.info = info or game_of(game)  # `info`: the game's, or a variation of it
        self.public = public
        self._keys = self.info.seat_keys
        self._intro = map_header(4) + encode_entries({"t": "update", "seq": seq, "events": events})
        keys = self._keys or ()
        shared = {k: v for k, v in public.items() if k not in keys}
        self._head = (
            self._intro
            + encode("view")
            + map_header(len(shared) + len(keys))
            + encode_entries(shared)
        )

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
        assert self._keys is not None
        if self.info.seat_view is not None:
            return self.info.seat_view(self.game, seat, self.public)
        view = self._full_view(seat)
        return {k: view[k] for k in self._keys}

    def for_seat(self, seat: int) -> bytes:
        if self._keys is None:
            return self._intro + encode("view") + encode(self._full_view(seat))
        return self._head + encode_entries(self.secrets(seat))

    def for_spectators(self) -> bytes:
        public = self.public
        if self._keys is None:
            return self._intro + encode("view") + encode(public)
        return self._head + encode_entries({k: public[k] for k in self._keys})
