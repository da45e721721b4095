"""The name dialog a newcomer meets when the name asked for is not free (issue 18's
`name_taken`, or a name the server refuses), against a real server: every key in it
ends in the lobby with a name, or in the dialog again with why. Keys are also sent in
one burst, as a terminal delivers what was typed ahead (an SSH session under load):
a second Enter used to pop the lobby under the dialog and a third raised
`ScreenStackError` (docs/decisions/terminal-client.md)."""

from __future__ import annotations

import pathlib

from textual import events
from textual.widgets import Static
from tui_keys import shown, text_of, until

from modernart.tui.app import ClientApp
from modernart.tui.botpick import BotLevelDialog
from modernart.tui.lobby import LobbyScreen, NameDialog
from modernart.tui.tokens import TokenStore


def make_app(url: str, tmp_path: pathlib.Path, name: str = "Ann") -> ClientApp:
    return ClientApp(url, name, tokens=TokenStore(tmp_path / "tokens.json"))


def burst(app: ClientApp, *keys: str) -> None:
    """Keys that arrive together: all are queued before the first is handled."""
    characters = {"enter": "\r", "escape": "\x1b"}
    for key in keys:
        app.post_message(events.Key(key, characters[key]))


def in_lobby_as(app: ClientApp, name: str) -> bool:
    return (
        app.you is not None
        and app.player_name == name
        and app.screen is app.lobby
        and app.lobby.connection == "connected"
    )


def screens(app: ClientApp) -> list[str]:
    return [type(s).__name__ for s in app.screen_stack]


async def test_enters_in_a_burst_take_the_offered_name_and_keep_the_lobby(url, raw, tmp_path):
    await raw("Ann")
    app = make_app(url, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: shown(app, NameDialog))
        burst(app, "enter", "enter", "enter")
        await until(pilot, lambda: in_lobby_as(app, "Ann2"))
        assert screens(app) == ["Screen", "LobbyScreen"]
        assert "you are Ann2" in text_of(app.lobby.query_one("#status"))
    assert app.return_code in (0, None)


async def test_a_taken_name_again_asks_again_and_escape_takes_the_offer(url, raw, tmp_path):
    await raw("Ann")
    await raw("Bob")
    app = make_app(url, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: shown(app, NameDialog))
        first = app.screen
        await pilot.press("ctrl+u", *"bob", "enter")  # Bob's, whatever its case
        await until(pilot, lambda: shown(app, NameDialog) and app.screen is not first)
        assert "bob is another player's name" in app.screen.prompt
        assert app.screen.current == "bob2"
        burst(app, "escape", "escape")
        await until(pilot, lambda: in_lobby_as(app, "bob2"))
        assert screens(app) == ["Screen", "LobbyScreen"]


async def test_an_empty_name_takes_the_offer(url, raw, tmp_path):
    await raw("Ann")
    app = make_app(url, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: shown(app, NameDialog))
        await pilot.press("ctrl+u", "enter")
        await until(pilot, lambda: in_lobby_as(app, "Ann2"))


async def test_a_name_the_server_refuses_is_asked_again_with_why(url, raw, tmp_path):
    """A bot's mark in a new player's name: refused at `hello`; the connection waits
    for another name instead of saying hello with the refused one for ever."""
    await raw("Ann")
    app = make_app(url, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: shown(app, NameDialog))
        first = app.screen
        await pilot.press("ctrl+u", *"Ann (R)", "enter")
        await until(pilot, lambda: shown(app, NameDialog) and app.screen is not first)
        assert "bot's mark" in app.screen.prompt and app.connection.held
        await pilot.press("ctrl+u", *"Annie", "enter")
        await until(pilot, lambda: in_lobby_as(app, "Annie"))
        assert screens(app) == ["Screen", "LobbyScreen"]


async def test_n_in_the_lobby_with_enters_in_a_burst_keeps_the_lobby(url, tmp_path):
    app = make_app(url, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: in_lobby_as(app, "Ann"))
        await pilot.press("n")
        assert isinstance(app.screen, NameDialog)
        await pilot.press("ctrl+u", *"Cleo")
        burst(app, "enter", "enter", "enter")
        await until(pilot, lambda: in_lobby_as(app, "Cleo"))
        assert isinstance(app.screen, LobbyScreen) and screens(app) == ["Screen", "LobbyScreen"]


async def test_enters_in_a_burst_seat_one_bot_and_keep_the_table(url, tmp_path):
    """The other dialogs dismissed by a message rather than a key's action (a choice
    in a list, as the name's Input.Submitted): the bot level, in the waiting room."""
    app = make_app(url, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: in_lobby_as(app, "Ann"))
        await pilot.press("c", "ctrl+s")
        await until(pilot, lambda: app.table is not None and app.table.view.get("host") == 0)
        await pilot.press("B")
        assert isinstance(app.screen, BotLevelDialog)
        burst(app, "enter", "enter")
        await until(pilot, lambda: "(H)" in str(app.table.view.get("seats")))
        assert app.screen is app.table and screens(app)[-2:] == [
            "LobbyScreen",
            type(app.table).__name__,
        ]


async def test_a_taken_name_that_looks_like_markup_is_shown_as_typed(url, raw, tmp_path):
    await raw("[/b]")
    app = make_app(url, tmp_path, name="[/b]")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: shown(app, NameDialog))
        assert "[/b] is another player's name" in text_of(app.screen.query_one(Static))
        await pilot.press("enter")
        await until(pilot, lambda: in_lobby_as(app, "[/b]2"))
