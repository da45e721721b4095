"""Issue 28's night play-test, minor findings (docs/decisions/28-minor.md): the real client
against a real server, or offline on the real engine."""

from __future__ import annotations

import pathlib

import pytest
from artsociety_offline import ArtSocietyOffline
from rich.console import Console
from test_artsociety_screens import play_until
from test_rematch_in_sight import GAMES, NAMES, dialog_text, played_out
from textual.screen import ModalScreen
from tui_keys import log_text, text_of, until
from tui_offline import OfflineApp, OfflineLobbyApp, server_view
from tui_serengeti import ann_to_act
from tui_serengeti import new_game as new_serengeti
from tui_serengeti import offline as serengeti_offline
from tui_serengeti import play_until as play_serengeti
from tui_table import seated_game

from modernart.engine.artsociety.state import ArtSociety
from modernart.engine.games import get_game
from modernart.tui.amount import AmountInput
from modernart.tui.artsociety import values
from modernart.tui.artsociety.end import score_table
from modernart.tui.artsociety.look import GENRES, wall_text
from modernart.tui.confirm import Confirm
from modernart.tui.modernart.auction import AuctionPanel
from modernart.tui.ratingwords import rating_line
from modernart.tui.rowlist import RowList


async def test_a_bid_outbid_while_typed_is_said_in_the_log(url, raw, tmp_path: pathlib.Path):
    """Play-test #2: `5 Enter` after Bob bid 10 meanwhile was dropped with only "✗ min 11"
    beside the entry (and the entry's error line is wiped by the next shout): the log
    says it was not sent and why, and nothing goes out."""
    async with seated_game(url, raw, tmp_path, ["lite_metal.open"]) as (app, pilot, bob, cy):
        await pilot.press("enter")
        await until(pilot, lambda: app.table.view.get("phase") == "open")
        entry = app.table.query_one(AmountInput)
        await pilot.press("5")
        assert entry.value == "5"
        await bob.act(type="bid", amount=10)
        await until(pilot, lambda: (app.table.view.get("high") or {}).get("amount") == 10)
        assert entry.value == "5"  # what Ann typed stays
        await pilot.press("enter")
        said = "Your bid of 5 was not sent: the high bid is 10 (Bob). Bid at least 11."
        await until(pilot, lambda: said in log_text(app))
        await cy.act(type="bid", amount=12)  # the next shout wipes the entry's error line …
        await until(pilot, lambda: (app.table.view.get("high") or {}).get("amount") == 12)
        assert not text_of(app.table.query_one("#error"))
        assert said in log_text(app)  # … not the log
        # A bid the server refuses (sent as it was outbid) is in the log too.
        app.act({"type": "bid", "amount": 11})
        await until(pilot, lambda: "a bid must be at least 13" in log_text(app))
        assert app.table.view["high"] == {"amount": 12, "seat": 2}


@pytest.mark.parametrize("name", GAMES)
async def test_the_game_over_dialog_declines_and_an_accept_says_how_to_take_it_back(name):
    """Play-test #1: the game-over dialog said only "R: rematch" and `D` did nothing there;
    after accepting nothing said how to take it back. Now the dialog names and takes D,
    and the log tells who accepted that D takes it back."""
    app = OfflineApp(get_game(name).create(NAMES, seed=5, first=0), seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await played_out(app, name, pilot)
        dialog = app.screen
        assert isinstance(dialog, ModalScreen) and "D: decline" in dialog_text(dialog)
        await pilot.press("D")
        await until(pilot, lambda: app.screen is app.table)
        assert app.sent[-1] == {"t": "rematch", "room": "r1", "accept": False}
        app.table.show_rematch(
            {"t": "rematch", "room": "r1", "humans": [0, 1], "accepted": [], "declined": [0]}
        )
        await pilot.pause()
        assert "you declined; waiting for Bob · R: rematch after all" in log_text(app)
        await pilot.press("R")
        app.table.show_rematch(
            {"t": "rematch", "room": "r1", "humans": [0, 1], "accepted": [0], "declined": []}
        )
        await pilot.pause()
        assert "you accepted (1 of 2); waiting for Bob · D: take it back" in log_text(app)


def screen_lines(app) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


async def test_the_far_bid_question_keeps_the_lot_and_the_bid_cards_in_sight():
    """Play-test #8: "Bid 20? It is far from 1 …" blanked the whole table behind it (every
    modal screen was opaque). The question now sits at the screen's foot over the log:
    the lot being bid for, your wall and your bid cards stay in sight."""
    app = ArtSocietyOffline(ArtSociety(NAMES, seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await play_until(pilot, app, lambda t: "bid" in t.legal)
        await pilot.press("left", "enter")  # round to the highest card, far from the lowest
        await until(pilot, lambda: isinstance(app.screen, Confirm))
        await pilot.pause()
        lines = screen_lines(app)
        question = next(i for i, line in enumerate(lines) if "Bid 20?" in line)
        assert question >= 24 - 7  # the question at the foot …
        shown = "\n".join(lines[:question])
        for part in ("Your wall", "Bidding for the pick order", "Your bid cards", "18 19 20"):
            assert part in shown  # … the table above it
        await pilot.press("n")
        assert "bid" in table.legal and app.screen is table


def test_a_game_not_rated_says_why():
    """Play-test #4: "This game was not rated." said no reason; the server's `unrated`
    is told in words (an older server's event without it keeps the short line)."""
    nobody = [None, None, None]
    names = ["Ann", "Otto (R)", "Eve (E)"]
    assert rating_line(names, nobody, "weak_bots") == (
        "This game was not rated: random and easy bots are not rated; normal bots or stronger are."
    )
    assert "played today's rated games together" in rating_line(names, nobody, "pair_limit")
    assert "a new player's rating (with ?)" in rating_line(names, nobody, "provisional")
    assert rating_line(names, nobody) == "This game was not rated."
    assert rating_line(names, nobody, "no such reason") == "This game was not rated."


async def test_serengetis_lot_says_whose_gain_its_points_are():
    """Play-test #4: "Lot: Yellow 5, … (+6 pts)" did not say the points were yours."""
    game = new_serengeti()
    play_serengeti(game, ann_to_act(9))
    app = serengeti_offline(game)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_view([])
        await pilot.pause()
        lot = next(line for line in screen_lines(app) if "Lot:" in line)
        assert " pts if you win it)" in lot


PART = {"count": 0, "multiplier": 1, "points": 0}


def test_art_societys_faux_pas_row_counts_paintings_not_points():
    """Play-test #4: "faux pas (scored 0) 10" put a count of paintings in a column of
    points; the row now reads as the genres' rows do: 10×0=0."""
    house = values.house_of("house")
    scores = [{"faux_pas": 10, "paintings": {g: PART for g in GENRES}, "total": 0}] * 2
    console = Console(width=100, color_system=None)
    with console.capture() as shown:
        console.print(score_table(scores, ["Ann", "Bob"], [0], house))
    row = next(line for line in shown.get().splitlines() if "faux pas" in line)
    assert row.split() == ["faux", "pas", "10×0=0", "10×0=0"]


async def test_a_modern_art_clock_line_tells_peoples_clocks_not_bots():
    """Play-test #4: a round's summary (and the auction panel) told a bot's clock, "Otto:
    25 s left to decide": a bot never waits for it. Only people's clocks are told."""
    game = get_game("modernart").create(NAMES, seed=5, first=1)  # Bob decides first
    app = OfflineApp(game, seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        panel = app.table.query_one(AuctionPanel)
        view = {**server_view(game, 0), "deadline_ms": 30_000}
        app.push_view([], view)  # Bob is a bot here
        await pilot.pause()
        assert panel.clock_line("Your turn next: ") is None
        assert text_of(app.table.query_one("#clock")) == ""
        view["seats"][1]["bot"] = False  # Bob, a person
        app.push_view([], {**view, "deadline_ms": 30_001})
        await pilot.pause()
        line = panel.clock_line("Your turn next: ")
        assert (
            line is not None and line.plain.startswith("Bob: ") and "left to decide" in line.plain
        )


LONG_ROOMS = [
    {
        "id": "z9",
        "name": "carol's big table · rematch 2",
        "game": "artsociety",
        "seats": 4,
        "seated": ["carol", "dave", "Hugo (H)", "Vera (N)"],
        "status": "playing",
        "variant": "house_r1",
        "hints": False,
        "spectators": 12,
        "locked": True,
    },
    {
        "id": "z8",
        "name": "Solo",
        "game": "modernart",
        "seats": 3,
        "seated": ["Fay", "Abcdefghijklmnopqrstuvwxy"],
        "status": "waiting",
        "variant": "classic_3p_virtual",
        "hints": False,
        "spectators": 0,
    },
]


@pytest.mark.parametrize("width", [101, 120, 152, 153])
async def test_the_lobby_shows_every_column_whole_at_any_width(width):
    """Play-test #3: at 101 columns (a 760 px page) the lobby's columns took what their
    cells needed and ran off the screen: Watch cut to "W", a horizontal scroll bar.
    Columns take their cells' widths only where the widest cells fit."""
    app = OfflineLobbyApp(url="ws://offline/", name="Ann", rooms=LONG_ROOMS)
    async with app.run_test(size=(width, 24)) as pilot:
        await pilot.pause()
        table = app.screen.query_one(RowList)
        assert not table.show_horizontal_scrollbar
        assert table.virtual_size.width <= table.scrollable_content_region.width
        header = next(line for line in screen_lines(app) if "Seats" in line)
        assert header.split()[-3:] == ["Lock", "Watch", "│"]


def test_a_2_cell_decor_piece_draws_as_one_piece():
    """Play-test #9: a 2×1 decor piece drew as "+2  +", read as a +2 and another piece;
    its second cell is filled as a painting's are, in its colour."""
    layout = {"cols": 10, "rows": 10}
    wide = {"cell": "B1", "w": 2, "h": 1, "code": "d2", "shields": 2}
    tall = {"cell": "E2", "w": 1, "h": 3, "code": "d3", "shields": 3}
    rows = wall_text(layout, [wide, tall]).plain.splitlines()
    assert rows[1] == " 1 " + " · " + "+2 " + "   " + " · " * 7
    assert rows[2][3:].split() == ["·", "·", "·", "·", "+3", "·", "·", "·", "·", "·"]
    assert rows[3][3:].split() == ["·", "·", "·", "·", "▏", "·", "·", "·", "·", "·"]
    assert "+" not in rows[1].replace("+2", "") + rows[3] + rows[4]
