"""The bot kit over a real in-process server (127.0.0.1, websockets, msgpack): the
example bot and `modernart bot` play whole games; events feed a bot's memory."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import pathlib
from typing import Any

import pytest

from modernart import cli
from modernart.botkit import BotClient, ServerError, run_level_bot, safe_action
from modernart.engine.games import get_game
from modernart.engine.modernart.bots import make_bot
from modernart.engine.modernart.bots.worlds import PublicMemory

EXAMPLE = pathlib.Path(__file__).parent.parent / "examples" / "simple_bot.py"
FAST = {"shout_window_ms": 100, "bot_delay_ms": 0}


def _example() -> Any:
    spec = importlib.util.spec_from_file_location("simple_bot", EXAMPLE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def _host(
    url: str, server_bots: int, options: dict[str, int] = FAST
) -> tuple[BotClient, str]:
    """A host in a new 4-seat room with `server_bots` of the server's own bots."""
    host = await BotClient.connect(url, "Host")
    room = await host.create(seats=4, options=options)
    for _ in range(server_bots):
        await host.send("add_bot", level="hard")
    return host, room


async def _start_when_full(host: BotClient) -> None:
    """Wait for the `room` message that shows every seat taken, then start."""
    while True:
        msg = await host.recv()
        if msg["t"] == "room" and all(name is not None for name in msg["room"]["seated"]):
            break
    await host.send("start")


async def test_example_bot_plays_a_whole_game(url: str, capsys: pytest.CaptureFixture) -> None:
    """R19–R27: the ~40-line example joins by room id and plays to the end; the host
    (a hard bot on the kit) sees the same end."""
    example = _example()
    host, room = await _host(url, server_bots=2)
    hard = make_bot("hard", 1)
    async with host:
        task = asyncio.create_task(example.main(url, room))
        await _start_when_full(host)
        final = await asyncio.wait_for(host.play(hard.choose), 120)
        await asyncio.wait_for(task, 30)
    assert final["finished"] and final["winners"]
    money = [seat["money"] for seat in final["seats"]]
    assert None not in money  # R27: everyone's money shows at the end
    assert f"final money: {money}" in capsys.readouterr().out
    # R12: only a shout may lose a race (to a faster one or the hammer), never a turn's move.
    assert {refused["phase"] for refused in host.refused} <= {"open"}


async def test_modernart_bot_command_plays_expert_over_the_wire(url: str) -> None:
    """`modernart bot URL --join ROOM --level expert`: our expert as a protocol client
    (its own process's event loop in a thread here) plays a seat to the end."""
    host, room = await _host(url, server_bots=2)
    args = ["bot", url, "--join", room, "--level", "expert", "--budget", "0.01"]
    async with host:
        command = asyncio.create_task(asyncio.to_thread(cli.main, args))
        await _start_when_full(host)
        final = await asyncio.wait_for(host.play(make_bot("hard", 2).choose), 180)
        assert await asyncio.wait_for(command, 60) == 0
    bots = [seat["bot"] for seat in final["seats"]]
    assert bots.count(False) == 2 and final["finished"]


@pytest.mark.parametrize(("game", "seats"), [("serengeti", 4), ("artsociety", 3)])
async def test_modernart_bot_command_plays_any_game(
    url: str, game: str, seats: int, capsys: pytest.CaptureFixture
) -> None:
    """`modernart bot` plays the room's own game: Serengeti's and Art Society's expert
    take a seat over the wire and play to the end; the totals printed are the final
    view's."""
    host = await BotClient.connect(url, "Host")
    room = await host.create(seats=seats, game=game, options=FAST)
    for _ in range(seats - 2):
        await host.send("add_bot", level="hard")
    args = ["bot", url, "--join", room, "--level", "expert", "--budget", "0.01"]
    hard = get_game(game).make_bot("hard", 5)
    async with host:
        command = asyncio.create_task(asyncio.to_thread(cli.main, args))
        await _start_when_full(host)
        final = await asyncio.wait_for(host.play(hard.choose), 180)
        assert await asyncio.wait_for(command, 60) == 0
    assert final["finished"]
    printed = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    field = {"serengeti": "points", "artsociety": "score"}[game]  # the view's totals
    assert printed[field] == [seat[field] for seat in final["seats"]]
    assert None not in printed[field] and printed["winners"] == final["winners"]
    assert [seat["name"] for seat in final["seats"]][printed["you"]] == "expert-bot"


async def test_a_level_the_rooms_game_lacks_is_refused(url: str) -> None:
    """A level the room's game has not: a clear error naming the game's levels."""
    host = await BotClient.connect(url, "Host")
    room = await host.create(seats=3, game="artsociety", options=FAST)
    async with host:
        with pytest.raises(ServerError, match="Art Society's bot levels: random, easy"):
            await run_level_bot(url, room, "grandmaster")


async def test_bad_command_arguments_exit_nonzero(url: str) -> None:
    """A non-websocket URL or an unknown room: a clear message and a failing exit."""
    assert cli.main(["bot", "http://127.0.0.1:1/", "--join", "x"]) == 2
    assert await asyncio.to_thread(cli.main, ["bot", url, "--join", "nope"]) == 1


async def test_events_give_a_bot_exact_money_through_the_game(url: str) -> None:
    """R4/R10/R24: a memory fed by `play`'s observe (history, then each update's events)
    knows every player's money, which the final view confirms (R27)."""
    host, _room = await _host(url, server_bots=3)
    memory = PublicMemory()
    async with host:
        await _start_when_full(host)
        final = await asyncio.wait_for(host.play(make_bot("hard", 3).choose, memory.observe), 120)
    assert [memory.money_of(s) for s in range(4)] == [s["money"] for s in final["seats"]]
    assert sum(memory.gone.values()) >= 4 * 5  # R18: each round ends on an artist's 5th card


def test_safe_action_prefers_the_move_that_risks_least() -> None:
    assert safe_action({"bid": [3, 50], "pass": True}) == {"type": "pass"}
    assert safe_action({"add": [], "decline": True}) == {"type": "decline"}
    assert safe_action({"sealed": [0, 80]}) == {"type": "sealed", "amount": 0}
    assert safe_action({"play": ["yoko.open"]}) == {"type": "play", "card": "yoko.open"}
    assert safe_action({}) is None
    assert json.dumps(safe_action({"price": [1, 9]})) == '{"type": "price", "amount": 1}'


class _Recording(BotClient):
    """Keeps the phase of the view each act was sent from."""

    sent: list[tuple[str, str]]

    async def act(self, action: dict[str, Any]) -> int:
        self.sent.append((action["type"], self.view["phase"] if self.view else ""))
        return await super().act(action)


@pytest.mark.parametrize("delay_ms", [1, 10**7])
async def test_a_planned_shout_waits_and_a_newer_update_cancels_it(url: str, delay_ms: int) -> None:
    """R12: a shout waits `shout_delay` ms; one planned past the hammer never goes out
    (each newer update cancels it), one planned 1 ms ahead of the server's bots (who
    think 10–30 ms) does."""
    options = FAST | {"bot_delay_ms": 20} if delay_ms == 1 else FAST
    host, _room = await _host(url, server_bots=3, options=options)
    host.__class__ = _Recording
    host.sent = []
    async with host:
        await _start_when_full(host)
        play = host.play(make_bot("hard", 4).choose, shout_delay=lambda view: delay_ms)
        final = await asyncio.wait_for(play, 120)
    assert final["finished"]
    shouts = [kind for kind, phase in host.sent if phase == "open"]
    turns = [kind for kind, phase in host.sent if phase != "open"]
    assert turns  # moves of the other auctions go out at once
    if delay_ms == 1:
        assert "bid" in shouts
    else:
        assert "bid" not in shouts
