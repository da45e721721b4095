"""Exact Art Society screens against the real engine (offline): the ghost's reasons (A7, A13),
the walls key, and snapshots of the wall, the lot, the bid, the ghost and the end screen at
80×24 and 120×40. Update with `pytest tests/tui --snapshot-update` and look at the SVGs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from artsociety_keys import arrows, keys_for
from artsociety_offline import NAMES, ArtSocietyOffline
from rich.console import Console

from modernart.engine.artsociety.bots import HeuristicBot
from modernart.engine.artsociety.state import ArtSociety
from modernart.tui.artsociety import ArtSocietyTable
from modernart.tui.artsociety.end import ArtSocietyEnd, score_table
from modernart.tui.lines import LinePanel

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


def offline(seed: int = 3) -> ArtSocietyOffline:
    return ArtSocietyOffline(ArtSociety(NAMES, seed=seed))


async def play_until(pilot: Any, app: ArtSocietyOffline, done: Callable[[ArtSocietyTable], bool]):
    """Key presses of the test player until `done(table)` (at most 400 decisions)."""
    table = app.table
    assert isinstance(table, ArtSocietyTable)
    for turn in range(400):
        await pilot.pause()
        if done(table):
            return table
        keys, _ = keys_for(table, turn)
        assert keys, f"nothing to do and not done: {table.view.get('phase')}"
        await pilot.press(*keys)
    raise AssertionError("not reached")


def placing(table: ArtSocietyTable) -> bool:
    return any(o.get("tile") == "picked" for o in table.legal.get("place") or [])


def panel(table: ArtSocietyTable) -> str:
    return str(table.query_one("#as-panel", LinePanel).content)


async def test_a13_the_ghost_says_why_and_enter_sends_only_a_legal_spot() -> None:
    app = offline()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await play_until(pilot, app, placing)
        option = table.current()
        assert option is not None and option.source == "picked"
        start = app.game.walls[0].tiles[0]  # the starting painting (A7)
        sent = len(app.sent)
        checks = [
            ((9, 9), f"a {option.w}×{option.h} tile at J10 would leave the wall (A13)"),
            ((start.spot.index % 10, start.spot.index // 10), "overlaps a tile (A13)"),
            ((0, 0), f"a {option.w}×{option.h} tile at A1 shares no edge with a tile (A13)"),
        ]
        for goal, reason in checks:
            await pilot.press(*arrows(table.cursor, goal), "enter")
            assert table.cursor == goal
            assert reason in panel(table)
            assert "Not sent" in panel(table)
        assert len(app.sent) == sent  # nothing left the client
        index = app.game.walls[0].cells_for(option.w, option.h)[0]
        goal = (ord(index[0]) - 65, int(index[1:]) - 1)
        await pilot.press(*arrows(table.cursor, goal))
        assert "fits. Enter hangs it." in panel(table)
        await pilot.press("enter")
        assert app.sent[-1]["action"] == {"type": "place", "tile": "picked", "cell": index}
        assert any(t.spot.cell == index for t in app.game.walls[0].tiles)


async def test_a7_the_starting_painting_must_cover_a_star() -> None:
    app = offline()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.table
        assert isinstance(table, ArtSocietyTable) and table.view["phase"] == "setup"
        assert "fits" in panel(table)  # the ghost starts on a legal spot
        await pilot.press(*arrows(table.cursor, (0, 0)), "enter")
        assert "at A1 must cover a star cell (A7)" in panel(table)
        assert app.sent == []


async def test_w_shows_each_other_wall_full_size_in_turn() -> None:
    app = offline()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.table
        assert isinstance(table, ArtSocietyTable)
        wall = table.query_one("#as-wall")
        titles = []
        for _ in range(4):
            await pilot.press("w")
            titles.append(str(wall.border_title).split(" ·")[0])
        assert titles == ["Bob's wall", "Cy's wall", "Dee's wall", "Your wall"]


def finished_game(seed: int = 5, variant: str = "house") -> tuple[ArtSociety, list[dict[str, Any]]]:
    """A whole game played by bots on every seat; the last round's events."""
    game = ArtSociety(NAMES, variant, seed=seed)
    bots = [HeuristicBot(s) for s in range(4)]
    events: list[dict[str, Any]] = []
    while not game.finished:
        seat = game.to_act()[0]
        new = game.apply({**bots[seat].choose(game.view(seat)), "seat": seat})
        events = new if any(e["type"] == "round_end" for e in new) else events + new
    return game, events


@pytest.mark.parametrize(
    ("variant", "labels", "absent"),
    [
        ("house", ("eyeline (+3)", "excess (−2 each)", "empty corners (−2 each)"), "empty cells"),
        ("house_r1", ("eyeline (its multiplier once more)", "excess (−3 each)"), "corners"),
    ],
)
async def test_a23_a28_end_screen_breaks_every_score_down(variant, labels, absent) -> None:
    """Revision 2's values on a `house` game, revision 1's on a `house_r1` game (A25, A27)."""
    game, events = finished_game(variant=variant)
    app = ArtSocietyOffline(game)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_view(events)
        await pilot.pause()
        end = app.screen
        assert isinstance(end, ArtSocietyEnd)
        assert end.event["scores"] == game.scores()
        console = Console(width=100, color_system=None)
        with console.capture() as shown:
            console.print(score_table(end.event["scores"], NAMES, end.event["winners"], end.house))
        text = shown.get()
        for label in ("portrait", "faux pas", "decor shields", "full wall (+5)", *labels):
            assert label in text
        assert absent not in text
        totals = text.splitlines()[-1].split()
        assert totals == ["total", *(str(s["total"]) for s in game.scores())]
        winners = [n for s, n in enumerate(NAMES) if s in game.winners]
        assert "Game over: " + " and ".join(winners) in str(end.query("Static").first().render())


# ------------------------------------------------------------------ snapshots


def reach(app: ArtSocietyOffline, done: Callable[[ArtSocietyTable], bool], extra: tuple = ()):
    async def run(pilot: Any) -> None:
        await play_until(pilot, app, done)
        if extra:
            await pilot.press(*extra(app.table) if callable(extra) else extra)
        await pilot.pause()

    return run


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_wall_setup_ghost(snap_compare, size):
    app = offline()
    assert snap_compare(app, terminal_size=size, run_before=reach(app, lambda t: True))


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_bid(snap_compare, size):
    app = offline()
    run = reach(app, lambda t: "bid" in t.legal, ("right", "right"))
    assert snap_compare(app, terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_lot_pick(snap_compare, size):
    app = offline()
    assert snap_compare(app, terminal_size=size, run_before=reach(app, lambda t: "pick" in t.legal))


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_ghost_refused(snap_compare, size):
    app = offline()
    run = reach(app, placing, lambda t: (*arrows(t.cursor, (0, 0)), "enter"))
    assert snap_compare(app, terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_end_screen(snap_compare, size):
    game, events = finished_game()
    app = ArtSocietyOffline(game)

    async def run(pilot: Any) -> None:
        app.push_view(events)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run)


def cannot_hang(genre: str = "landscape", variant: str = "house") -> tuple[ArtSociety, str, str]:
    """Seat 0 holds a 5×5 that fits nowhere beside its starting painting at E4 (A14); the
    museum holds a 2×2 of its genre (A16). Returns the game, the 5×5 and the museum code."""
    game = ArtSociety(NAMES, variant, seed=7)
    for seat in range(4):
        game.apply({"type": "place", "tile": "start", "cell": "E4", "seat": seat})
    big = next(c for c in game.piles["5x5"] if game.paintings[c].genre == genre)
    small = next(c for c in game.piles["2x2"] if game.paintings[c].genre == genre)
    game.piles["2x2"].remove(small)
    game.museum.append(small)  # as if it went unpicked in an earlier round (A20)
    game.piles["5x5"].remove(big)
    game.piles["5x5"].append(big)  # the top of its pile
    game.apply({"type": "shapes", "seat": game.auctioneer, "shapes": ["5x5"] + ["2x2"] * 4})
    for seat in range(4):
        game.apply({"type": "bid", "seat": seat, "card": 20 if seat == 0 else 1})
    game.apply({"type": "pick", "seat": 0, "painting": big})
    return game, big, small


async def test_a14_a16_exchange_by_keys_when_the_painting_fits_nowhere() -> None:
    game, big, small = cannot_hang()
    app = ArtSocietyOffline(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.table
        assert isinstance(table, ArtSocietyTable)
        assert "It fits nowhere on your wall." in panel(table)
        assert "x: museum exchange" in panel(table) and "e: excess" in panel(table)
        await pilot.press("x")
        option = table.current()
        assert option is not None and option.kind == "exchange" and option.source == small
        assert "fits. Enter hangs it." in panel(table)
        cell = option.cells[0]
        await pilot.press(*arrows(table.cursor, (ord(cell[0]) - 65, int(cell[1:]) - 1)), "enter")
        assert app.sent[-1]["action"] == {"type": "exchange", "painting": small, "cell": cell}
        assert big in game.museum and any(t.code == small for t in game.walls[0].tiles)


async def test_a17_excess_by_key_then_the_decor_is_placed_with_the_ghost() -> None:
    game, big, _ = cannot_hang()
    app = ArtSocietyOffline(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.table
        assert isinstance(table, ArtSocietyTable)
        await pilot.press("e")
        assert game.excess[0] == [big]
        option = table.current()
        assert option is not None and option.source == "decor"  # A17's 1-shield piece
        assert "l: lose it" in panel(table) and "a: to assistant" in panel(table)
        await pilot.press("enter")
        assert app.sent[-1]["action"]["tile"] == "decor"
        assert any(t.code == "d1" for t in game.walls[0].tiles)


REVISION_2_HELP = (
    "M matching frames bring decor of exactly M shields (A18), smaller pieces only",
    "×5, ×4, ×3, ×2 (A23)",
    "first-ranked genre scores +3 (A25)",
    "−2 per excess painting, −2 per empty corner cell, +5 for a full wall (A27)",
    "(−2 each at the end)",
)
REVISION_1_HELP = (
    "M matching frames bring decor up to M shields (A18)",
    "×5, ×3, ×2, ×1 (A23)",
    "scores its multiplier once more (A25)",
    "−3 per excess painting, −1 per empty cell, +5 for a full wall (A27)",
    "(−3 each at the end)",
)


@pytest.mark.parametrize(
    ("variant", "says", "not_said"),
    [("house", REVISION_2_HELP, REVISION_1_HELP), ("house_r1", REVISION_1_HELP, REVISION_2_HELP)],
)
async def test_f1_labels_the_house_rules_and_lists_the_rooms_values(variant, says, not_said):
    app = ArtSocietyOffline(ArtSociety(NAMES, variant, seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        text = app.screen.text  # the help screen's Markdown
        assert "House rules where the printed rules were unavailable" in text
        for setting in ("wall 10 × 10", "star cells E5, F6", "48, 36, 24", *says):
            assert setting in text
        assert not [setting for setting in not_said if setting in text]
        assert "Keys at the Art Society table" in text


async def test_the_turn_clock_says_what_happens_when_it_runs_out() -> None:
    app = offline()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        view = {**app.table.view, "deadline_ms": 48_500}  # "You: 49 s" (rounded up): 8 s of slack
        app._on_update({"t": "update", "seq": 99, "events": [], "view": view})
        await pilot.pause()
        clock = str(app.table.query_one("#as-clock").content)
        assert clock.startswith("You: 4") and "s left; then a bot moves for you" in clock


async def test_a13_a_refusal_from_the_server_is_shown_and_changes_nothing() -> None:
    """A move the server refuses (e.g. sent from a stale view) is told in the panel."""
    app = offline()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await play_until(pilot, app, placing)
        before = app.game.view(0)
        app.act({"type": "place", "tile": "picked", "cell": "A1"})
        await pilot.pause()
        assert "shares no edge with a tile (A13)" in panel(table)
        assert app.game.view(0) == before


async def test_your_placement_brings_your_own_wall_back() -> None:
    app = offline()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await play_until(pilot, app, lambda t: "pick" in t.legal)
        await pilot.press("w")
        assert table.watching == 1
        await pilot.press("enter")  # pick: now you place, on your own wall
        assert table.watching is None and placing(table)
        assert str(table.query_one("#as-wall").border_title).startswith("Your wall")


async def test_a4_a18_r_turns_a_decor_piece_before_it_is_hung() -> None:
    game, _, _ = cannot_hang()
    game.apply({"type": "excess", "seat": 0})  # A17: a 1-shield piece in hand
    game.decor[0] += 1  # hand-built: the piece in hand is a 2-shield one instead (A4)
    game.decor[1] -= 1
    game.held = 2
    app = ArtSocietyOffline(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.table
        assert isinstance(table, ArtSocietyTable)
        option = table.current()
        assert option is not None and (option.w, option.h, option.turned) == (2, 1, False)
        await pilot.press("r")
        option = table.current()
        assert option is not None and (option.w, option.h, option.turned) == (1, 2, True)
        assert "r turn" in panel(table)
        cell = option.cells[0]
        await pilot.press(*arrows(table.cursor, (ord(cell[0]) - 65, int(cell[1:]) - 1)), "enter")
        action = {"type": "place", "tile": "decor", "cell": cell, "turned": True}
        assert app.sent[-1]["action"] == action
        hung = game.walls[0].tiles[-1]
        assert (hung.code, hung.w, hung.h) == ("d2", 1, 2)
