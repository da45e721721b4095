"""What a session leaves for a full garbage collection (issue 31): a worker's full
collection pauses all its sessions, and it cost what it freed more than what it walked
(scripts/gcpauses.py: 74,000 objects freed at the median, 55,000 left alive). Textual
made cyclic garbage where nothing ended: a cleared `LRUCache` (the lobby's room list
rebuilt), a strip caching itself, a widget's component styles worked out again. The
adapter (tui/textual_internals.py) takes those cycles apart; what a closed dialog or
table leaves is Textual's DOM (tests/tui/test_dialog_garbage.py)."""

from __future__ import annotations

import copy
import gc
import random
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from rich.segment import Segment
from test_quiet_redraws import LobbyApp, room
from textual.app import App, ComposeResult
from textual.cache import LRUCache
from textual.color import Color
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.strip import Strip
from textual.widgets import Input
from tui_offline import OfflineApp

from modernart.engine.games import get_game
from modernart.engine.selfplay import bot_move
from modernart.tui.lobby import LobbyScreen
from modernart.tui.textual_internals import (
    OthersOnly,
    lru_clear,
    lru_discard,
    style_components,
    textuals_component_classes,
    textuals_lru_clear,
    textuals_lru_discard,
)


class Held:
    """A value a cache holds, watched through a weak reference."""


@contextmanager
def no_collector() -> Iterator[None]:
    """Only reference counting frees anything inside."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@contextmanager
def cyclic_garbage() -> Iterator[list[Any]]:
    """Everything made unreachable inside that only a collection would free: the
    collector is off meanwhile, and DEBUG_SAVEALL hands over what it finds."""
    found: list[Any] = []
    with no_collector():
        yield found
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        found += gc.garbage
        gc.garbage.clear()
        gc.set_debug(0)


def kinds(garbage: list[Any]) -> set[type]:
    return {type(o) for o in garbage if isinstance(o, DOMNode | Strip | Segment)}


def test_the_adapters_wrap_textuals_own_methods() -> None:
    assert LRUCache.clear is lru_clear and LRUCache.discard is lru_discard
    assert textuals_lru_clear.__module__ == textuals_lru_discard.__module__ == "textual.cache"
    assert Stylesheet._process_component_classes is style_components
    assert textuals_component_classes.__module__ == "textual.css.stylesheet"
    assert Strip([Segment("ab")], 2)._divide_cache.__class__ is OthersOnly


def test_a_cleared_or_emptied_lru_cache_frees_what_it_held_at_once() -> None:
    with no_collector():
        cache: LRUCache[int, Held] = LRUCache(4)
        held = [Held() for _ in range(6)]
        refs = [weakref.ref(h) for h in held]
        for i, value in enumerate(held):
            cache[i] = value
        del held, value
        assert [r() is None for r in refs] == [True, True, False, False, False, False]
        assert cache.get(5) is refs[5]() and cache.get(2) is refs[2]()  # still an LRU
        cache.discard(3)
        assert refs[3]() is None and len(cache) == 3
        cache.clear()
        assert [r() for r in refs] == [None] * 6 and len(cache) == 0
        again = Held()
        cache[7] = again
        assert cache.get(7) is again
        alone = weakref.ref(again)
        del again
        cache.discard(7)  # the last link pointed at itself
        assert alone() is None and not cache


def test_a_strip_divided_or_cropped_to_itself_is_freed_with_its_last_reference() -> None:
    with cyclic_garbage() as garbage:
        strip = Strip([Segment("abcd")], 4)
        assert strip.divide([4]) == [strip] and strip.crop_extend(0, 4, None) is strip
        halves = strip.divide([2, 4])
        assert strip.divide([2, 4]) is halves  # other answers are kept as before
        assert [list(s) for s in halves] == [[Segment("ab")], [Segment("cd")]]
        del strip, halves
    assert kinds(garbage) == set()


class Entries(App[None]):
    CSS = "Input.-hot > .input--cursor { background: red; }"

    def compose(self) -> ComposeResult:
        yield Input("abc", id="a")
        yield Input(id="b")


async def test_a_widget_styled_again_keeps_its_component_nodes_and_textuals_rules() -> None:
    app = Entries()
    async with app.run_test(size=(40, 6)) as pilot:
        a, b = app.query_one("#a", Input), app.query_one("#b", Input)
        a.cursor_blink = False
        a.focus()
        await pilot.pause()
        nodes = {k: s.node for k, s in a._component_styles.items()}
        assert "input--cursor" in nodes
        with cyclic_garbage() as garbage:
            for _ in range(3):
                b.focus()
                await pilot.pause()
                a.focus()
                await pilot.pause()
        assert {k: s.node for k, s in a._component_styles.items()} == nodes
        assert kinds(garbage) == set()
        a.add_class("-hot")  # a component's rules change: seen, and drawn
        await pilot.pause()
        cursor = a.get_component_styles("input--cursor")
        assert cursor.background == Color.parse("red")
        x, y = a.content_region.offset
        red = Color.parse("red").rich_color
        assert app.screen.get_style_at(x + len(a.value), y).bgcolor == red
        ours = {k: s.base.get_rules() for k, s in a._component_styles.items()}
        textuals_component_classes(app.stylesheet, a)  # Textual's own, from new nodes
        assert {k: s.base.get_rules() for k, s in a._component_styles.items()} == ours


async def test_the_lobbys_room_list_rebuilt_leaves_no_cyclic_garbage() -> None:
    app = LobbyApp()
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        rooms = [room(f"r{i}", f"Room {i}") for i in range(8)]
        lobby.show_rooms(copy.deepcopy(rooms))
        await pilot.pause()
        with cyclic_garbage() as garbage:
            for k in range(6):
                rooms.insert(0, room(f"n{k}", f"New {k}"))  # every row drawn again
                lobby.show_rooms(copy.deepcopy(rooms))
                await pilot.pause()
                rooms[3]["spectators"] = k  # one cell
                lobby.show_rooms(copy.deepcopy(rooms))
                await pilot.pause()
        assert kinds(garbage) == set()


@pytest.mark.parametrize("name", ["modernart", "serengeti", "artsociety"])
async def test_a_games_updates_leave_no_widgets_or_strips_as_cyclic_garbage(name: str) -> None:
    """Only Textual's layouts make cycles while a game plays (a recursive closure in the
    compositor, holding the geometry it worked out), and those die young."""
    info = get_game(name)
    game = info.create(["Ann", "Bob", "Cy", "Dee"], seed=4)
    rng = random.Random(4)
    app = OfflineApp(game, 0)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.begin()
        await pilot.pause()
        bots = [info.make_bot("random", seat) for seat in range(game.n)]
        with cyclic_garbage() as garbage:
            for _ in range(60):
                events = bot_move(game, bots, rng)
                app.push_view(game.apply(dict(info.hammer)) if events is None else events)
                await pilot.pause()
        assert not game.finished
        assert kinds(garbage) == set()
