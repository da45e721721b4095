"""What the player's terminal shows through the cached drawing (rows drawn once and kept,
only changed rows repainted: tui/lines.py) is what a full redraw shows, after every update
of whole games played by bots, in every game, at 80×24 and larger (issue 31).

The terminal is the screen relay an SSH or browser player's session draws into
(server/doors/terminal/screen.py), fed with exactly the updates Textual sends. After each
update the relay's cells are compared with the screen drawn again from nothing: every
line panel's rows forgotten, every widget's lines rendered anew.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from rich.color import ColorSystem
from tui_offline import OfflineApp

from modernart.engine.games import GAME_NAMES, get_game
from modernart.server.doors.terminal.screen import ScreenRelay, pieces
from modernart.tui.lines import LinePanel
from modernart.tui.textual_internals import CompositorUpdate, StripDisplay


class RelayedApp(StripDisplay, OfflineApp):
    """The offline table, its screen updates drawn into a relay's grid as a session's are."""

    def __init__(self, game: Any, size: tuple[int, int]) -> None:
        super().__init__(game, 0)
        self.relay = ScreenRelay(*size)

    def draws_updates(self) -> bool:
        return True

    def draw_update(self, update: CompositorUpdate) -> None:
        self.relay.draw(pieces(update), (0, 0), ColorSystem.TRUECOLOR)


def redrawn(app: RelayedApp) -> list[list[tuple[str, str]]]:
    """The screen drawn again from nothing, as the relay's cells: every widget's kept
    lines let go (a refresh of the whole widget), so a row a widget changed without
    repainting it shows (the log's last line redrawn in place, tui/eventlog.py)."""
    screens = [app.screen] if app.screen is app.table else [app.screen, app.table]
    for screen in screens:
        for panel in screen.query(LinePanel):
            panel.forget()
        for widget in screen.walk_children(with_self=True):
            widget.refresh()
    fresh = ScreenRelay(app.relay.cols, app.relay.rows)
    strips = app.screen._compositor.render_strips()
    fresh.draw(
        [(y, 0, strip, app.relay.cols) for y, strip in enumerate(strips)],
        (0, 0),
        ColorSystem.TRUECOLOR,
    )
    return fresh.grid


def rows_text(grid: list[list[tuple[str, str]]]) -> list[str]:
    return ["".join(cell[0] for cell in row) for row in grid]


def next_action(name: str, game: Any, bots: list[Any], shouts: int) -> dict[str, Any]:
    """A bot's move for the seat to act; a real-time auction closed after a few shouts,
    as the server's hammer would."""
    info = get_game(name)
    if game.realtime() and shouts >= 3 and info.hammer is not None:
        return dict(info.hammer)
    seat = game.to_act()[0]
    action = bots[seat].choose(game.view(seat))
    assert action is not None
    return {**action, "seat": seat}


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@pytest.mark.parametrize("name", GAME_NAMES)
async def test_the_cached_drawing_shows_what_a_full_redraw_shows(name: str, size: tuple) -> None:
    info = get_game(name)
    players = ["Ann", "Bob", "Cy", "Dee"][: min(4, max(info.players))]
    game = info.create(players, seed=11)
    bots = [info.make_bot("random", seed) for seed in range(len(players))]
    rng = random.Random(3)
    app = RelayedApp(game, size)
    async with app.run_test(size=size) as pilot:
        await app.begin()
        await pilot.pause()
        shouts, updates = 0, 0
        while not game.finished:
            events = game.apply(next_action(name, game, bots, shouts))
            shouts = shouts + 1 if game.realtime() else 0
            app.push_view(events)
            updates += 1
            await pilot.pause()
            while app.screen is not app.table:  # a round's summary: closed, as players do
                if rng.random() < 0.5:
                    break  # or left open over the table for a while
                app.pop_screen()
                await pilot.pause()
            shown = [row[:] for row in app.relay.grid]
            again = redrawn(app)
            assert rows_text(shown) == rows_text(again), f"update {updates}"
            assert shown == again, f"update {updates}: the same text, other styles"
        assert updates > 30
