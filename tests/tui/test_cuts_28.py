"""Issue 28's list: what was cut at 80×24, each the real app at that size against the real
engine: a Modern Art card's round-ending note (R18), the lobby's Watch column, and Modern
Art's game-over line (docs/playtests.md #9)."""

from __future__ import annotations

from test_artsociety_newcomer import screen_lines
from tui_offline import NAMES, OfflineApp, OfflineLobbyApp, hand_deck

from modernart.engine.modernart import Game
from modernart.tui.modernart.hand import Hand
from modernart.tui.modernart.summary import GameOver

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


async def test_the_lobby_at_80_columns_tells_the_rooms_spectators() -> None:
    """Under 100 columns the Watch column is left out: the hint under the rooms says how
    many watch the room under the cursor."""
    app = OfflineLobbyApp(url="ws://offline/", name="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.lobby is not None
        hint = str(app.lobby.query_one("#lobby-hint").render())
        assert "w watch (0 watching)" in hint  # Friday night
        await pilot.press("down")  # Club: two spectators
        await pilot.pause()
        assert any("w watch (2 watching)" in row for row in screen_lines(app))


async def test_r23_the_game_over_values_line_breaks_between_artists_at_80x24() -> None:
    """Playtests #9: the last round's values wrapped inside "others 0" ("others" / "0")."""
    game = Game(NAMES, deck=hand_deck([]), first_auctioneer=0)
    app = OfflineApp(game, seat=0)
    last_round = {
        "type": "round_end",
        "round": 4,
        # values add up over the rounds (R23): "others" ended the 70 columns, its 0 wrapped
        "values": {"christin_p": 120, "karl_gitter": 110, "yoko": 90},
        "ranking": ["christin_p", "karl_gitter", "yoko"],
        "sales": [90, 0, 50, 0],
    }
    end = {"type": "game_end", "money": [210, 95, 180, 40], "winners": [0]}
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(GameOver(end, NAMES, last_round, [["christin_p.open"], [], [], []]))
        await pilot.pause()
        rows = screen_lines(app)
        assert any("Christin P. 120 · Karl Gitter 110 · Yoko 90" in r for r in rows), rows
        assert any("others 0" in r for r in rows)
