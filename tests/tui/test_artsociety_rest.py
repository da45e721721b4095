"""Issue 28's list at the Art Society table, each kept fixed at 80×24: the end screen says
why the game ended (A22), Home/End in the bid cards, the far-bid question asked only when
the card was not chosen on purpose, a mini-wall's score beside its excess, the museum's
count at 80 columns, and no stale refusal once the ghost is on a green spot."""

from __future__ import annotations

from artsociety_keys import arrows, keys_for
from artsociety_offline import ArtSocietyOffline
from test_artsociety_newcomer import LONG, bot_game, screen_lines
from test_artsociety_screens import cannot_hang, offline, panel, placing, play_until
from tui_keys import until

from modernart.engine.artsociety.rules import EXCESS_TO_END, cell_index
from modernart.tui.artsociety.end import ArtSocietyEnd, why_it_ended


async def test_a22_the_end_screen_says_why_the_game_ended() -> None:
    game, events = bot_game(LONG)
    full = [LONG[s] for s, wall in enumerate(game.walls) if wall.full]
    excess = [LONG[s] for s, e in enumerate(game.excess) if len(e) >= EXCESS_TO_END]
    assert full or excess or not any(game.hands) or not any(game.piles.values())
    app = ArtSocietyOffline(game)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_view(events)
        await pilot.pause()
        assert isinstance(app.screen, ArtSocietyEnd)
        shown = " ".join(line.strip(" │") for line in screen_lines(app))
        assert "Ended: " in shown and "(A22)." in shown
        lower = shown.replace("Your ", "your ").replace("You have", "you have")
        for name in full:
            assert f"{'your' if name == 'Ann' else name + chr(39) + 's'} wall is full" in lower
        for name in excess:
            assert f"{'you have' if name == 'Ann' else name + ' has'} 2 excess paintings" in lower
        if not any(game.hands):
            assert "every bid card has been played" in shown
        # the whole score table still fits: its total row is on screen
        assert any(" total " in line for line in screen_lines(app))


async def test_a13_the_refusal_goes_once_the_ghost_moves_to_a_green_spot() -> None:
    """Playtests #6: "Not sent: move the ghost…" stayed beside "fits. Enter hangs it"."""
    app = offline()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await play_until(pilot, app, placing)
        option = table.current()
        assert option is not None
        await pilot.press(*arrows(table.cursor, (0, 0)), "enter")  # A1 touches nothing
        assert "Not sent: move the ghost to a green spot first." in panel(table)
        index = cell_index(option.cells[0], 10, 10)
        assert index is not None
        await pilot.press(*arrows(table.cursor, (index % 10, index // 10)))
        shown = panel(table)
        assert "fits. Enter hangs it." in shown and "Not sent" not in shown


async def test_a20_the_museum_count_keeps_its_number_at_80_columns() -> None:
    game, events = bot_game(LONG)
    assert len(game.museum) >= 10
    app = ArtSocietyOffline(game)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_view(events)
        await pilot.pause()
        await pilot.press("enter")  # the final scores closed: the table
        assert app.screen is app.table
        assert any(f"· in museum {len(game.museum)}" in line for line in screen_lines(app))


async def test_a4_f1_gives_the_decor_pieces_sizes() -> None:
    app = offline()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        text = app.screen.text
        assert "`+1` is 1×1 (1 shield), `+2` 2×1 (2 shields), `+3` 3×1 (3 shields)" in text
        assert "decor pieces 1×1, 2×1, 3×1" in text


async def test_the_footer_lists_hint_chat_and_leave_at_every_decision_at_80x24() -> None:
    """Playtests #10: `?` worked but was never listed, and chat and leave were unlisted at
    every decision. Now the decision's keys come first, then the table's own where they fit;
    at 80 columns the hint, chat, leave, Quit and Help fit beside every decision."""
    footers: dict[str, tuple[str, ...]] = {}
    decisions: set[str] = {"busiest"}
    app = offline()
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.table
        for turn in range(60):
            await pilot.pause()
            decisions |= set(table.legal)
            if table.legal:
                footers.setdefault(screen_lines(app)[-1].rstrip(), tuple(sorted(table.legal)))
            keys, _ = keys_for(table, turn)
            await pilot.press(*keys)
    game, _, _ = cannot_hang()
    game.apply({"type": "excess", "seat": 0})  # the busiest: a decor piece after excess
    app = ArtSocietyOffline(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "a Assist" in screen_lines(app)[-1])
        footers[screen_lines(app)[-1].rstrip()] = ("busiest",)
    assert {"bid", "pick", "place", "shapes", "decor", "busiest"} <= decisions
    for footer, legal in footers.items():
        assert footer.endswith("^q Quit f1 Help") and len(footer) <= 80, (footer, legal)
        for words in ("? Hint", "t Chat", "L Leave"):
            assert words in footer, (footer, legal)


def test_a22_you_is_capital_only_where_the_sentence_begins() -> None:
    """Play-test: "Ended: alice has 2 excess paintings; You have 2 excess paintings"."""
    seats = [{"excess": EXCESS_TO_END}, {"excess": EXCESS_TO_END}]
    view = {"seats": seats, "wall": {"cols": 4, "rows": 4}, "hand": ["x"], "you": 1}
    assert why_it_ended(view, ["alice", "You"]) == (
        f"Ended: alice has {EXCESS_TO_END} excess paintings; "
        f"you have {EXCESS_TO_END} excess paintings (A22)."
    )
    assert why_it_ended(view, ["You", "alice"]).startswith("Ended: You have")
