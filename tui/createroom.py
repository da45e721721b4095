"""The lobby's dialog that creates a room: the game, its name, seats, variant preset,
password, turn clock and Modern Art's shout window, one compact row each."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Select, Static

from modernart.engine.games import DEFAULT_GAME, GameInfo, get_game

from .dialog import Dialog
from .games import CLIENT_GAMES
from .ordered import OrderedInput
from .textual_internals import SelectCurrent, SelectOverlay


def game_choice(info: GameInfo) -> str:
    """A game as the lobby names it: its title, starred if it has a caveat (told below)."""
    return info.title + ("*" if info.caveat else "")


class FieldList(SelectOverlay):
    """A field's open list: ↓ on its last choice stays there (Textual's list wraps to the
    first: a 5-seat room became a 3-seat one, playtests #4), ↑ on its first too."""

    def action_cursor_down(self) -> None:
        if self.highlighted is None or self.highlighted < self.option_count - 1:
            super().action_cursor_down()

    def action_cursor_up(self) -> None:
        if self.highlighted is None or self.highlighted > 0:
            super().action_cursor_up()


class FieldSelect(Select[Any]):
    """A dialog's choice: ↓, ↑ or Space opens the list; Enter submits the dialog (as the
    dialog's hint says), it does not open the list. The list has a border (app.tcss) and
    does not wrap (`FieldList`)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "submit", show=False),
        Binding("down,space,up", "show_overlay", show=False),
    ]

    def compose(self) -> ComposeResult:
        """Textual's `Select.compose`, with `FieldList` for its list."""
        yield SelectCurrent(self.prompt)
        yield FieldList(type_to_search=self._type_to_search).data_bind(compact=Select.compact)

    def action_submit(self) -> None:
        dialog = self.screen
        if isinstance(dialog, CreateRoomDialog):
            dialog.action_create()


def caveats(chosen: str = DEFAULT_GAME) -> str:
    """What a starred game's `*` means, for the dialog that lists the games: the chosen
    game's caveat as its own, another's as an aside about the list (under Modern Art,
    "*Art Society: house rules …" read as Modern Art's: play-test 2026-12-05)."""
    return "\n".join(
        f"*{info.title}: {info.caveat}" if name == chosen else f"({info.title}*: {info.caveat})"
        for name, info in ((name, get_game(name)) for name in CLIENT_GAMES)
        if info.caveat
    )


# The create dialog's turn clock: a decision's seconds unless the host says otherwise.
DEFAULT_TURN_CLOCK_S = 90


class CreateRoomDialog(Dialog[dict[str, Any] | None]):
    """Game, name, seats and variant preset (the game's, each with its one-line help),
    password, and Modern Art's shout window."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "create", "Create"),
    ]

    def compose(self) -> ComposeResult:
        # One row per field (compact widgets), so that it fits 80×24 with room to spare.
        info = get_game(DEFAULT_GAME)
        with Vertical(id="dialog", classes="create"):
            yield Static(Text("Create a room", style="bold"), classes="title")
            with Horizontal(classes="field"):
                yield Label("Game", classes="label")
                yield FieldSelect(
                    [(game_choice(get_game(name)), name) for name in CLIENT_GAMES],
                    value=DEFAULT_GAME,
                    allow_blank=False,
                    id="game",
                    compact=True,
                )
            yield Static(caveats(), classes="help", id="caveats")
            with Horizontal(classes="field"):
                yield Label("Name", classes="label")
                yield OrderedInput(id="name", max_length=40, placeholder="(optional)", compact=True)
            with Horizontal(classes="field"):
                yield Label("Seats", classes="label")
                yield FieldSelect(
                    [(str(n), n) for n in info.players],
                    value=4,
                    allow_blank=False,
                    id="seats",
                    compact=True,
                )
            with Horizontal(classes="field"):
                yield Label("Variant", classes="label")
                yield FieldSelect(
                    [(name, name) for name in info.presets],
                    value=info.default_preset,
                    allow_blank=False,
                    id="variant",
                    compact=True,
                )
            yield Static(info.preset_help[info.default_preset], id="variant-help", classes="help")
            with Horizontal(classes="field"):
                yield Label("Password", classes="label")
                yield OrderedInput(id="password", password=True, placeholder="(none)", compact=True)
                yield Label("Turn clock", id="clock-label")
                yield OrderedInput(
                    str(DEFAULT_TURN_CLOCK_S),
                    id="clock",
                    restrict=r"\d{0,4}",
                    max_length=4,
                    compact=True,
                )
                yield Label(
                    f"s (default {DEFAULT_TURN_CLOCK_S}, 0: none)",
                    id="clock-unit",
                )
            with Horizontal(classes="field", id="shout-row"):
                yield Label("Shout window", classes="label")
                yield OrderedInput("3", id="shout", restrict=r"\d{0,2}", max_length=2, compact=True)
                yield Label("Hints", classes="label", id="hints-label")  # the table's `?` key
                yield FieldSelect(
                    [("on", True), ("off", False)],
                    value=True,
                    allow_blank=False,
                    id="hints",
                    compact=True,
                )
            yield Static(
                "Seconds without a new bid before the hammer falls (open auctions).",
                classes="help",
                id="shout-help",
            )
            yield Static(id="create-error")
            with Horizontal(classes="buttons"):
                yield Button("Create", id="create", variant="primary", compact=True)
                yield Button("Cancel", id="cancel", compact=True)
            yield Static(
                Text(
                    "Tab: next field · ↓: a field's list · Enter: create · Escape: cancel",
                    style="dim",
                ),
                classes="help",
            )

    def on_mount(self) -> None:
        for field in self.query(Input):
            field.cursor_blink = False
        self.query_one("#game", Select).focus()

    @property
    def game(self) -> GameInfo:
        value = self.query_one("#game", Select).value
        return get_game(value if isinstance(value, str) else DEFAULT_GAME)

    def on_select_changed(self, event: Select.Changed) -> None:
        info = self.game
        if event.select.id == "game":
            self._offer(info)
        elif event.select.id == "variant" and isinstance(event.value, str):
            self.query_one("#variant-help", Static).update(info.preset_help.get(event.value, ""))

    def _offer(self, info: GameInfo) -> None:
        """The chosen game's player counts and presets; the shout window is Modern Art's."""
        seats = self.query_one("#seats", Select)
        count = seats.value if seats.value in info.players else min(4, max(info.players))
        seats.set_options([(str(n), n) for n in info.players])
        seats.value = count
        variant = self.query_one("#variant", Select)
        variant.set_options([(name, name) for name in info.presets])
        variant.value = info.default_preset
        self.query_one("#variant-help", Static).update(info.preset_help[info.default_preset])
        self.query_one("#caveats", Static).update(caveats(info.name))
        open_auctions = info.hammer is not None
        self.query_one("#shout-row").display = open_auctions
        self.query_one("#shout-help").display = open_auctions
        self.query_one("#create-error", Static).update("")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_create()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "create":
            self.action_create()
        else:
            self.action_cancel()

    def action_create(self) -> None:
        info = self.game
        seats = self.query_one("#seats", Select).value
        variant = self.query_one("#variant", Select).value
        if variant == "classic_3p_virtual" and seats != 3:
            self.query_one("#create-error", Static).update(
                Text("The virtual player needs exactly 3 seats.", style="bold red")
            )
            return
        clock = self.query_one("#clock", Input).value
        seconds = min(3600, int(clock)) if clock.isdigit() else DEFAULT_TURN_CLOCK_S
        msg: dict[str, Any] = {
            "t": "create",
            "seats": seats,
            "variant": variant,
            "options": {"turn_timeout_s": seconds},
        }
        if info.name != DEFAULT_GAME:
            msg["game"] = info.name
        name = self.query_one("#name", Input).value.strip()
        if name:
            msg["name"] = name
        password = self.query_one("#password", Input).value
        if password:
            msg["password"] = password
        if info.hammer is not None:
            shout = self.query_one("#shout", Input).value
            seconds = int(shout) if shout.isdigit() else 3
            msg["options"]["shout_window_ms"] = max(1, min(60, seconds)) * 1000
        if info.hammer is not None and self.query_one("#hints", Select).value is False:
            msg["options"]["hints"] = False
        self.dismiss(msg)

    def action_cancel(self) -> None:
        self.dismiss(None)
