"""Issue 28's list: what was cut at 80×24, each the real app at that size against the real
engine: a Modern Art card's round-ending note (R18), the lobby's Watch column, and Modern
Art's game-over line (docs/playtests.md #9)."""

from __future__ import annotations

from test_artsociety_newcomer import screen_lines
from tui_offline import NAMES, OfflineApp, OfflineLobbyApp, hand_deck

from modernart.engine.modernart import Game
from modernart.tui.modernart.hand import Hand
from modernart.tui.modernart.summary import GameOver
from modernart.tui.roomrows import COLUMNS

LONGEST = "karl_gitter.fixed_price"  # "Karl Gitter (fixed price)", the longest card name


async def test_r18_the_round_ending_note_fits_beside_the_longest_card_name() -> None:
    game = Game(NAMES, deck=hand_deck([[LONGEST, "karl_gitter.double"]]), first_auctioneer=0)
    app = OfflineApp(game, seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        hand = app.table.query_one(Hand)
        view = {**app.table.view, "counts": {"karl_gitter": 4}}
        for action in ("play", "add"):  # "add": the double would go unsold too
            hand.show(view["hand"], {action: [LONGEST]}, view)
            hand.focus()
            hand.cursor = hand.cards.index(LONGEST)
            await pilot.pause()
            rows = screen_lines(app)
            unsold = "double unsold" if action == "add" else "unsold"
            note = f"Karl Gitter (fixed price) · * the 5th: ends the round, {unsold} (R18)"
            assert any(f"│ {note}" in row for row in rows), rows[-8:]


LONG_ROOMS = [
    *OfflineLobbyApp.ROOMS,
    {
        "id": "d4",
        "name": "carol's big table 2",
        "game": "artsociety",
        "seats": 4,
        "seated": ["carol", "Heuristic bot 1", "Heuristic bot 2", "Heuristic bot 3"],
        "status": "finished",
        "variant": "exchange_any",
        "options": {"hints": False},
        "spectators": 12,
        "locked": True,
    },
]


async def test_the_lobby_at_80_columns_shows_every_column_whole() -> None:
    """Play-tests 2026-12-03 evening #7: at 80 columns "Variant" was cut and Lock and
    Watch were off the screen (a horizontal scroll bar in the browser). Every column now
    shows, its header whole, at 80 and 99 columns and after a resize, with no scroll bar."""
    app = OfflineLobbyApp(url="ws://offline/", name="Ann", rooms=LONG_ROOMS)
    async with app.run_test(size=(120, 24)) as pilot:
        for width in (80, 99, 80):
            await pilot.resize_terminal(width, 24)
            await pilot.pause()
            assert app.lobby is not None
            table = app.lobby.query_one("#rooms")
            assert table.virtual_size.width <= table.scrollable_content_region.width
            rows = screen_lines(app)
            assert rows[2].strip("│").split() == list(COLUMNS), rows[2]
            assert rows[3].rstrip(" │").endswith(" 0") and "Club" in rows[4], rows[3:7]
            assert rows[4].rstrip(" │").endswith("yes  2"), rows[4]
            last = rows[6]
            room = "carol's big t…2" if width == 80 else "carol's big table 2"
            assert room in last and "Art Society*" in last, last
            assert "finished" in last and last.rstrip(" │").endswith("yes  12"), last


async def test_the_room_s_name_takes_what_short_players_and_variants_leave() -> None:
    """Play-test 2026-12-05 #7: at about 101 columns (a 905 px page) rematch rooms read
    "alice's tab… · rematch" beside a Variant column of blanks. What the players' and the
    variants' cells do not take goes to the room's name: whole there, and at 80 columns
    cut less than its share alone allowed (roomrows.py `Layout.of`)."""
    rooms = [
        {"id": f"r{n}", "name": f"alice's table · rematch {n}", "game": "modernart", "seats": 3}
        | {"seated": ["alice", "bob", "cy"], "status": "playing", "variant": "classic"}
        for n in (2, 3)
    ]
    app = OfflineLobbyApp(url="ws://offline/", name="Ann", rooms=rooms)
    async with app.run_test(size=(101, 24)) as pilot:
        await pilot.pause()
        rows = screen_lines(app)
        for n in (2, 3):
            assert any(f"alice's table · rematch {n} " in row for row in rows), rows[:6]
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        rows = screen_lines(app)
        # The room's share alone gave "al… · rematch 2"; the variant's spare cells go to it.
        assert any("│▶ alic… · rematch 2 Modern Art" in row for row in rows), rows[:6]


async def game_over_rows(last_round: dict) -> list[str]:
    """The screen's rows at 80×24 with the game-over box over a table."""
    game = Game(NAMES, deck=hand_deck([]), first_auctioneer=0)
    app = OfflineApp(game, seat=0)
    end = {"type": "game_end", "money": [210, 95, 180, 40], "winners": [0]}
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(GameOver(end, NAMES, last_round, [["christin_p.open"], [], [], []]))
        await pilot.pause()
        return screen_lines(app)


async def test_r23_the_game_over_values_line_breaks_between_artists_at_80x24() -> None:
    """Playtests #9: the last round's values wrapped inside "others 0" ("others" / "0")."""
    last_round = {
        "type": "round_end",
        "round": 4,
        # values add up over the rounds (R23): "others" ended the 70 columns, its 0 wrapped
        "values": {"christin_p": 120, "karl_gitter": 110, "yoko": 90},
        "ranking": ["christin_p", "karl_gitter", "yoko"],
        "sales": [90, 0, 50, 0],
    }
    rows = await game_over_rows(last_round)
    assert any("Christin P. 120 · Karl Gitter 110 · Yoko 90" in r for r in rows), rows
    assert any("others 0" in r for r in rows)


async def test_r23_the_game_over_values_line_says_which_part_of_a_price_came_before() -> None:
    """Playtests 2026-12-05 #2: "Christin P. 60 · Yoko 80" in place order read as a mistake;
    each price now says this round's token and what earlier rounds added (R23)."""
    last_round = {
        "type": "round_end",
        "round": 4,
        "ranking": ["christin_p", "yoko", "krypto"],
        "tokens": {"christin_p": 30, "yoko": 20, "krypto": 10},
        "values": {"christin_p": 60, "yoko": 80, "krypto": 10},
        "sales": [60, 0, 80, 0],
    }
    text = " ".join(row.strip("│ ") for row in await game_over_rows(last_round))
    assert "Round 4: each painting sold for this round's value + earlier rounds'" in text
    assert "Christin P. 60 = 30 + 30" in text, text
    assert "Yoko 80 = 20 + 60" in text, text
    assert "Krypto 10 ·" in text and "Krypto 10 =" not in text, text  # nothing before
