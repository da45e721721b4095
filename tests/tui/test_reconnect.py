"""Reconnection with the identity token: a restarted server, a restarted client."""

from __future__ import annotations

import pathlib

from textual.message import Message
from tui_keys import text_of, until

from modernart.server.wire.app import Server
from modernart.tui.app import ClientApp
from modernart.tui.messages import ConnectionChanged
from modernart.tui.tokens import TokenStore


async def test_server_restart_shows_state_and_resumes_the_seat(raw, tmp_path: pathlib.Path):
    data = tmp_path / "data"
    server = Server(data, port=0, dev=True)
    await server.start()
    port = server.port
    url = f"ws://127.0.0.1:{port}/"
    states: list[str] = []

    def hook(message: Message) -> None:
        if isinstance(message, ConnectionChanged):
            states.append(message.state)

    app = ClientApp(url, "Ann", tokens=TokenStore(tmp_path / "tokens.json"))
    try:
        async with app.run_test(size=(80, 24), message_hook=hook) as pilot:
            await until(pilot, lambda: app.lobby and app.lobby.connection == "connected")
            app.send({"t": "create", "seats": 3, "options": {"bot_delay_ms": 10_000}})
            await until(pilot, lambda: app.table is not None and app.table.view.get("host") == 0)
            await pilot.press("b", "b", "s")
            await until(pilot, lambda: app.table.view.get("round") == 1)
            room, hand = app.table.view["room"], app.table.view["hand"]
            await server.stop()
            status = app.table.query_one("#status")
            await until(pilot, lambda: "reconnecting" in text_of(status))
            assert "Connection lost" in " ".join(s.text for s in app.table.query_one("#log").lines)
            server = Server(data, port=port, dev=True)
            await server.start()
            await until(pilot, lambda: "online" in text_of(status), timeout=15)
            await until(pilot, lambda: app.seat == 0 and app.last_seq is not None)
            assert app.table.view["room"] == room and app.table.view["hand"] == hand
            assert states[0] == "connecting" and "reconnecting" in states
            assert states[-1] == "connected"
    finally:
        await server.stop()


async def test_restarted_client_resumes_its_seat_from_the_token_store(url, raw, tmp_path):
    bob = await raw("Bob")
    await bob.send("create", seats=3, name="T", options={"bot_delay_ms": 10_000})
    joined = await bob.wait_for("joined")
    tokens = TokenStore(tmp_path / "config" / "tokens.json")
    first = ClientApp(url, "Ann", tokens=tokens)
    async with first.run_test() as pilot:
        await until(pilot, lambda: first.lobby is not None and first.lobby.rooms)
        await pilot.press("j")
        await until(pilot, lambda: first.seat == 1)
    assert tokens.get(url, "Ann") and tokens.identities() == [(url, "Ann")]
    assert oct(tokens.path.stat().st_mode & 0o777) == "0o600"
    await bob.send("add_bot")
    await bob.send("start")
    await bob.wait_for("update")
    second = ClientApp(url, "Ann", tokens=tokens)
    async with second.run_test() as pilot:
        # No key pressed: the token alone brings Ann back to her seat at the table.
        await until(pilot, lambda: second.table is not None and second.table.view.get("round") == 1)
        assert second.room == joined["room"] and second.seat == 1
        assert len(second.table.view["hand"]) == 10


async def test_restarted_client_watches_again_the_room_it_watched(url, raw, tmp_path):
    """Issue 16: a spectator who quits and starts the client again is back in that room
    (the server remembers it, `welcome.watching`); one who left it first is not."""
    bob = await raw("Bob")
    await bob.send("create", seats=3, name="T", options={"bot_delay_ms": 10_000})
    room = (await bob.wait_for("joined"))["room"]
    await bob.send("add_bot")
    await bob.send("add_bot")
    await bob.send("start")
    await bob.wait_for("update")
    tokens = TokenStore(tmp_path / "tokens.json")
    first = ClientApp(url, "Ann", tokens=tokens)
    async with first.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: first.lobby is not None and first.lobby.rooms, timeout=30)
        await pilot.press("w")
        await until(
            pilot,
            lambda: first.table is not None and first.table.view.get("round") == 1,
            timeout=30,
        )
        assert first.watching == room and first.seat is None
        await first.quit_on_purpose()
    second = ClientApp(url, "Ann", tokens=tokens)
    async with second.run_test(size=(80, 24)) as pilot:
        # No key pressed: back at the watched table.
        await until(
            pilot,
            lambda: second.table is not None and second.table.view.get("round") == 1,
            timeout=30,
        )
        assert second.room == room and second.seat is None and second.watching == room
        await pilot.press("L")  # leaves the room: the lobby, and nothing to watch again
        await until(pilot, lambda: second.table is None and second.lobby.rooms, timeout=30)
    third = ClientApp(url, "Ann", tokens=tokens)
    async with third.run_test(size=(80, 24)) as pilot:
        # The list was shown, not answered with a `watch` (ClientApp._on_rooms).
        await until(pilot, lambda: third.lobby is not None and third.lobby.rooms, timeout=30)
        assert third.table is None and third.watching is None
