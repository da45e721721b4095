"""Issue: what a newcomer saw cut or wrapped at 80×24, each kept on its row (Modern Art)."""

from __future__ import annotations

from textual.app import App, ComposeResult

from modernart.tui.modernart.players import Players

BOUGHT = ["lite_metal.open", "karl_gitter.open", "krypto.open", "krypto.sealed"]


class PlayersAt80(App[None]):
    """The players box as wide as the table's left column at 80 columns (40 cells)."""

    CSS = "Players { width: 40; border: round white; padding: 0 1; }"

    def compose(self) -> ComposeResult:
        yield Players()


async def test_bought_keeps_one_row_at_80_columns() -> None:
    view = {
        "you": 0,
        "status": "playing",
        "to_act": [0],
        "auctioneer": 0,
        "seats": [
            {"name": "Ann", "hand_size": 5, "money": 90, "purchased": BOUGHT},
            {"name": "Heuristic bot 12", "bot": True, "hand_size": 5},
            {"name": "Vera (H)", "bot": True, "hand_size": 4},
        ],
    }
    app = PlayersAt80()
    async with app.run_test(size=(80, 24)) as pilot:
        players = app.query_one(Players)
        players.show(view)
        await pilot.pause()
        rows = players.text.splitlines()
        assert len(rows) == 1 + 3  # the header and one row per seat: nothing wrapped
        assert "LM1 KG1 KR2" in rows[1] and rows[1].startswith("▶ A Ann")
        assert "Heuris" in rows[2]  # names shrink first, keeping a trailing number
        # With nothing bought, names keep their former width.
        calm = {**view, "seats": [{**s, "purchased": []} for s in view["seats"]]}
        players.show(calm)
        assert players.name_width == 10
