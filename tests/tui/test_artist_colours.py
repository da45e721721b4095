"""Issue 28: an artist's colour as text on the dark background is its bright ANSI
variant, as the terminal draws it: the plain blue and magenta are unreadable on black in
the browser's terminal, not every terminal brightens bold text, and a colour given as a
`Text`'s own style reaches a Static as CSS ("blue": #0000ff). On a card the plain colour
stays the background."""

from __future__ import annotations

import re

import pytest
from replays import bot_record
from rich.color import ColorType
from rich.segment import Segment
from tui_keys import until

from modernart.engine.modernart.cards import ARTIST_NAMES, ARTIST_OF, ARTISTS
from modernart.tui.modernart.style import card_chip
from modernart.tui.replay import Replay, ViewerApp, replay_table


def drawn(app, name: str) -> list[Segment]:
    """The segments on screen that show an artist's `name` alone, or a lot's ("… ×2")."""
    rows = app.screen._compositor.render_strips()
    alone = re.compile(rf"{re.escape(name)}( ×\d)? *")
    return [seg for strip in rows for seg in strip if alone.fullmatch(seg.text)]


def bright(segment: Segment) -> bool:
    """Drawn in a bright one of the 16 ANSI colours, bold, on the default background."""
    style = segment.style
    assert style is not None and style.color is not None, segment
    colour = style.color
    return (
        colour.type == ColorType.STANDARD
        and (colour.number or 0) >= 8
        and bool(style.bold)
        and (style.bgcolor is None or style.bgcolor.is_default)
    )


@pytest.mark.parametrize("artist", ARTISTS)
async def test_an_artists_name_on_the_board_and_over_its_lot_is_bright(artist):
    replay = Replay(bot_record("modernart", seed=3))
    step = next(  # the first step showing a lot of this artist
        i
        for i, (view, _) in enumerate(replay.frames)
        if view["lot"] and ARTIST_OF[view["lot"]["cards"][0]] == artist
    )
    app = ViewerApp(replay.record)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.switch_screen(replay_table(replay, step))
        await until(pilot, lambda: getattr(app.screen, "step", None) == step)
        name = ARTIST_NAMES[artist]
        await until(pilot, lambda: len(drawn(app, name)) >= 2)
        shown = drawn(app, name)  # the value board's row and the auction's title
        assert len(shown) >= 2 and all(bright(seg) for seg in shown), shown


def test_a_card_keeps_its_plain_colour_as_background_and_dims_to_bright_text():
    for artist in ARTISTS:
        chip = card_chip(f"{artist}.open")
        assert any(" on " in str(span.style) for span in chip.spans)
        dim = card_chip(f"{artist}.open", dim=True)  # a card you cannot play now
        assert all("bright_" in str(span.style) for span in dim.spans if span.style)
