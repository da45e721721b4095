"""The cyclic garbage the client leaves (issue 31): a lobby dialog opened and closed, or a
game table left, leaves thousands of objects that only the garbage collector frees, all
of them Textual's DOM (a widget and its `Styles` refer to each other; the compositor's,
signals' and inputs' closures; timers' bound methods). None may be in a cycle of ours:
an object of the client's own (not a widget), or a function or method of its own not
bound to a widget, in a cycle that no widget closes. The real app under run_test()
against a real server."""

from __future__ import annotations

import gc
import types
from collections.abc import Iterator
from typing import Any

from conftest import RawClient
from textual.dom import DOMNode
from textual.pilot import Pilot
from tui_keys import until
from websockets.asyncio.client import connect

from modernart.tui.app import ClientApp
from modernart.tui.tokens import TokenStore

DIALOGS = ["c", "o", "g", "f1", "p", "d", "n"]  # create, who, ranks, help, past, devices, name
TIMES = 3


def ours(obj: Any) -> bool:
    """An object of the client's own that is not a widget (nor a widget's method)."""
    if isinstance(obj, DOMNode):
        return False
    if isinstance(obj, types.MethodType):
        return not isinstance(obj.__self__, DOMNode) and ours(obj.__func__)
    if isinstance(obj, types.FunctionType):
        return (obj.__module__ or "").startswith("modernart.")
    return type(obj).__module__.startswith("modernart.")


def cycles_of_ours(garbage: list[Any]) -> list[str]:
    """Our objects in a cycle of the garbage that passes through no widget (Tarjan's
    strongly connected components over the garbage without its DOM nodes)."""
    nodes = {id(o): o for o in garbage if not isinstance(o, DOMNode)}
    edges = {k: [id(r) for r in gc.get_referents(o) if id(r) in nodes] for k, o in nodes.items()}
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    stack: list[int] = []
    on_stack: set[int] = set()
    found: list[str] = []

    def components(root: int) -> Iterator[list[int]]:
        work = [(root, iter(edges[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    part = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        part.append(top)
                        if top == node:
                            break
                    yield part
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(edges[child])))
            elif child in on_stack:
                low[node] = min(low[node], index[child])

    for key in nodes:
        if key in index:
            continue
        for part in components(key):
            cyclic = len(part) > 1 or part[0] in edges[part[0]]
            if cyclic:
                found += [repr(nodes[k])[:80] for k in part if ours(nodes[k])]
    return found


class Garbage:
    """What the collector finds unreachable while it is open (DEBUG_SAVEALL keeps it)."""

    def __enter__(self) -> Garbage:
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)
        self.found: list[Any] = []
        return self

    def __exit__(self, *exc: object) -> None:
        gc.collect()
        self.found = list(gc.garbage)
        gc.garbage.clear()
        gc.set_debug(0)


async def open_and_close(pilot: Pilot[Any], app: ClientApp, key: str) -> None:
    lobby = app.lobby
    await pilot.press(key)
    await until(pilot, lambda: app.screen is not lobby and app.screen.is_mounted)
    await pilot.press("escape")
    await until(pilot, lambda: app.screen is lobby)


async def test_the_lobbys_dialogs_leave_no_cyclic_garbage_of_ours(url, tmp_path):
    app = ClientApp(url, "Ann", tokens=TokenStore(tmp_path / "tokens.json"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.lobby is not None and app.lobby.connection == "connected")
        for key in DIALOGS:
            with Garbage() as garbage:
                for _ in range(TIMES):
                    await open_and_close(pilot, app, key)
                await pilot.pause()
            # Textual's DOM is cyclic garbage (what the workers' collector is tuned for) ...
            assert any(isinstance(o, DOMNode) for o in garbage.found), key
            # ... and none of it is in a cycle of ours.
            assert cycles_of_ours(garbage.found) == [], key


async def test_a_table_left_leaves_no_cyclic_garbage_of_ours(url, tmp_path):
    cy = RawClient(await connect(url))
    await cy.send("hello", v=1, name="Cy")
    await cy.wait_for("welcome")
    await cy.send("create", seats=3, name="Bots", options={"bot_delay_ms": 50})
    await cy.wait_for("joined")
    for _ in range(2):
        await cy.send("add_bot")
    await cy.send("start")
    app = ClientApp(url, "Ann", tokens=TokenStore(tmp_path / "tokens.json"))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.lobby is not None and app.lobby.rooms)
            with Garbage() as garbage:
                await pilot.press("w")
                await until(pilot, lambda: app.table is not None and app.table.view.get("round"))
                await pilot.press("L")
                await until(pilot, lambda: app.screen is app.lobby and app.table is None)
                await pilot.pause()
            assert any(isinstance(o, DOMNode) for o in garbage.found)
            assert cycles_of_ours(garbage.found) == []
    finally:
        await cy.close()


class Held:
    """An object of ours (as if the client's): `cycles_of_ours` must see its cycles."""

    __module__ = "modernart.tui.example"

    def __init__(self, other: Any = None) -> None:
        self.other = other


def test_the_check_sees_a_cycle_of_ours_and_not_one_a_widget_closes() -> None:
    alone = Held()
    alone.other = Held(alone)  # ours, all the way round
    widget = DOMNode()
    through = Held(widget)
    widget.held = through  # type: ignore[attr-defined]  (closed by a widget: Textual's)
    assert len(cycles_of_ours([alone, alone.other, through, widget, widget.__dict__])) == 2
    assert cycles_of_ours([through, widget, widget.__dict__, through.__dict__]) == []
