"""What players type is text, never markup (issue 21, item 2): a room or a player
named `[/]` made every client that opened the lobby exit with MarkupError, and
`[blink reverse red]…[/]` rendered with its styles in other players' screens.

The real app against a real server: names, room names and chat lines full of
markup go through the lobby, the waiting room, each game's table and the chat;
the app never fails, and the screen shows every one of them as typed.
"""

from __future__ import annotations

import html
import io
import pathlib
import re
from typing import Any

import pytest
from rich.console import Console
from tui_keys import until

from modernart.engine.artsociety.rules import House
from modernart.engine.games import get_game
from modernart.tui.app import ClientApp
from modernart.tui.artsociety.end import score_table as artsociety_scores
from modernart.tui.modernart.summary import money_table, round_table
from modernart.tui.rowlist import RowList
from modernart.tui.serengeti.end import score_table as serengeti_scores
from modernart.tui.tokens import TokenStore

BOB = "[/]"  # a closing tag with nothing to close: MarkupError
CY = "[reverse]W[/]"
ROOM = "[b]Bold[/b] [/]"
CHAT = "[/] [red]alarm[/red] [link=x]y[/link]"


def screen_text(app: ClientApp) -> str:
    """Everything the screen shows now, as plain text."""
    svg = app.export_screenshot()
    lines = re.findall(r"<text[^>]*>(.*?)</text>", svg, flags=re.S)
    return html.unescape("".join(lines)).replace("\xa0", " ")


def shows(app: ClientApp, *texts: str) -> bool:
    shown = screen_text(app)
    return all(text in shown for text in texts)


@pytest.mark.parametrize("game", ["modernart", "serengeti", "artsociety"])
async def test_typed_text_is_shown_as_typed_everywhere(url, raw, tmp_path: pathlib.Path, game):
    bob = await raw(BOB)
    await bob.send("create", seats=3, name=ROOM, game=game, options={"bot_delay_ms": 0})
    room = (await bob.wait_for("joined"))["room"]
    cy = await raw(CY)
    await cy.send("join", room=room)
    await cy.wait_for("joined")
    # ("[i]Ann[/i]" is refused since issue 33: one letter in brackets passes for a bot's mark.)
    app = ClientApp(url, "[bold]Ann[/]", tokens=TokenStore(tmp_path / "tokens.json"))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.lobby is not None and app.lobby.rooms)
        await pilot.pause()
        row = app.lobby.query_one(RowList).cells_at(0)
        assert ROOM in str(row[0])
        # The table widens its columns for new rows when it is next idle: wait for it.
        await until(pilot, lambda: shows(app, ROOM, BOB), timeout=30)
        await pilot.press("enter")  # join: the waiting room
        await until(pilot, lambda: app.table is not None and app.seat == 2)
        await until(pilot, lambda: shows(app, BOB, CY), timeout=30)
        await bob.send("start")
        await until(pilot, lambda: (app.table.view or {}).get("status") == "playing")
        await cy.send("chat", text=CHAT)
        await until(pilot, lambda: shows(app, CHAT) or shows(app, CHAT[:30]), timeout=30)
        shown = screen_text(app)
        assert BOB in shown and CY in shown
        assert CHAT in shown or CHAT[:30] in shown
        assert "[bold]Ann[/]" in shown or "you" in shown


def finished_events(game: str, names: list[str], seed: int = 3) -> list[dict[str, Any]]:
    """Every event of a whole random game of `game` (open auctions closed by the hammer
    after a few shouts, as the server's would)."""
    info = get_game(game)
    state = info.create(names, seed=seed)
    bots = [info.make_bot("random", seed + s) for s in range(len(names))]
    events: list[dict[str, Any]] = []
    shouts = 0
    while not state.finished:
        if info.hammer is not None and state.realtime() and shouts >= 3:
            action: dict[str, Any] = dict(info.hammer)
        else:
            seat = state.to_act()[0]
            choice = bots[seat].choose(state.view(seat))
            assert choice is not None
            action = {**choice, "seat": seat}
        events += state.apply(action)
        shouts = shouts + 1 if state.realtime() else 0
    return events


def rendered(renderable: Any) -> str:
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


NAMES = [BOB, CY, "[b]Dee[/b]"]


def test_end_of_round_and_game_tables_show_names_as_typed():
    """The screens a game ends with build Rich tables (which parse markup in strings)."""
    events = finished_events("modernart", NAMES)
    ends = [e for e in events if e["type"] == "round_end"]
    bought: list[list[str]] = [[] for _ in NAMES]
    over = next(e for e in events if e["type"] == "game_end")
    for text in (
        rendered(round_table(ends[0], NAMES, bought)),
        rendered(money_table(over, NAMES, ends[-1], bought)),
    ):
        assert all(name[:8] in text for name in NAMES), text
    over = next(e for e in finished_events("serengeti", NAMES) if e["type"] == "game_end")
    assert all(name[:8] in rendered(serengeti_scores(over, NAMES)) for name in NAMES)
    over = next(e for e in finished_events("artsociety", NAMES) if e["type"] == "game_end")
    scores, winners = over["scores"], over.get("winners") or []
    text = rendered(artsociety_scores(scores, NAMES, winners, House()))
    assert all(name[:8] in text for name in NAMES), text
