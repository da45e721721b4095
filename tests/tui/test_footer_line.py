"""The footer is one line widget (issue 31, tui/footer.py): after every change of the
bindings it shows what Textual's own Footer shows (the same keys, labels and order,
disabled keys dim, hidden keys absent, the same cells and styles), a change of keys lays
nothing out and repaints only when the line changed, a click on a key presses it, and
many changes leave nothing behind."""

from __future__ import annotations

import gc
import random
from typing import Any, ClassVar

from rich.segment import Segment
from rich.style import Style
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import Footer as TextualFooter
from tui_keys import until
from tui_offline import NAMES as PLAYERS
from tui_offline import OfflineApp, hand_deck

from modernart.engine.modernart import Game
from modernart.tui.footer import Footer
from modernart.tui.textual_internals import FooterKey

NAMES = "abcdefg"


class Keys(App[None]):
    """Seven keys; `state[name]` is what `check_action` answers: True shown, None shown
    disabled, False hidden. `done` lists the keys' actions run."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(name, f"do('{name}')", f"Do {name * (i % 3 + 1)}", tooltip=f"tip {name}")
        for i, name in enumerate(NAMES)
    ] + [Binding("x", "do('a')", "Again a")]  # a second key for an action: not shown
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, footer: type[Widget] = Footer) -> None:
        super().__init__()
        self.footer = footer
        self.state: dict[str, bool | None] = dict.fromkeys(NAMES, True)
        self.done: list[str] = []
        self.bells = 0

    def compose(self) -> ComposeResult:
        yield self.footer(compact=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.state[str(parameters[0])] if action == "do" else True

    def action_do(self, name: str) -> None:
        self.done.append(name)

    def bell(self) -> None:
        self.bells += 1

    def change(self, state: dict[str, bool | None]) -> None:
        self.state = state
        self.refresh_bindings()


def shown(app: App[Any]) -> list[tuple[str, str, bool]]:
    """What the footer shows: (key display, description, disabled) per key."""
    # (a query by type matches by name: Textual's Footer too)
    if footers := [f for f in app.screen.query(Footer) if isinstance(f, Footer)]:
        return [(k.display, k.description, k.disabled) for k in footers[0].keys]
    return [(k.key_display, k.description, k.has_class("-disabled")) for k in app.query(FooterKey)]


def expected(state: dict[str, bool | None]) -> list[tuple[str, str, bool]]:
    return [
        (name, f"Do {name * (i % 3 + 1)}", state[name] is None)
        for i, name in enumerate(NAMES)
        if state[name] is not False
    ]


def bottom_row(app: App[Any]) -> list[Segment]:
    """The screen's last row as drawn, one segment per cell, without Textual's selection
    offsets (which FooterKey's text carries and our footer, not selectable, does not)."""
    strips = app.screen._compositor.render_strips()  # type: ignore[attr-defined]
    return [
        Segment(char, segment.style.clear_meta_and_links() if segment.style else None)
        for segment in strips[app.screen.size.height - 1]
        for char in segment.text
    ]


async def settle(pilot: Any, app: App[Any], want: list[tuple[str, str, bool]]) -> None:
    """Let `app` handle the change (a few rounds of its messages), then draw."""
    for _ in range(20):
        if shown(app) == want:
            break
        await pilot.pause()
    await pilot.pause()


async def test_the_footer_shows_exactly_what_textuals_footer_shows_after_each_change():
    ours, theirs = Keys(Footer), Keys(TextualFooter)
    rng = random.Random(16)
    async with (
        ours.run_test(size=(100, 5)) as ours_pilot,
        theirs.run_test(size=(100, 5)) as theirs_pilot,
    ):
        for _ in range(30):
            state = {name: rng.choice([True, True, None, False]) for name in NAMES}
            for app in (ours, theirs):
                app.change(state)
            await settle(ours_pilot, ours, expected(state))
            await settle(theirs_pilot, theirs, expected(state))
            assert shown(ours) == shown(theirs) == expected(state)
            assert bottom_row(ours) == bottom_row(theirs)  # the same cells and styles


async def test_a_set_of_keys_shown_again_is_drawn_as_textual_draws_it_in_any_theme():
    """Lines of keys are kept by their keys (a table's keys come and go with the turns):
    a set shown again, and again after the theme changed, is what Textual's footer shows."""
    ours, theirs = Keys(Footer), Keys(TextualFooter)
    first = {name: True for name in NAMES}
    second = {**first, "b": None, "c": False}
    async with (
        ours.run_test(size=(100, 5)) as ours_pilot,
        theirs.run_test(size=(100, 5)) as theirs_pilot,
    ):
        for theme in (None, "textual-light"):
            for app in (ours, theirs):
                if theme:
                    app.theme = theme
            for state in (first, second, first, second):
                for app in (ours, theirs):
                    app.change(state)
                await settle(ours_pilot, ours, expected(state))
                await settle(theirs_pilot, theirs, expected(state))
                assert bottom_row(ours) == bottom_row(theirs)


async def test_disabled_keys_are_dim_and_hidden_keys_absent():
    app = Keys()
    async with app.run_test(size=(100, 5)) as pilot:
        state = {**app.state, "b": None, "c": False}
        app.change(state)
        await settle(pilot, app, expected(state))
        row = bottom_row(app)
        text = "".join(cell.text for cell in row)
        assert text.startswith("a Do a b Do bb d Do d e Do ee f Do fff g Do g ")
        assert "c Do" not in text
        # Textual draws dim text in a colour nearer the background ("not dim" then)
        b, d = text.index("b Do bb"), text.index("d Do d")
        for enabled, disabled in ((row[0], row[b]), (row[2], row[b + 2])):
            assert enabled.style and disabled.style
            assert nearer_background(disabled.style, enabled.style)
        assert row[0].style == row[d].style and row[b].style and row[b].style.bold


def nearer_background(dim: Style, bright: Style) -> bool:
    """Whether `dim`'s colour is nearer its background than `bright`'s is."""

    def distance(style: Style) -> int:
        assert style.color and style.bgcolor
        fg, bg = style.color.get_truecolor(), style.bgcolor.get_truecolor()
        return sum(abs(a - b) for a, b in zip(fg, bg, strict=True))

    return dim.bgcolor == bright.bgcolor and distance(dim) < distance(bright)


async def test_a_change_of_keys_lays_nothing_out_and_repaints_only_a_changed_line():
    app = Keys()
    rng = random.Random(31)
    async with app.run_test(size=(100, 5)) as pilot:
        await settle(pilot, app, expected(app.state))
        screen, footer = app.screen, app.query_one(Footer)
        layouts: list[Any] = []
        repaints: list[Any] = []
        refresh_layout, refresh = screen._refresh_layout, footer.refresh  # type: ignore[attr-defined]

        def noted_layout(*args: Any, **kwargs: Any) -> Any:
            layouts.append(args)
            return refresh_layout(*args, **kwargs)

        def noted_refresh(*args: Any, **kwargs: Any) -> Any:
            repaints.append(kwargs)
            return refresh(*args, **kwargs)

        screen._refresh_layout = noted_layout  # type: ignore[method-assign]
        footer.refresh = noted_refresh  # type: ignore[method-assign]
        for _ in range(40):  # each key's label a different width: widths change often
            state = {name: rng.choice([True, None, False]) for name in NAMES}
            app.change(state)
            await settle(pilot, app, expected(state))
            assert shown(app) == expected(state)
        assert layouts == []
        assert repaints and all(not kwargs.get("layout") for kwargs in repaints)
        repaints.clear()
        for _ in range(5):
            app.refresh_bindings()  # the same keys: nothing to draw
            await pilot.pause()
        assert repaints == []


async def test_keys_past_the_right_edge_are_cut():
    app = Keys()
    async with app.run_test(size=(20, 5)) as pilot:
        await settle(pilot, app, expected(app.state))
        text = "".join(cell.text for cell in bottom_row(app))
        assert text == "a Do a b Do bb c Do "
        await pilot.resize_terminal(30, 5)
        await pilot.pause()
        text = "".join(cell.text for cell in bottom_row(app))
        assert text == "a Do a b Do bb c Do ccc d Do d"


async def test_a_click_on_a_key_presses_it_and_a_disabled_key_rings_the_bell():
    app = Keys()
    async with app.run_test(size=(100, 5)) as pilot:
        state = {**app.state, "a": False, "c": None}
        app.change(state)
        await settle(pilot, app, expected(state))
        text = app.query_one(Footer).text  # "b Do bb c Do ccc d Do d …"
        await pilot.click(Footer, offset=(text.index("d Do d") + 3, 0))  # on its label
        await until(pilot, lambda: app.done == ["d"])
        await pilot.click(Footer, offset=(text.index("b Do bb"), 0))  # on its key
        await until(pilot, lambda: app.done == ["d", "b"])
        await pilot.click(Footer, offset=(text.index("c Do ccc") + 1, 0))  # disabled
        await pilot.click(Footer, offset=(text.index(" d Do d"), 0))  # between two keys
        await pilot.pause()
        assert app.done == ["d", "b"] and app.bells == 1


async def test_many_changes_leave_no_widget_behind():
    app = Keys()
    rng = random.Random(5)
    async with app.run_test(size=(100, 5)) as pilot:
        footer = app.query_one(Footer)

        def widgets() -> int:
            gc.collect()
            return sum(isinstance(o, Widget) for o in gc.get_objects())

        before = widgets()
        for _ in range(60):
            state = {name: rng.choice([True, None, False]) for name in NAMES}
            app.change(state)
            await settle(pilot, app, expected(state))
        assert widgets() == before and not footer.children
        assert not getattr(footer, "__watchers", {})  # nothing bound to it


def table_keys(app: OfflineApp) -> list[tuple[str, str, bool]]:
    """The keys Textual's own compact Footer shows on the table now, one mounted for it."""
    return [
        (k.key_display, k.description, k.has_class("-disabled"))
        for k in app.screen.query(FooterKey)
    ]


def from_bindings(app: OfflineApp) -> list[tuple[str, str, bool]]:
    """The first shown binding of each action among the screen's active bindings."""
    first: dict[str, tuple[str, str, bool]] = {}
    for _, binding, enabled, _ in app.screen.active_bindings.values():
        if binding.show and binding.action not in first:
            first[binding.action] = (app.get_key_display(binding), binding.description, not enabled)
    return list(first.values())


async def test_a_tables_footer_shows_the_keys_textuals_footer_would():
    game = Game(PLAYERS, deck=hand_deck([["lite_metal.open"]]), first_auctioneer=0)
    app = OfflineApp(game, seat=0)
    async with app.run_test(size=(200, 30)) as pilot:  # wide: every key fits
        await pilot.pause()
        footer = app.screen.query_one(Footer)
        theirs = TextualFooter(compact=True)
        theirs.styles.dock = "top"  # over the status line, ours at the bottom
        await app.screen.mount(theirs)
        texts = set()

        def rows() -> list[str]:
            strips = app.screen._compositor.render_strips()  # type: ignore[attr-defined]
            return [s.text.rstrip() for s in strips]

        async def check() -> None:
            app.screen.refresh_bindings()
            # Both footers have their keys and are laid out with them (Textual's mounts
            # a widget per key: under load its layout may come a frame later).
            await until(pilot, lambda: shown(app) == table_keys(app) and rows()[0] == rows()[-1])
            keys = table_keys(app)
            assert keys == from_bindings(app)
            assert keys and not any(disabled for _, _, disabled in keys)
            text = " ".join(f"{display} {description}" for display, description, _ in keys)
            assert footer.text.rstrip() == text
            assert rows()[0] == rows()[-1] == text  # both drawn so
            texts.add(text)

        await until(pilot, lambda: "Play" in footer.text)
        await check()  # Ann plays a card
        app.table.act({"type": "play", "card": "lite_metal.open"})
        await until(pilot, lambda: "+ Min" in footer.text)
        await check()  # an open auction: the quick raises
        await pilot.press("t")
        await until(pilot, lambda: "+ Min" not in footer.text)
        await check()  # the chat open: no key it would type
        assert len(texts) == 3
