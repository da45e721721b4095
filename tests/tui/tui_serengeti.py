"""Serengeti games for client tests: the real engine played by its random bots, up to a
chosen moment, seen through the offline app (tui_offline.OfflineApp)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tui_offline import OfflineApp, server_view

from modernart.engine.games import get_game
from modernart.engine.serengeti.cards import FULL_DECK

NAMES = ["Ann", "Bob", "Cy", "Dee"]
SERENGETI = get_game("serengeti")


def new_game(players: int = 4, deck: list[str] | None = None) -> Any:
    return SERENGETI.create(NAMES[:players], deck=deck or list(FULL_DECK), first=0)


def play_until(
    game: Any,
    stop: Callable[[Any], bool],
    seed: int = 3,
    history: list[dict[str, Any]] | None = None,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Random bots play every seat until `stop(game)`: Ann's view before the last step
    and that step's events; `history` collects every event."""
    bots = [SERENGETI.make_bot("random", seed + s) for s in range(game.n)]
    before, events = server_view(game, 0), []
    while not stop(game):
        seat = game.to_act()[0]
        action = bots[seat].choose(game.view(seat))
        assert action is not None
        before = server_view(game, 0)
        events = game.apply({**action, "seat": seat})
        if history is not None:
            history.extend(events)
    return before, events


def ann_to_act(auction: int) -> Callable[[Any], bool]:
    """Stop when Ann decides in auction `auction` (or later) after someone has bid."""
    return lambda g: g.auction >= auction and g.to_act() == [0] and g.high_seat is not None


def offline(game: Any, seat: int | None = 0) -> OfflineApp:
    return OfflineApp(game, seat=seat)
