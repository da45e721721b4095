"""The Art Society table (ARTSOCIETY.md A1–A28) played with keys only: the real app against a
real in-process server, and against the real engine for exact screen states."""

from __future__ import annotations

import asyncio
import pathlib

from artsociety_keys import arrows, keys_for
from artsociety_offline import NAMES
from tui_keys import until

from modernart.engine.artsociety.state import ArtSociety
from modernart.tui.app import ClientApp
from modernart.tui.artsociety import ArtSocietyTable
from modernart.tui.artsociety.end import ArtSocietyEnd
from modernart.tui.lines import LinePanel
from modernart.tui.local import LocalGame


def panel_text(table: ArtSocietyTable) -> str:
    return str(table.query_one("#as-panel", LinePanel).content)


async def test_a7_a28_whole_game_with_keys_only_against_a_server(tmp_path: pathlib.Path) -> None:
    """A whole 4-player game through real sockets, every decision by key presses: a placement
    on a wrong spot is refused on screen (nothing sent), frame bonuses are taken with keys,
    and the end screen shows every player's score broken down (A23–A27)."""
    deck = ArtSociety(NAMES, seed=11).deck
    local = LocalGame(
        players=4,
        game="artsociety",
        variant="house",
        bot_level="heuristic",
        options={"bot_delay_ms": 0, "deck": deck},
        dev=True,
        data_dir=tmp_path,
    )
    app = ClientApp(name="Ann", local=local)
    refused = bonuses = turns = 0
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.table is not None and bool(app.table.legal), 20)
        table = app.table
        assert isinstance(table, ArtSocietyTable)
        acted_on = None
        async with asyncio.timeout(240):
            while not isinstance(app.screen, ArtSocietyEnd):
                await pilot.pause(0.02)
                if app.last_seq == acted_on or not table.legal:
                    if table.error and "Not sent" not in table.error:
                        raise AssertionError(table.error)  # the server refused a move
                    continue
                if not refused and table.legal.get("place", [{}])[0].get("tile") == "picked":
                    # A13: a spot touching nothing; Enter is refused before anything is sent.
                    seq = app.last_seq
                    await pilot.press(*arrows(table.cursor, (0, 0)), "enter")
                    await pilot.pause(0.2)
                    text = panel_text(table)
                    assert "Not here: a " in text and " at A1 " in text, text
                    assert "(A13)" in text and "Not sent: move the ghost" in text
                    assert app.last_seq == seq and "place" in table.legal  # nothing was sent
                    refused += 1
                if "decor" in table.legal:
                    bonuses += 1
                keys, sends = keys_for(table, turns)
                turns += 1
                if sends:
                    acted_on = app.last_seq
                await pilot.press(*keys)
        end = app.screen
        assert isinstance(end, ArtSocietyEnd)
        scores = end.event["scores"]
        assert [s["score"]["total"] for s in table.view["seats"]] == [s["total"] for s in scores]
        totals = [s["total"] for s in scores]
        assert all(totals[w] == max(totals) for w in end.event["winners"])
        assert refused == 1 and bonuses >= 1
        await pilot.press("enter")
        assert app.screen is table and table.view["finished"]
