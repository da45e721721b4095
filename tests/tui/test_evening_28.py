"""Issue 28's evening play-test (docs/playtests.md, 2026-12-03 evening) at the Art Society
table, each at 80×24 with the real app and the real engine: a watcher of four players (#8),
the stars under the starting painting's ghost, the lot chooser's words, the lobby's cursor (#9)."""

from __future__ import annotations

import re

from artsociety_offline import ArtSocietyOffline
from test_artsociety_newcomer import screen_lines
from test_artsociety_screens import panel, play_until
from tui_offline import OfflineApp, OfflineLobbyApp

from modernart.engine.artsociety.state import ArtSociety
from modernart.engine.games import get_game
from modernart.tui.artsociety.look import cell_of
from modernart.tui.artsociety.table import ArtSocietyTable
from modernart.tui.lines import LinePanel

FOUR = ["carol", "Heuristic bot 1", "Heuristic bot 2", "Heuristic bot 3"]


def others_box(lines: list[str]) -> list[str]:
    """The "Other walls" box's rows, inside its border (the screen's left column)."""
    top = next(i for i, line in enumerate(lines) if "Other walls" in line)
    rows = []
    for line in lines[top + 1 :]:
        if line.startswith("╰"):
            return rows
        rows.append(line[1 : line.index("│", 1)])
    raise AssertionError("the box has no bottom")


async def test_a_watcher_of_four_sees_three_whole_small_walls_and_no_move_key() -> None:
    """Play-tests evening #8: watching four at 80×24, the four small walls did not fit
    (names wrapped, walls ended in "…") and the footer offered ←↑↓→ Move. A watcher's
    small walls are those not shown full size, and `w` changes both."""
    game = get_game("artsociety").create(FOUR, seed=5, first=0)
    bots = [get_game("artsociety").make_bot("random", 7 + s) for s in range(4)]
    app = OfflineApp(game, seat=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for _ in range(60):
            seat = game.to_act()[0]
            app.others({**bots[seat].choose(game.view(seat)), "seat": seat})
        await pilot.pause()
        lines = screen_lines(app)
        box = others_box(lines)
        assert "carol" not in box[0] and box[0].count("Heurist") == 3, box[0]
        walls = [row for row in box if "▀" in row]
        assert walls and all(row.count("▀") == 30 and "…" not in row for row in walls), box
        assert "carol's wall" in "".join(lines[:2])
        footer = lines[-1]
        assert "Move" not in footer and "←" not in footer and "w Walls" in footer, footer
        await pilot.press("w")
        await pilot.pause()
        lines = screen_lines(app)
        assert "Heuristic bot 1's wall" in "".join(lines[:2])
        names = others_box(lines)[0]
        assert "carol" in names and "Heurist…1" not in names and names.count("Heurist") == 2


async def test_a7_the_stars_show_under_the_starting_paintings_ghost() -> None:
    """Play-tests evening #9: "Hang your starting painting over a star (*)" with no star
    in sight: the ghost, on a star at first, hid both."""
    app = ArtSocietyOffline(ArtSociety(FOUR, seed=5))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.table
        assert isinstance(table, ArtSocietyTable)
        option = table.current()
        assert option is not None and option.source == "start"
        assert "over a star (*)" in panel(table)
        corner = cell_of(*table.cursor, 10)  # the ghost's top-left shows its label
        stars = [s for s in table.view["wall"]["stars"] if s != corner]
        wall = str(table.query_one("#as-wall", LinePanel).content)
        assert stars and wall.count("*") == len(stars), wall


async def test_a9_the_lot_chooser_says_in_words_what_its_numbers_are() -> None:
    """Play-tests evening #9: "Piles, shape:left" over "2×2:16 3×2:12 …" was cryptic."""
    app = ArtSocietyOffline(ArtSociety(FOUR, seed=5))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await play_until(pilot, app, lambda t: "shapes" in t.legal)
        words = panel(table)
        assert "Size (wide×high): paintings left" in words and "2×2:" in words, words
        assert "shape:left" not in words and "worth wide+high−1" in words
        lines = screen_lines(app)
        assert any("│ Size (wide×high): paintings left" in line for line in lines)


async def test_a9_the_lot_chooser_counts_what_the_lot_took_from_each_pile() -> None:
    """Play-tests 2026-12-03 (before midnight) #3: with a 2×2 in the lot the chooser still
    said "2×2:1", and Enter on it then said the pile had no more paintings."""
    app = ArtSocietyOffline(ArtSociety(FOUR, seed=5))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await play_until(pilot, app, lambda t: "shapes" in t.legal)
        piles = table.legal["shapes"]["piles"]
        name = list(piles)[table.pointer % len(piles)]
        shown = rf"{name.replace('x', '×')}:(\d+)"
        assert int(re.search(shown, panel(table))[1]) == piles[name]
        await pilot.press("enter")
        await pilot.pause()
        assert table.chosen == [name] and "Lot: " + name.replace("x", "×") in panel(table)
        assert int(re.search(shown, panel(table))[1]) == piles[name] - 1


async def test_back_in_the_lobby_the_cursor_is_on_a_room_with_a_free_seat() -> None:
    """Play-tests evening #9: after leaving a game the cursor sat on a full room. It goes to
    the first room with a free seat, else to the game just left while it plays on."""
    friday, club, solo = OfflineLobbyApp.ROOMS  # Club: full and playing
    left = {**club, "id": "x9", "name": "Left", "seated": ["Ann", "Bob", "Cy"]}
    app = OfflineLobbyApp(url="ws://offline/", name="Ann", rooms=[club, left, friday, solo])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lobby = app.lobby
        assert lobby is not None
        lobby.came_back("x9")
        lobby.show_rooms(app.rooms)  # the list the server sends on return
        await pilot.pause()
        assert (lobby.selected_room() or {}).get("name") == "Friday night"
        lobby.came_back("x9")
        lobby.show_rooms([club, left])  # no free seat anywhere: the game just left
        await pilot.pause()
        assert (lobby.selected_room() or {}).get("name") == "Left"


async def test_s11_a_payout_row_of_all_is_said_once() -> None:
    """Play-tests evening #9: Serengeti's first auction showed "pays all all all …" under
    the ten digits; while no one holds a digit it says so in words."""
    game = get_game("serengeti").create(FOUR[:3], seed=5, first=0)
    app = OfflineApp(game, seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lines = screen_lines(app)
        assert any("│ Ends in  any digit" in line for line in lines), lines[:8]
        assert any("│ pays     everyone else, shared (no one holds" in line for line in lines)
        assert not any("all   all" in line for line in lines)
