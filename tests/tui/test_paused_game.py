"""Issue 28 (play-tests: "a game with no human connected pauses without saying so"): the
leave dialog says what happens to the game while you are away, and a spectator's table
and the lobby say "paused" while the game waits for a player. The real app under
`run_test()` against a real in-process server without --dev (a game with no player
connected pauses only there)."""

from __future__ import annotations

import pathlib
from collections.abc import AsyncIterator
from typing import Any

import pytest
from tui_keys import log_text, text_of, until
from websockets.asyncio.client import connect

from modernart.server.wire.app import Server
from modernart.tui.app import ClientApp
from modernart.tui.confirm import Confirm
from modernart.tui.rowlist import RowList
from modernart.tui.tokens import TokenStore


@pytest.fixture
async def url(tmp_path: pathlib.Path) -> AsyncIterator[str]:
    """A public server (not --dev): the `raw` clients and the apps connect to it."""
    server = Server(tmp_path / "public", port=0)
    await server.start()
    yield f"ws://127.0.0.1:{server.port}/"
    await server.stop()


async def back_with(url: str, name: str, token: str) -> Any:
    """`name` says hello again with their token: their seat is theirs again."""
    from conftest import RawClient  # tests/tui/conftest.py (on the path for these tests)

    client = RawClient(await connect(url))
    await client.send("hello", v=1, name=name, token=token)
    await client.wait_for("joined")
    return client


def token_of(client: Any) -> str:
    return next(m["token"] for m in client.inbox if m["t"] == "welcome")


def lobby_rows(app: ClientApp) -> str:
    table = app.screen.query_one(RowList)
    return " ".join(cell for row in range(table.row_count) for cell in table.cells_at(row))


async def test_the_leave_dialog_says_a_stand_in_or_a_pause(url, raw, tmp_path):
    bob = await raw("Bob")
    await bob.send("create", game="serengeti", seats=3, options={"bot_delay_ms": 500})
    await bob.wait_for("joined")
    app = ClientApp(url, "Ann", tokens=TokenStore(tmp_path / "tokens.json"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.lobby is not None and app.lobby.rooms)
        await pilot.press("j")
        await until(pilot, lambda: app.seat == 1)
        await bob.send("add_bot")
        await bob.send("start")
        await until(pilot, lambda: app.table is not None and app.table.game_running)
        await pilot.press("L")
        await until(pilot, lambda: isinstance(app.screen, Confirm))
        assert "a stand-in bot plays for you after 60 s" in app.screen.detail
        assert "pauses" not in app.screen.detail
        await pilot.press("n")
        await bob.close()
        await until(pilot, lambda: not app.table.view["seats"][0]["connected"])
        await pilot.press("L")
        await until(pilot, lambda: isinstance(app.screen, Confirm))
        assert "No other player is at the table: the game pauses" in app.screen.detail
        assert "stand-in" not in app.screen.detail
        await pilot.press("n")


async def test_a_spectator_and_the_lobby_see_the_pause_and_its_end(url, raw, tmp_path):
    ann = await raw("Ann")
    await ann.send("create", game="modernart", seats=3, options={"bot_delay_ms": 500})
    await ann.wait_for("joined")
    await ann.send("add_bot")
    await ann.send("add_bot")
    await ann.send("start")
    await ann.wait_for("update")
    app = ClientApp(url, "Sam", tokens=TokenStore(tmp_path / "tokens.json"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.lobby is not None and app.lobby.rooms)
        await pilot.press("w")
        await until(pilot, lambda: app.table is not None and app.table.view.get("status"))

        def status() -> str:
            return text_of(app.screen.query_one("#status"))

        assert "paused" not in status()
        await ann.close()
        await until(pilot, lambda: "paused" in status())
        assert "No player is at the table: the game is paused" in log_text(app)
        ann = await back_with(url, "Ann", token_of(ann))
        await until(pilot, lambda: "paused" not in status())
        assert "Ann is back The game goes on" in log_text(app)
        await ann.close()
        await until(pilot, lambda: "paused" in status())
        await pilot.press("L")  # a spectator leaves without a question
        await until(pilot, lambda: app.lobby is not None and app.screen is app.lobby)
        await until(pilot, lambda: "paused" in lobby_rows(app))


async def test_a_late_spectator_reads_the_pause_below_the_older_events(url, raw, tmp_path):
    """Play-tests 2026-12-03 night #6: a spectator who came to a paused room read the pause
    line above the room's history (the first view came before the history): the pause
    is the state now, so it comes last."""
    ann = await raw("Ann")
    await ann.send("create", game="modernart", seats=3, options={"bot_delay_ms": 500})
    await ann.wait_for("joined")
    await ann.send("add_bot")
    await ann.send("add_bot")
    await ann.send("start")
    await ann.wait_for("update")
    await ann.close()  # nobody at the table: the game pauses
    app = ClientApp(url, "Sam", tokens=TokenStore(tmp_path / "tokens.json"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.lobby is not None and "paused" in lobby_rows(app))
        await pilot.press("w")
        paused = "No player is at the table: the game is paused"
        await until(pilot, lambda: app.table is not None and paused in log_text(app))
        await until(pilot, lambda: not app.history_pending)
        await pilot.pause()
        log = log_text(app)
        assert "Ann lost the connection" in log
        assert log.index("Ann lost the connection") < log.index(paused)
        assert log.count(paused) == 1
