"""A guest in a waiting room is told that the host starts the game (playtests #13: Art
Society's waiting room said nothing to a guest). The real app against a real server."""

from __future__ import annotations

from tui_keys import text_of, until

from modernart.tui.app import ClientApp
from modernart.tui.lines import LinePanel
from modernart.tui.tokens import TokenStore


async def test_an_art_society_guest_reads_that_it_waits_for_the_host(url, raw, tmp_path):
    bob = await raw("Bob")
    await bob.send("create", seats=3, name="Salon", game="artsociety")
    await bob.wait_for("joined")
    app = ClientApp(url, "Ann", tokens=TokenStore(tmp_path / "tokens.json"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.lobby is not None and len(app.lobby.rooms) == 1)
        await pilot.press("enter")
        await until(pilot, lambda: app.table is not None and app.seat == 1)
        panel = lambda: text_of(app.table.query_one("#as-panel", LinePanel))  # noqa: E731
        await until(pilot, lambda: "Waiting for Bob (the host) to start the game." in panel())
        assert "s: start" not in panel()


async def test_the_host_is_offered_bots_only_while_a_seat_is_free(url, tmp_path):
    """Play-test 2026-12-05 #11: at "Waiting room: 4/4 seated." the host was still told
    "b adds a bot"; with every seat taken it is told that s starts the game."""
    app = ClientApp(url, "Ann", tokens=TokenStore(tmp_path / "tokens.json"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.lobby is not None and app.lobby.connection == "connected")
        await pilot.press("c")
        await pilot.pause()
        await pilot.press("ctrl+s")  # Modern Art, 4 seats
        await until(pilot, lambda: app.table is not None and app.table.query("#state"))
        state = lambda: text_of(app.table.query_one("#state", LinePanel))  # noqa: E731
        await until(pilot, lambda: "Waiting room: 1/4 seated." in state())
        assert "You host: b adds a bot" in state()
        await pilot.press("b", "b", "b")
        await until(pilot, lambda: "Waiting room: 4/4 seated." in state())
        assert "You host: every seat is taken; s starts the game." in state(), state()
        assert "adds a bot" not in state()
