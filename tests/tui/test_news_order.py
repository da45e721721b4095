"""Issue 31: when CPU is short, the player who must act comes first. A terminal worker
hands the server's messages to its sessions' apps in order of rank (the player to act,
then the others seated, then spectators and the lobby), each lower rank once the higher
ranks' screens are drawn (server/doors/terminal/priority.py)."""

from __future__ import annotations

import asyncio
import contextlib
import pathlib
import time
from typing import Any

from tui_keys import until
from tui_table import deck_of

from modernart.server.doors.terminal import priority
from modernart.server.doors.terminal.priority import ACTING, SEATED, WATCHING, NewsOrder
from modernart.server.doors.terminal.worker import SessionTokens
from modernart.tui.app import ClientApp
from modernart.tui.messages import ConnectionChanged, ServerMessage


class Screen:
    """An app as the order sees one: it takes messages, and is drawn when told."""

    def __init__(self, name: str, log: list[tuple[str, Any]]) -> None:
        self.name, self.log = name, log
        self.after: list[Any] = []

    def post_message(self, message: Any) -> bool:
        said = message.msg["n"] if isinstance(message, ServerMessage) else message.state
        self.log.append((self.name, said))
        return True

    def call_after_refresh(self, callback: Any) -> bool:
        self.after.append(callback)
        return True

    def draw(self) -> None:
        callbacks, self.after = self.after, []
        for callback in callbacks:
            callback()


def update(n: int, you: int | None, to_act: list[int], legal: bool = True) -> ServerMessage:
    view = {"you": you, "to_act": to_act, "legal": {"bid": [1, 9]} if legal else {}}
    return ServerMessage({"t": "update", "n": n, "view": view})


async def turn() -> None:
    """Let the loop run its callbacks once more (the order hands on a turn later)."""
    await asyncio.sleep(0)
    await asyncio.sleep(0)


def test_a_session_s_rank_follows_what_the_server_says():
    assert priority.rank_of(update(1, 2, [0, 2]).msg, WATCHING) == ACTING  # open auction
    assert priority.rank_of(update(1, 2, [2], legal=False).msg, WATCHING) == SEATED
    assert priority.rank_of(update(1, 1, [2]).msg, ACTING) == SEATED  # not its turn
    assert priority.rank_of(update(1, None, [2]).msg, SEATED) == WATCHING  # a spectator
    assert priority.rank_of({"t": "rooms", "rooms": []}, SEATED) == WATCHING  # the lobby
    assert priority.rank_of({"t": "chat", "text": "hi"}, ACTING) == ACTING  # unchanged


async def test_news_of_one_turn_goes_to_the_player_to_act_first_and_the_rest_after_its_screen():
    log: list[tuple[str, Any]] = []
    order = NewsOrder(hold=60.0)
    screens = {name: Screen(name, log) for name in ("watcher", "lobby", "seated", "actor")}
    news = {name: order.session(screen) for name, screen in screens.items()}
    # One bid reaches the four sessions in one turn, the actor's last.
    news["lobby"].deliver(ServerMessage({"t": "rooms", "n": 1, "rooms": []}))
    news["watcher"].deliver(update(1, None, [1]))
    news["seated"].deliver(update(1, 0, [1]))
    news["actor"].deliver(update(1, 1, [1]))
    await turn()
    assert log == [("actor", 1)]  # the others wait for its screen
    news["actor"].deliver(update(2, 1, [1]))  # more for it: at once, in order
    await turn()
    assert log == [("actor", 1), ("actor", 2)]
    screens["actor"].draw()
    await turn()
    assert log[2:] == [("seated", 1)]  # drawn: the seated player's turn
    screens["seated"].draw()
    await turn()
    # Then the spectator and the lobby, in the order their news came.
    assert log[3:] == [("lobby", 1), ("watcher", 1)]
    news["watcher"].deliver(update(3, None, [1]))
    await turn()
    assert log[5:] == [("watcher", 3)]  # nobody drawing: at once


async def test_a_screen_that_is_never_drawn_holds_the_others_only_for_the_hold():
    log: list[tuple[str, Any]] = []
    loop = asyncio.get_running_loop()
    order = NewsOrder(hold=0.05, clock=loop.time)
    stuck, other = Screen("stuck", log), Screen("other", log)
    order.session(stuck).deliver(update(1, 1, [1]))
    order.session(other).deliver(update(1, None, [1]))
    await turn()
    assert log == [("stuck", 1)]
    released = loop.create_future()
    order.waiting[0].app.post_message = lambda m: released.set_result(loop.time()) or True
    start = loop.time()
    assert await asyncio.wait_for(released, 10) >= start + 0.04


async def test_a_change_of_the_connection_keeps_its_place_behind_held_news():
    log: list[tuple[str, Any]] = []
    order = NewsOrder(hold=60.0)
    actor, watcher = Screen("actor", log), Screen("watcher", log)
    acting, watching = order.session(actor), order.session(watcher)
    acting.deliver(update(1, 1, [1]))
    watching.deliver(update(1, None, [1]))
    watching.deliver(ConnectionChanged("reconnecting", "lost"))
    await turn()
    assert log == [("actor", 1)] and watching.rank == WATCHING
    actor.draw()
    await turn()
    assert log[1:] == [("watcher", 1), ("watcher", "reconnecting")]


async def test_a_closed_session_holds_nobody():
    log: list[tuple[str, Any]] = []
    order = NewsOrder(hold=60.0)
    gone, other = Screen("gone", log), Screen("other", log)
    leaving = order.session(gone)
    leaving.deliver(update(1, 1, [1]))
    order.session(other).deliver(update(1, None, [1]))
    await turn()
    leaving.close()
    await turn()
    assert log == [("gone", 1), ("other", 1)]


# ------------------------------------------- real apps in one loop, beside a CPU hog


class Recording(ClientApp):
    """The client app, noting when each game update is on its screen."""

    drawn: list[tuple[str, int]]

    def _on_update(self, msg: dict[str, Any]) -> None:
        super()._on_update(msg)
        seq = msg.get("seq")
        self.call_after_refresh(lambda: self.drawn.append((self.player_name, seq)))


def played(msg: dict[str, Any]) -> bool:
    return any(e.get("type") == "played" for e in msg.get("events", []))


async def hog(stop: asyncio.Event) -> None:
    """Keep the loop busy: 10 ms of CPU at a time, as other sessions' work would."""
    while not stop.is_set():
        end = time.thread_time() + 0.01
        while time.thread_time() < end:
            pass
        await asyncio.sleep(0)


async def test_with_cpu_short_the_player_to_act_sees_a_bid_first_then_seated_then_spectators(
    url, raw, tmp_path: pathlib.Path
):
    """R13: Bob's once-around auction asks Ann first. Her screen shows it before Cy's
    (seated, not to act), and his before each spectator's, while a hog keeps the loop
    busy."""
    bob = await raw("Bob")
    deck = deck_of(["lite_metal.once_around"], [], [])
    await bob.send("create", seats=3, name="T", options={"deck": deck, "first_auctioneer": 0})
    room = (await bob.wait_for("joined"))["room"]
    order = NewsOrder(hold=600.0)  # a loaded machine must not end the hold
    drawn: list[tuple[str, int]] = []
    names = ["Ann", "Cy", "W1", "W2", "W3"]
    apps = []
    for name in names:
        app = Recording(
            url, name, tokens=SessionTokens(None), watch=room if name[0] == "W" else None
        )
        app.drawn = drawn
        app.news = order.session(app).deliver
        apps.append(app)
    stop = asyncio.Event()
    async with contextlib.AsyncExitStack() as stack:
        pilots = [await stack.enter_async_context(a.run_test(size=(80, 24))) for a in apps]
        ann = apps[0]
        for app, pilot in zip(apps[:2], pilots[:2], strict=True):
            await until(pilot, lambda a=app: a.connection is not None and a.connection.connected)
            app.send({"t": "join", "room": room})
            await until(pilot, lambda a=app: a.seat is not None)
        for app, pilot in zip(apps[2:], pilots[2:], strict=True):
            await until(pilot, lambda a=app: a.table is not None and a.watching == room)
        await bob.send("start")
        await until(
            pilots[0],
            lambda: all(a.table is not None and a.table.view.get("round") == 1 for a in apps),
        )
        hogging = asyncio.create_task(hog(stop))
        drawn.clear()
        await bob.act(type="play", card="lite_metal.once_around")

        def seq() -> int | None:
            return next((m["seq"] for m in bob.inbox if m["t"] == "update" and played(m)), None)

        await until(pilots[0], lambda: len({n for n, s in drawn if s == seq()}) == 5, timeout=60)
        stop.set()
        await hogging
    assert ann.table is not None and ann.table.view.get("to_act") == [1]
    first = [n for n, s in drawn if s == seq()]
    assert first.index("Ann") == 0
    assert all(first.index("Cy") < first.index(w) for w in ("W1", "W2", "W3"))
