"""What a newcomer hit at the Art Society table at 80×24, each kept fixed: the final scores in
full and `e` to see them again (A23–A28), an event log that can be followed, paintings that
fit nowhere marked before the pick (A13, A14), keys that cannot act ringing and saying why,
a footer that fits, the player's own events in the second person, words for the
abbreviations and the white card that breaks tied bids (A8)."""

from __future__ import annotations

from typing import Any

from artsociety_keys import keys_for
from artsociety_offline import NAMES, ArtSocietyOffline
from test_artsociety_screens import cannot_hang, offline, panel, placing, play_until
from tui_keys import until

from modernart.engine.artsociety.bots import HeuristicBot
from modernart.engine.artsociety.state import ArtSociety
from modernart.tui.artsociety import ArtSocietyTable
from modernart.tui.artsociety.end import ArtSocietyEnd
from modernart.tui.artsociety.narrate import narrate

LONG = ["Ann", "Bartholomew", "Gwendolyn", "Mila"]


def screen_lines(app: Any) -> list[str]:
    """The terminal's rows as the compositor draws them (what the player sees)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def bot_game(names: list[str], seed: int = 5) -> tuple[ArtSociety, list[dict[str, Any]]]:
    """A whole game played by bots; every event."""
    game = ArtSociety(names, seed=seed)
    bots = [HeuristicBot(s) for s in range(len(names))]
    events: list[dict[str, Any]] = []
    while not game.finished:
        seat = game.to_act()[0]
        events += game.apply({**bots[seat].choose(game.view(seat)), "seat": seat})
    return game, events


class Bells:
    def __init__(self, app: Any) -> None:
        self.count = 0
        app.bell = self.ring

    def ring(self) -> None:
        self.count += 1


async def test_a23_a28_the_final_scores_show_every_column_and_e_brings_them_back() -> None:
    game, events = bot_game(LONG)
    app = ArtSocietyOffline(game)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_view(events)
        await pilot.pause()
        assert isinstance(app.screen, ArtSocietyEnd)
        rows = screen_lines(app)
        header = next(r for r in rows if "You" in r and "Bartholome" in r)
        assert "Mila" in header and "Gwendolyn" in header
        total = next(r for r in rows if " total " in r).split("│")[1].split()
        assert total == ["total", *(str(s["total"]) for s in game.scores())]
        await pilot.press("enter")
        table = app.table
        assert app.screen is table
        assert "e shows the final scores again" in panel(table)
        footer = screen_lines(app)[-1]
        assert "e Scores" in footer and "f1 Help" in footer
        await pilot.press("e")
        again = app.screen
        assert isinstance(again, ArtSocietyEnd)
        assert again.event["scores"] == game.scores()
        assert again.event["winners"] == game.winners
        await pilot.press("escape")
        assert app.screen is table


async def test_the_event_log_keeps_four_lines_at_80x24_in_every_phase() -> None:
    app = offline()
    seen = set()
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.table
        assert isinstance(table, ArtSocietyTable)
        for turn in range(60):
            await pilot.pause()
            log, panel_box = table.query_one("#log"), table.query_one("#as-panel")
            phase = next((k for k in ("shapes", "bid", "pick", "place") if k in table.legal), "")
            seen.add(phase)
            assert log.content_size.height >= 4, phase
            assert log.region.bottom <= 23, phase  # above the footer, its border drawn
            assert panel_box.region.bottom <= log.region.y, phase
            keys, _ = keys_for(table, turn)
            await pilot.press(*keys)
        assert {"bid", "pick", "place"} <= seen


async def test_a13_a14_a_painting_that_fits_nowhere_is_marked_before_the_pick() -> None:
    game = ArtSociety(NAMES, seed=7)
    for seat in range(4):
        game.apply({"type": "place", "tile": "start", "cell": "E4", "seat": seat})
    game.apply({"type": "shapes", "seat": game.auctioneer, "shapes": ["5x5"] + ["2x2"] * 4})
    for seat in range(4):
        game.apply({"type": "bid", "seat": seat, "card": 20 if seat == 0 else 1})
    app = ArtSocietyOffline(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.table
        assert isinstance(table, ArtSocietyTable) and "pick" in table.legal
        lines = [line for line in panel(table).splitlines() if "×" in line]
        assert len(lines) == 5
        for line in lines:
            assert ("won't fit" in line) == (" 5×5 " in line), line


async def test_keys_that_cannot_act_ring_and_say_why() -> None:
    app = offline()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await play_until(pilot, app, placing)
        bells = Bells(app)
        sent = len(app.sent)
        for key, words in (
            ("x", "x: museum exchange (A14) only when the painting fits nowhere; it fits."),
            ("e", "e: excess (A17) only when the painting fits nowhere; it fits."),
            ("2", "2: no decor to take now."),
        ):
            await pilot.press(key)
            assert words in panel(table)
        assert bells.count == 3 and len(app.sent) == sent
        assert "f1 Help" in screen_lines(app)[-1]  # the footer fits at 80 columns


async def test_a18_every_legal_decor_key_is_in_the_footer_and_the_others_refused() -> None:
    app = offline()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await play_until(pilot, app, lambda t: "decor" in t.legal)
        sizes = table.legal["decor"]
        footer = screen_lines(app)[-1]
        for size in (1, 2, 3):
            assert (f"{size} +{size}" in footer) == (size in sizes), footer
        missing = next(s for s in (1, 2, 3) if s not in sizes) if len(sizes) < 3 else None
        if missing is not None:
            bells = Bells(app)
            await pilot.press(str(missing))
            assert bells.count == 1
            assert f"{missing}: no {missing}-shield decor for you now" in panel(table)
            assert "decor" in table.legal  # nothing was sent
        await pilot.press(str(sizes[0]))
        assert app.sent[-1]["action"] == {"type": "decor", "size": sizes[0]}


async def test_a14_tab_says_the_assistants_tile_fits_nowhere() -> None:
    game, big, _ = cannot_hang()
    game.apply({"type": "assist", "seat": 0})  # the 5×5 to the assistant: fits nowhere
    app = ArtSocietyOffline(game)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await play_until(pilot, app, placing)  # the next painting you pick
        assert table.view["seats"][0]["assistant"]["code"] == big
        assert [o.source for o in table.options()] == ["picked"]
        bells = Bells(app)
        await pilot.press("tab")
        assert bells.count == 1
        assert "Tab: no other tile: the assistant's tile fits nowhere" in panel(table)


def test_your_own_frame_bonus_reads_in_the_second_person() -> None:
    bonus = {"type": "bonus", "seat": 0, "matches": 2}
    assert narrate(bonus, NAMES, 0) == "Frame bonus for you: 2 matching frame(s) touch it"
    assert narrate(bonus, NAMES, 1) == "Frame bonus for Ann: 2 matching frame(s) touch it"
    full = {"type": "wall_full", "seat": 0}
    assert narrate(full, NAMES, 0).startswith("Your wall is full")


async def test_a8_a17_values_excess_and_your_white_card_in_words() -> None:
    game, _, _ = cannot_hang()
    game.apply({"type": "excess", "seat": 0})
    app = ArtSocietyOffline(game, seat=1, bots=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.table
        assert isinstance(table, ArtSocietyTable)
        others = "\n".join(line[:36] for line in screen_lines(app))  # the left column
        score = game.scores()[0]["total"]
        assert f"{score} pts ex1" in others  # the score in its place, the excess after it
        assert "1 char = 2 cells" in str(table.query_one("#as-others").border_subtitle)
        white = game.stacks[1][0]
        assert table.query_one("#as-you").border_title == (
            f"Your bid cards · white {white} breaks ties"
        )
    app = offline()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await play_until(pilot, app, lambda t: "pick" in t.legal)
        lot = app.game.view(0)["lot"]
        assert f"val {lot[0]['value']} " in panel(table)
        await pilot.press("f1")
        assert "`val 4` is a painting's value" in app.screen.text


async def test_a17_the_footer_fits_80_columns_with_every_decor_placement_key() -> None:
    """The busiest decision (a decor piece after excess: turn, assistant, lose) keeps F1 Help
    in the footer; the table's own keys (w, t, PgUp, L) still work, listed where they fit."""
    game, _, _ = cannot_hang()
    game.apply({"type": "excess", "seat": 0})
    app = ArtSocietyOffline(game)
    async with app.run_test(size=(80, 24)) as pilot:
        # The table's keys reach the footer after its first frames: wait for them (on a
        # loaded machine that takes more than a pause); all of them must fit.
        await until(pilot, lambda: "a Assist" in screen_lines(app)[-1])
        table = app.table
        assert isinstance(table, ArtSocietyTable)
        footer = screen_lines(app)[-1]
        for words in ("a Assist", "l Lose", "f1 Help"):
            assert words in footer, footer
        assert len(footer.rstrip()) <= 80 and "pgup" not in footer  # no room for PgUp
        await pilot.press("w")
        assert table.watching == 1
        await pilot.press("t")
        assert table.query_one("#chat-line").display
