"""Issue 19, presence the same at every table: who is connected, away (a stand-in plays,
said once when it starts and when they are back), left, watching; "no clock" where no
turn clock runs; a stand-in's move told as the stand-in's; Ctrl+Q is "left". The real
app under `run_test()` against a real in-process server, Art Society and Modern Art."""

from __future__ import annotations

import contextlib
import pathlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from tui_keys import log_text, text_of, until
from tui_table import seated_game

from modernart.tui.app import ClientApp
from modernart.tui.confirm import Confirm
from modernart.tui.tokens import TokenStore


def status(app: ClientApp) -> str:
    return text_of(app.screen.query_one("#status"))


def log_title(app: ClientApp) -> str:
    return str(app.table.query_one("#log").border_title)


@contextlib.asynccontextmanager
async def art_table(
    url: str, raw: Callable[[str], Awaitable[Any]], tmp_path: pathlib.Path, **options: Any
) -> AsyncIterator[tuple[ClientApp, Any, Any, str]]:
    """An Art Society game: Bob (raw client, host, seat 0), Ann (the app, seat 1), a
    random bot in seat 2."""
    bob = await raw("Bob")
    await bob.send("create", game="artsociety", seats=3, name="Walls", options=options)
    room = (await bob.wait_for("joined"))["room"]
    app = ClientApp(url, "Ann", tokens=TokenStore(tmp_path / "tokens.json"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.lobby is not None and app.lobby.rooms)
        await pilot.press("j")
        await until(pilot, lambda: app.seat == 1)
        await bob.send("add_bot", level="random")
        await bob.send("start")
        await until(pilot, lambda: app.table is not None and app.table.view.get("phase"))
        yield app, pilot, bob, room


def token_of(client: Any) -> str:
    return next(m["token"] for m in client.inbox if m["t"] == "welcome")


async def test_art_society_tells_who_is_gone_away_and_back(url, raw, tmp_path):
    """The game has no presence code of its own: the shared table tells it all, the
    stand-in said once when it starts and once when its player is back."""
    async with art_table(url, raw, tmp_path, takeover_s=1, turn_timeout_s=0) as (
        app,
        pilot,
        bob,
        _room,
    ):
        token = token_of(bob)
        await bob.close()
        await until(pilot, lambda: "Bob lost the connection" in log_text(app))
        await until(pilot, lambda: "Bob offline" in status(app) or "Bob: stand-in" in status(app))
        away = "Bob is away: a stand-in bot plays for them until they are back"
        await until(pilot, lambda: away in log_text(app))
        await until(pilot, lambda: "Bob: stand-in" in status(app))
        await until(pilot, lambda: "Bob's stand-in" in log_text(app), timeout=20)
        again = await raw_with_token(url, "Bob", token)
        try:
            await until(pilot, lambda: "Bob is back: the stand-in stops" in log_text(app))
            await until(pilot, lambda: "Bob" not in status(app).split("online")[-1])
            assert log_text(app).count(away) == 1
        finally:
            await again.close()


async def raw_with_token(url: str, name: str, token: str) -> Any:
    from conftest import RawClient
    from websockets.asyncio.client import connect

    client = RawClient(await connect(url))
    await client.send("hello", v=1, name=name, token=token)
    await client.wait_for("welcome")
    return client


async def test_the_log_title_counts_who_watches_and_says_no_clock(url, raw, tmp_path):
    async with art_table(url, raw, tmp_path, takeover_s=0, turn_timeout_s=0) as (
        app,
        pilot,
        _bob,
        room,
    ):
        await until(pilot, lambda: "no clock" in log_title(app))
        assert "watching" not in log_title(app)
        cy = await raw("Cy")
        await cy.send("watch", room=room)
        await until(pilot, lambda: "1 watching" in log_title(app))
        await cy.send("leave")
        await until(pilot, lambda: "watching" not in log_title(app))


async def test_a_stand_ins_move_for_you_is_told_as_the_stand_ins(url, raw, tmp_path):
    """What a stand-in did while you were away reads "The stand-in … for you"; never
    "You bid 7" (here: the update you would read in your log on coming back)."""
    async with seated_game(url, raw, tmp_path, ["lite_metal.open"], takeover_s=0) as (
        app,
        pilot,
        _bob,
        _cy,
    ):
        table = app.table
        table.add_history(
            [
                {"type": "autopilot", "seat": 1},
                {"type": "stand_in", "seat": 1},
                {"type": "bid", "seat": 1, "amount": 7},
                {"type": "stand_in", "seat": 0},
                {"type": "pass", "seat": 0},
                {"type": "connected", "seat": 1},
            ]
        )
        await pilot.pause()
        text = log_text(app)
        assert "The stand-in bids 7 for you" in text
        assert "You bid 7" not in text
        assert "Bob's stand-in passes" in text
        assert "You are back: the stand-in stops" in text


async def test_ctrl_q_is_leaving_on_purpose_never_a_lost_connection(url, raw, tmp_path):
    async with seated_game(url, raw, tmp_path, ["lite_metal.open"], takeover_s=0) as (
        app,
        pilot,
        bob,
        _cy,
    ):
        await pilot.press("ctrl+q")
        assert isinstance(app.screen, Confirm)
        await pilot.press("y")
    update = await bob.wait_for("update", events=[{"type": "left", "seat": 1}])
    assert update["view"]["seats"][1]["left"] is True
    lost = [
        m
        for m in bob.inbox
        if m["t"] == "update" and {"type": "disconnected", "seat": 1} in m["events"]
    ]
    assert not lost


def test_the_players_on_column_says_away_and_left_as_the_status_line_does():
    from modernart.tui.presence import presence_text, seat_status

    seats = [
        {"name": "Ann", "connected": True},
        {"name": "Bob", "connected": False, "bot": True, "autopilot": True, "left": False},
        {"name": "Cy", "connected": False, "left": True},
        {"name": "Dee", "connected": False},
        {"name": "Vera (H)", "connected": True, "bot": True},
    ]
    assert [seat_status(s).plain for s in seats] == ["●", "away", "left", "off", "bot"]
    line = presence_text({"you": 0, "seats": seats}).plain
    assert line == " · Bob: stand-in · Cy left · Dee offline"
