"""docs/playtests.md (2026-12-03) and issue 28: the dialogs, the create dialog's lists, the
hand's warned card, the past games' count and the quit questions' keys, each in the real
app or screen under `run_test()` (no server: what the player sees of them)."""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.widgets import OptionList, Select, Static
from tui_keys import text_of

from modernart.engine.games import get_game
from modernart.tui.app import ClientApp
from modernart.tui.botpick import BotLevelDialog
from modernart.tui.confirm import Confirm
from modernart.tui.createroom import CreateRoomDialog
from modernart.tui.games import client_game
from modernart.tui.local import KeepGame
from modernart.tui.modernart.hand import Hand
from modernart.tui.people import PastGamesScreen
from modernart.tui.textual_internals import SelectOverlay


def prompts_of(dialog: Any) -> list[str]:
    return [str(option.prompt) for option in dialog.query_one(OptionList).options]


class DialogApp(App[None]):
    """One screen of the client, with the client's styles; what it dismisses with is kept."""

    CSS_PATH = ClientApp.CSS_PATH

    def __init__(self, screen: Any) -> None:
        super().__init__()
        self.dialog = screen
        self.answers: list[Any] = []

    def on_mount(self) -> None:
        self.push_screen(self.dialog, self.answers.append)

    def on_send_to_server(self, message: Any) -> None:
        """A window's request: nobody answers here."""


async def test_create_dialog_lists_have_a_border_and_stop_at_their_ends() -> None:
    """Playtests #4: the open list drew over the rows below without a border, and ↓ past
    5 seats wrapped to 3 (a 3-seat room created by accident)."""
    app = DialogApp(CreateRoomDialog())
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = app.dialog
        await pilot.press("tab", "tab")  # Game → Name → Seats
        seats = dialog.query_one("#seats", Select)
        assert dialog.focused is seats and seats.value == 4
        await pilot.press("down")  # opens the list
        overlay = seats.query_one(SelectOverlay)
        assert seats.expanded and overlay.styles.border_top[0] == "round"
        await pilot.press("down", "down", "down", "enter")  # 4 → 5, then stays (wrapped: 4)
        assert seats.value == 5
        await pilot.press("up")
        await pilot.press("up", "up", "up", "up", "enter")  # 5 → 3, then stays (wrapped: 4)
        assert seats.value == 3


async def test_a_selected_card_that_ends_the_round_keeps_its_bracket() -> None:
    """Playtests #13: the `*` of a round-ending card replaced the selected chip's `]`."""

    class HandApp(App[None]):
        def compose(self):
            yield Hand()

    app = HandApp()
    async with app.run_test(size=(80, 24)) as pilot:
        hand = app.query_one(Hand)
        hand.show(
            ["krypto.open", "yoko.open"], {"play": ["krypto.open"]}, {"counts": {"krypto": 4}}
        )
        hand.focus()
        await pilot.pause()
        chips = hand.render().plain.splitlines()[0]
        chip = chips[chips.index("[KR") :][:6]
        assert chip.endswith("*]") and chips.startswith(" YO"), chips  # one cell wider


async def test_past_games_count_one_game_in_the_singular() -> None:
    window = PastGamesScreen()
    app = DialogApp(window)
    async with app.run_test(size=(80, 24)) as pilot:
        game = {"room": "r1", "date": 0, "game": "modernart", "players": ["Ann", "Bob", "Cy"]}
        window.show({"player": "Ann", "games": [{**game, "seat": 0, "places": [1, 2, 3]}]})
        await pilot.pause()
        assert text_of(window.query_one("#people-title", Static)) == "Past games · Ann · 1 game"


async def test_past_games_without_a_game_say_so() -> None:
    """Play-test (late): an empty Past games showed only its title and column heads."""
    window = PastGamesScreen()
    app = DialogApp(window)
    async with app.run_test(size=(80, 24)) as pilot:
        window.show({"player": "Carol", "games": []})
        await pilot.pause()
        assert "No finished games yet" in text_of(window.query_one("#people-hint", Static))


async def test_every_question_answers_y_or_n() -> None:
    """Playtests #13: quit dialogs said `y/n` in some places and `k/e` in others."""
    keep = DialogApp(KeepGame("Modern Art"))
    async with keep.run_test(size=(80, 24)) as pilot:
        told = " ".join(text_of(s) for s in keep.dialog.query(Static))
        assert "y: keep it and quit" in told and "n or Escape: play on" in told
        assert "k:" not in told
        await pilot.press("y")
        assert keep.answers == ["keep"]
    keep = DialogApp(KeepGame("Modern Art"))
    async with keep.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        assert keep.answers == [None]
    revoke = DialogApp(Confirm("Revoke the laptop?", "", "keep it"))
    async with revoke.run_test(size=(80, 24)) as pilot:
        told = " ".join(text_of(s) for s in revoke.dialog.query(Static))
        assert "y: yes   n or Escape: no, keep it" in told and "game" not in told


async def test_the_bot_picker_names_its_keys_its_default_and_what_enter_seats() -> None:
    """Playtests #12: no keys said, the default (hard) marked by colour only, and ↓ Enter
    gave an expert bot to a player who took the top row for the highlighted one."""
    app = DialogApp(BotLevelDialog(get_game("modernart")))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        told = lambda: " ".join(text_of(s) for s in app.dialog.query(Static))  # noqa: E731
        assert "Enter: seat a hard bot" in told() and "Escape" in told() and "↑↓" in told()
        prompts = prompts_of(app.dialog)
        assert prompts[2].startswith("▶ hard     default · ")
        assert prompts[1].startswith("  normal") and "default" not in prompts[1]
        await pilot.press("up")
        assert prompts_of(app.dialog)[1].startswith("▶ normal") and "seat a normal bot" in told()
        await pilot.press("enter")
        assert app.answers == ["normal"]


def test_f1_of_a_game_against_bots_says_it_has_no_lobby() -> None:
    """Playtests #3: F1 spoke of a lobby that a game against bots does not have."""
    for name in ("modernart", "serengeti", "artsociety"):
        text = client_game(name).rules_text(where="local")
        assert "there is no lobby, so `L`" in text and "`L` asks first" in text
        assert "no lobby" not in client_game(name).rules_text(where="online")


def test_a_bot_levels_rating_is_told_once_and_as_the_levels() -> None:
    """Issue 28 and playtests #7: three hard bots showed the same "+109" each, as if
    each had its own rating; a level has one, shared by its bots."""
    from modernart.tui.ratingwords import rating_line

    hard = {"before": 1500, "after": 1609, "level": "hard"}
    changes = [{"before": 1500, "after": 1621, "provisional": True}, hard, hard, hard]
    line = rating_line(["Ann", "Otto (H)", "Vera (H)", "Hugo (H)"], changes)
    assert line.startswith(
        "Ratings: Ann 1621? (+121), bot levels (one rating each): hard 1609 (+109) (?: new,"
    )
