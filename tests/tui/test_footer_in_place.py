"""The footer updates its keys in place (issue 16, fifth session: tui/footer.py): after
every change of the bindings it shows exactly what Textual's own Footer composes for
them (keys, labels, enabled or dim, tooltips, the same cells and styles on the screen),
and many changes leave no dead key, watcher or dirty widget behind, nor more keys than
were ever shown at once."""

from __future__ import annotations

import gc
import random
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey

from modernart.tui.footer import Footer

NAMES = "abcdefg"


class Keys(App[None]):
    """Seven keys; `state[name]` is what `check_action` answers: True shown, None shown
    disabled, False hidden."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(name, f"do('{name}')", f"Do {name * (i % 3 + 1)}", tooltip=f"tip {name}")
        for i, name in enumerate(NAMES)
    ] + [Binding("x", "do('a')", "Again a")]  # a second key for an action: not shown
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, footer: type[TextualFooter]) -> None:
        super().__init__()
        self.footer = footer
        self.state: dict[str, bool | None] = dict.fromkeys(NAMES, True)

    def compose(self) -> ComposeResult:
        yield self.footer(compact=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.state[str(parameters[0])] if action == "do" else True

    def action_do(self, name: str) -> None:
        pass


def shown(app: App[Any]) -> list[tuple[str, str, bool, Any]]:
    return [
        (k.key_display, k.description, k.has_class("-disabled"), k.tooltip)
        for k in app.query(FooterKey)
        if k.display  # the ones not needed now are hidden, kept for later
    ]


def bottom_row(app: App[Any]) -> list[tuple[str, Any]]:
    strips = app.screen._compositor.render_strips()  # type: ignore[attr-defined]
    return [(seg.text, seg.style) for seg in strips[app.screen.size.height - 1]]


async def settle(pilot: Any, app: App[Any], want: list[tuple[str, str, bool, Any]]) -> None:
    """Let `app` handle the change (a few rounds of its messages), then draw."""
    for _ in range(20):
        if shown(app) == want:
            break
        await pilot.pause()
    await pilot.pause()


def expected(state: dict[str, bool | None]) -> list[tuple[str, str, bool, Any]]:
    return [
        (name, f"Do {name * (i % 3 + 1)}", state[name] is None, f"tip {name}")
        for i, name in enumerate(NAMES)
        if state[name] is not False
    ]


async def test_the_footer_shows_exactly_what_textuals_footer_shows_after_each_change():
    ours, theirs = Keys(Footer), Keys(TextualFooter)
    rng = random.Random(16)
    async with (
        ours.run_test(size=(100, 5)) as ours_pilot,
        theirs.run_test(size=(100, 5)) as theirs_pilot,
    ):
        reused = 0
        for _ in range(40):
            state = {name: rng.choice([True, True, None, False]) for name in NAMES}
            before = set(ours.query(FooterKey))
            for app in (ours, theirs):
                app.state = state
                app.refresh_bindings()
            await settle(ours_pilot, ours, expected(state))
            await settle(theirs_pilot, theirs, expected(state))
            assert shown(ours) == shown(theirs) == expected(state)
            assert bottom_row(ours) == bottom_row(theirs)
            reused += len(before & set(ours.query(FooterKey)))
        assert reused > 40  # in place: most keys were kept (Textual's: none)


async def test_many_changes_leave_no_dead_keys_watchers_or_dirty_widgets():
    app = Keys(Footer)
    rng = random.Random(5)
    async with app.run_test(size=(100, 5)) as pilot:
        footer = app.query_one(Footer)
        for _ in range(60):
            state = {name: rng.choice([True, None, False]) for name in NAMES}
            app.state = state
            app.refresh_bindings()
            await settle(pilot, app, expected(state))
        gc.collect()
        alive = [o for o in gc.get_objects() if isinstance(o, FooterKey)]
        assert all(key.is_attached for key in alive)  # none dead, held somewhere
        assert len(alive) <= len(NAMES)  # at most as many as were ever shown at once
        watchers: dict[str, list[Any]] = getattr(footer, "__watchers", {})
        assert all(node.is_attached for entries in watchers.values() for node, _ in entries)
        assert all(w.is_attached for w in app.screen._dirty_widgets)  # type: ignore[attr-defined]


async def test_a_key_is_laid_out_when_its_width_changes_and_only_then():
    ours, theirs = Keys(Footer), Keys(TextualFooter)
    async with (
        ours.run_test(size=(100, 5)) as ours_pilot,
        theirs.run_test(size=(100, 5)) as theirs_pilot,
    ):
        screen = ours.screen
        layouts: list[Any] = []
        refresh_layout = screen._refresh_layout  # type: ignore[attr-defined]

        def noted(*args: Any, **kwargs: Any) -> Any:
            layouts.append(args)
            return refresh_layout(*args, **kwargs)

        screen._refresh_layout = noted  # type: ignore[method-assign]
        keys = None
        for change in ({"a": False}, {"a": True, "b": False}, {"a": None}):
            # "Do bb" then "Do a" in the first key: as many keys, narrower, a layout;
            # then the first key dim: the same width, no layout
            for app in (ours, theirs):
                app.state = {**app.state, **change}
                app.refresh_bindings()
            await settle(ours_pilot, ours, expected(ours.state))
            await settle(theirs_pilot, theirs, expected(theirs.state))
            assert shown(ours) == shown(theirs) == expected(ours.state)
            assert bottom_row(ours) == bottom_row(theirs)
            if keys is not None:
                assert list(ours.query(FooterKey)) == keys  # the same widgets, in place
                assert bool(layouts) == (change != {"a": None})
            keys, layouts[:] = list(ours.query(FooterKey)), []
