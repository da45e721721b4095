"""An update's frames for every member of a room, built and packed once per update.

`Game.view(seat)` differs from `Game.view(None)` (the spectators' view) only in
the seat's own secrets: `you`, `hand`, `money`, `legal`, `my_sealed` and its own
`seats[seat].money` (every seat's money once the game is over). So the public
view, with the room's fields, is built and msgpack-packed once per update, and
each seated member's frame is that shared part plus its own secret entries
packed alone. tests/server/test_updates.py checks at every step of whole games
that each frame decodes to exactly `Game.view(seat)` plus the room's fields.
"""

from __future__ import annotations

from typing import Any

from modernart.engine import Game

from .codec import encode, encode_entries, map_header

# The view's entries that depend on the seat; everything else is the same for all.
SECRET_KEYS = ("you", "hand", "money", "legal", "my_sealed", "seats")


class UpdateFrames:
    """`update {seq, events, view}` frames from one public view (`Game.view(None)`
    plus the room's fields); the secret entries are filled in per seat."""

    def __init__(self, game: Game, seq: int, events: list, public: dict[str, Any]) -> None:
        self.game = game
        self.public = public
        shared = {k: v for k, v in public.items() if k not in SECRET_KEYS}
        self._head = (
            map_header(4)
            + encode_entries({"t": "update", "seq": seq, "events": events})
            + encode("view")
            + map_header(len(shared) + len(SECRET_KEYS))
            + encode_entries(shared)
        )

    def secrets(self, seat: int) -> dict[str, Any]:
        """What `Game.view(seat)` holds in place of the spectators' entries."""
        game = self.game
        money = game.money[seat]
        seats = self.public["seats"]
        if not self.public["finished"]:  # before the end only your own money shows (R4)
            seats = list(seats)
            seats[seat] = {**seats[seat], "money": money}
        return {
            "you": seat,
            "hand": game.hands[seat],
            "money": money,
            "legal": game.legal(seat),
            "my_sealed": game.sealed.get(seat) if game.phase == "sealed" else None,
            "seats": seats,
        }

    def for_seat(self, seat: int) -> bytes:
        return self._head + encode_entries(self.secrets(seat))

    def for_spectators(self) -> bytes:
        public = self.public
        return self._head + encode_entries({k: public[k] for k in SECRET_KEYS})
