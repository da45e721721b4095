"""The replay viewer: any game's record, step by step, on that game's own table.

The engine replays the record (engine/records.py) once; each step's view is the
spectators' view (`view(None)`) dressed as the server dresses it, and its events are
what the spectators were told. A finished record hides nothing (it holds the deal and
every action), so each seat's row shows what that seat saw of itself (its money, its
chips); and a replay has no presence: no seat is online, a bot is marked as one.
The game's own table screen (a `GameTable` from tui/games.py) draws them: the viewer
is that screen with the replay's keys (`ReplayKeys`, mixed in before it) instead of a
player's. Stepping forward feeds the table the next update; stepping back or jumping
builds the table afresh at that step (tables keep what they were told: a log, a
ledger). At the end every seat's private part is shown (`RevealScreen`): hands, sealed
bids, stacks, whatever the game hides, in the game's own words
(`ClientGame.describe_private`).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from modernart.engine import Record
from modernart.engine.review import DEFAULT_WORLDS

from .games import client_game
from .gametable import GameTable
from .help import HelpScreen
from .lines import LinePanel
from .reviewlist import ReviewList
from .reviewlocal import ReviewWorker
from .reviewmarks import Marks, check_review
from .viewerhelp import VIEWER_KEYS


class Replay:
    """A record's every step: (spectators' view, events), step 0 being the deal; and its
    review (engine/review.py's object), when it has one."""

    def __init__(self, record: Record, review: dict[str, Any] | None = None) -> None:
        self.record = record
        self.info = record.info
        bots = record.extra.get("bots")
        self.bots = bots if isinstance(bots, list) else [False] * len(record.players)
        game = record.new_game()
        self.frames: list[tuple[dict[str, Any], list[dict[str, Any]]]] = [(self._dress(game), [])]
        for action in record.actions:
            events = game.apply(action)
            self.frames.append((self._dress(game), events))
        self.final = game
        self.rounds = self._round_starts()
        self.marks: Marks | None = None
        self.reviewing: tuple[int, int] | None = None  # (decisions done, all) while computed
        if review is not None:
            self.set_review(review)

    def set_review(self, review: dict[str, Any]) -> None:
        """ReviewMismatch (nothing changed) unless `review` is a review of this record."""
        check_review(review, self.record)
        self.marks = Marks(review)

    def log_runs(self, step: int) -> list[tuple[list[dict[str, Any]], int | None]]:
        """The events up to `step` in runs, each ending at a marked step or at `step`:
        (its events, that marked step or None), for the log's notes under each mark."""
        runs: list[tuple[list[dict[str, Any]], int | None]] = []
        run: list[dict[str, Any]] = []
        for at in range(1, step + 1):
            run.extend(self.frames[at][1])
            if self.marks is not None and self.marks.marked_at(at):
                runs.append((run, at))
                run = []
        if run or not runs:
            runs.append((run, None))
        return runs

    def _dress(self, game: Any) -> dict[str, Any]:
        """`view(None)` plus what the server adds (server/rooms/room.py `view_for`)."""
        view = game.view(None)
        view["room"] = self.record.extra.get("room") or "replay"
        view["status"] = "finished" if game.finished else "playing"
        view["deadline_ms"] = None
        self._own_rows(game, view)
        for info, bot in zip(view.get("seats") or [], self.bots, strict=False):
            info.update(bot=bool(bot), replay=True)  # no presence (`seat_status`)
        return view

    def _own_rows(self, game: Any, view: dict[str, Any]) -> None:
        """Each seat's row of `view` as that seat saw it (its money, its chips)."""
        keys, own = self.info.seat_keys, self.info.seat_view
        if keys is not None and "seats" not in keys:
            return  # the rows are the same for everyone
        for seat in range(len(view.get("seats") or [])):
            seen = own(game, seat, view) if own is not None else game.view(seat)
            view["seats"][seat] = seen["seats"][seat]

    def _round_starts(self) -> dict[int, int]:
        """Round number -> the first step of that round (games with rounds)."""
        starts: dict[int, int] = {}
        for step, (view, _) in enumerate(self.frames):
            number = view.get("round")
            if isinstance(number, int) and number not in starts:
                starts[number] = step
        return starts

    @property
    def last(self) -> int:
        return len(self.frames) - 1

    def events_upto(self, step: int) -> list[dict[str, Any]]:
        return [e for _, events in self.frames[1 : step + 1] for e in events]

    def revealed(self) -> Text:
        """Every seat's private part at the end, in the game's own words."""
        describe = client_game(self.record.game).describe_private
        text = Text()
        for seat, name in enumerate(self.record.players):
            text.append(f"{name}\n", style="bold")
            for line in describe(self.final.view(seat)).split("\n"):
                text.append("  ").append_text(line).append("\n")
        return text


class RevealScreen(ModalScreen[None]):
    """The end of a replay: what every seat kept hidden."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,v,q,enter", "close", "Close")]

    def __init__(self, replay: Replay) -> None:
        super().__init__()
        self.replay = replay

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog", classes="confirm"):
            yield Static(Text("Everything revealed", style="bold yellow"), classes="title")
            yield Static(self.replay.revealed())
            yield Static(Text("Escape: back to the table", style="dim"))

    def action_close(self) -> None:
        self.dismiss(None)


# What a replay table still does of a live table's actions: scroll its log, help, quit.
KEPT_ACTIONS = frozenset({"log", "help", "quit"})


class ReplayKeys:
    """The replay's keys and status line, mixed in before a game's table class."""

    # Given to the made class (`_replay_class`): Textual reads BINDINGS of widget classes.
    REPLAY_BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", "◀", priority=True),
        Binding("right", "step(1)", "▶", priority=True),
        Binding("home", "goto_first", "Start", priority=True),
        Binding("end", "goto_last", "End", priority=True),
        *(Binding(str(n), f"round({n})", show=False) for n in range(1, 10)),
        Binding("v", "reveal", "Reveal"),
        Binding("r", "review_list", "Review"),
        Binding("a", "ask_review", "Review it"),
        Binding("q,escape", "close_replay", "Close"),
    ]
    OWN_ACTIONS: ClassVar[frozenset[str]] = frozenset(
        {"step", "goto_first", "goto_last", "round", "reveal", "close_replay"}
    )
    HINT = "  ←/→ Home/End 1–9: round"

    def __init__(self, replay: Replay, step: int) -> None:
        super().__init__(None, None, player="replay")  # type: ignore[call-arg]
        self.replay = replay
        self.step = step
        self._stale = False  # a review came while another screen was on top
        # Kept until the table is mounted (GameTable's `_later`).
        view, _ = replay.frames[step]
        runs = replay.log_runs(step)
        for i, (events, marked) in enumerate(runs):
            if i == 0:
                self.show(view, events)  # type: ignore[attr-defined]
            else:
                self.add_history(events)  # type: ignore[attr-defined]
            if marked is not None:
                self._note_mark(marked)

    def _note_mark(self, step: int) -> None:
        """The review's notes under the action of viewer step `step`, if it is marked."""
        if self._later(lambda: self._note_mark(step)):  # type: ignore[attr-defined]
            return
        marks = self.replay.marks
        decision = marks.marked_at(step) if marks is not None else None
        if decision is not None:
            for text, style in marks.log_lines(decision, list(self.replay.record.players)):
                self.note(text, style)  # type: ignore[attr-defined]

    def show_review(self, review: dict[str, Any]) -> None:
        """Add `review` (engine/review.py's object, docs/records.md) to this open viewer:
        marks in the status line and the log, key r its list and chart. ReviewMismatch,
        and nothing changes, when it is not a review of this record."""
        self.replay.set_review(review)
        if self.app.screen is self:  # type: ignore[attr-defined]
            self.app.switch_screen(replay_table(self.replay, self.step))  # type: ignore[attr-defined]
        else:
            self._stale = True

    def on_screen_resume(self) -> None:
        if self._stale:
            self._stale = False
            self.app.switch_screen(replay_table(self.replay, self.step))  # type: ignore[attr-defined]

    # A replay has no decisions and no end screens of a live game.
    def end_screens(self, previous: dict[str, Any], events: list[dict[str, Any]]) -> list:
        return []

    @staticmethod
    def decision_starts(previous: dict[str, Any], view: dict[str, Any]) -> bool:
        return False

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "reveal":
            return self.step == self.replay.last
        if action == "review_list":
            return self.replay.marks is not None
        if action == "ask_review":
            return (
                self.replay.marks is None
                and self.replay.reviewing is None
                and self.replay.final.finished
                and callable(getattr(self.app, "request_review", None))  # type: ignore[attr-defined]
            )
        return action in self.OWN_ACTIONS or action in KEPT_ACTIONS

    def draw_status(self) -> None:
        title = f" {self.GAME_TITLE} "  # type: ignore[attr-defined]
        text = Text()
        text.append(title, style="bold reverse")
        text.append(f" replay · step {self.step}/{self.replay.last}")
        view = self.replay.frames[self.step][0]
        if view.get("finished"):
            text.append(" · game over", style="bold")
        elif isinstance(view.get("round"), int):
            text.append(f" · round {view['round']}")
        marks, reviewing = self.replay.marks, self.replay.reviewing
        hint = self.HINT
        if reviewing is not None:
            text.append(f" · review: decision {reviewing[0]} of {reviewing[1]}", style="bold")
        elif marks is not None:
            hint = "  r: review"
            decision = marks.marked_at(self.step)
            if decision is not None:
                text.append(" · ").append_text(
                    marks.tag(decision, list(self.replay.record.players))
                )
        if len(text) + len(hint) <= self.size.width:  # type: ignore[attr-defined]
            text.append(hint, style="dim")
        self.query_one("#status", LinePanel).set_lines(text)  # type: ignore[attr-defined]

    def _go(self, step: int) -> None:
        step = max(0, min(self.replay.last, step))
        if step == self.step:
            self.app.bell()  # type: ignore[attr-defined]
            return
        if step == self.step + 1:
            self.step = step
            view, events = self.replay.frames[step]
            self.show(view, events)  # type: ignore[attr-defined]
            self._note_mark(step)
        else:
            self.app.switch_screen(replay_table(self.replay, step))  # type: ignore[attr-defined]
        if step == self.replay.last:
            self.app.push_screen(RevealScreen(self.replay))  # type: ignore[attr-defined]

    def action_step(self, delta: int) -> None:
        self._go(self.step + delta)

    def action_goto_first(self) -> None:
        self._go(0)

    def action_goto_last(self) -> None:
        self._go(self.replay.last)

    def action_round(self, number: int) -> None:
        start = self.replay.rounds.get(number)
        if start is None:
            self.app.bell()  # type: ignore[attr-defined]
            return
        self._go(start)

    def action_reveal(self) -> None:
        self.app.push_screen(RevealScreen(self.replay))  # type: ignore[attr-defined]

    def action_review_list(self) -> None:
        """The review's chart and costliest decisions; Enter on one goes to its step."""
        if self.replay.marks is None:
            return

        def chosen(step: int | None) -> None:
            if step is not None and step != self.step:  # already there: no bell
                self._go(step)

        names = list(self.replay.record.players)
        self.app.push_screen(ReviewList(self.replay.marks, names), chosen)  # type: ignore[attr-defined]

    def action_ask_review(self) -> None:
        self.app.request_review(self.replay)  # type: ignore[attr-defined]
        self.note("The expert reviews this game; the table stays yours meanwhile.")  # type: ignore[attr-defined]

    def action_close_replay(self) -> None:
        app = self.app  # type: ignore[attr-defined]
        if len(app.screen_stack) > 2:
            app.pop_screen()
        else:
            app.exit()


@functools.cache
def _replay_class(table: type[GameTable]) -> type[GameTable]:
    bindings = ReplayKeys.REPLAY_BINDINGS
    return type(f"Replay{table.__name__}", (ReplayKeys, table), {"BINDINGS": bindings})


def replay_table(replay: Replay, step: int = 0) -> GameTable:
    """The game's own table screen showing `replay` at `step`."""
    table = client_game(replay.record.game).table()
    return _replay_class(table)(replay, step)  # type: ignore[call-arg]


class ViewerApp(ReviewWorker, App[None]):
    """`modernart view FILE`: a record in the replay viewer, nothing else; with its review
    (`review`, engine/review.py's object), or one computed here on key a."""

    CSS_PATH = Path(__file__).parent / "app.tcss"
    TITLE = "modernart replay"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [Binding("f1", "help", "Help")]

    def __init__(
        self, record: Record, review: dict[str, Any] | None = None, worlds: int = DEFAULT_WORLDS
    ) -> None:
        super().__init__()
        self.theme = "ansi-dark"
        self.replay = Replay(record, review)
        self.review_worlds = worlds

    def on_mount(self) -> None:
        self.push_screen(replay_table(self.replay))

    def action_help(self) -> None:
        """F1 (the table's key): the viewer's keys, then the game's rules."""
        if not isinstance(self.screen, HelpScreen):
            rules = client_game(self.replay.record.game).rules_text(self.replay.record.variant)
            self.push_screen(HelpScreen(VIEWER_KEYS + rules))
