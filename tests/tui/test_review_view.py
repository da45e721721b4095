"""Issue 32's viewer: a review in the replay viewer of every game (tui/replay.py with
tui/reviewmarks.py, tui/reviewlist.py, tui/reviewlocal.py): the marks on the right steps,
the costliest decisions' list jumping to its step, the sparklines, a review computed in
the viewer with its progress, `modernart view FILE --review REVIEW`; snapshots at 80×24.

The records are tests/engine/review_records' planted games; their reviews in reviews/
were written by `modernart review FILE --worlds 6 --json` (seed 0): the planted
decision is a blunder in each (Modern Art's 5th Krypto at action 80, Serengeti's 10
chips at action 0, Art Society's faux pas at action 84), shown on viewer step action + 1.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from replays import bot_record
from tui_keys import shown, until

from modernart.engine import load_record
from modernart.engine.review import review
from modernart.tui import reviewlocal as reviewing
from modernart.tui.eventlog import EventLog
from modernart.tui.replay import Replay, RevealScreen, ViewerApp
from modernart.tui.reviewlist import ReviewList
from modernart.tui.reviewmarks import ReviewMismatch, action_words
from modernart.tui.sparkline import BLOCKS, sparkline, squeeze

HERE = Path(__file__).parent
RECORDS = HERE.parent / "engine" / "review_records"
# game -> (the planted action, its seat's name, the better action and the reason, in words)
PLANTED = {
    "modernart": (
        80,
        "P3",
        "better: auction Karl Gitter (open)",
        "this Krypto is the 5th: the round ends and it sells for nothing",
    ),
    "serengeti": (
        0,
        "P3",
        "better: bid 2 chips",
        "10 chips is too much for this lot: what you pay goes to the others",
    ),
    "artsociety": (
        84,
        "P1",
        "better: hang it at H7",
        "this still life touches another still life: both score nothing (faux pas)",
    ),
}
GAMES = list(PLANTED)


def planted(game: str):
    return load_record((RECORDS / f"{game}_planted.json").read_text(encoding="utf-8"))


def stored_review(game: str) -> dict:
    return json.loads((HERE / "reviews" / f"{game}_planted_review.json").read_text("utf-8"))


def status(app) -> str:
    return str(app.screen.query_one("#status").content)


def log(app) -> str:
    """The viewer's event log, wrapped lines joined by spaces."""
    return " ".join(strip.text.rstrip() for strip in app.screen.query_one(EventLog).lines)


def at(app, step: int) -> bool:
    screen = app.screen
    return getattr(screen, "step", None) == step and bool(screen.view) and screen.is_mounted


async def step_to(app, pilot, step: int) -> None:
    """Forward one step at a time from the start to `step` (the log told step by step)."""
    while app.screen.step < step:
        app.screen.action_step(1)
        if app.screen.step % 20 == 0:
            await pilot.pause()
    await until(pilot, lambda: at(app, step))
    await pilot.pause()


@pytest.mark.parametrize("game", GAMES)
async def test_the_planted_blunder_is_marked_on_its_step(game):
    action, name, better, reason = PLANTED[game]
    app = ViewerApp(planted(game), stored_review(game))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await step_to(app, pilot, action)  # the table before the blunder: no mark of it
        assert f"{name} ?? blunder" not in status(app)
        await step_to(app, pilot, action + 1)
        assert f"step {action + 1}/" in status(app) and f"{name} ?? blunder" in status(app)
        told = log(app)
        assert f"?? blunder by {name}:" in told and better in told and reason in told
        # Stepping on: the mark stays under its action in the log, not on the status line.
        await pilot.press("right")
        await until(pilot, lambda: at(app, action + 2))
        assert f"{name} ?? blunder" not in status(app) and reason in log(app)


async def test_a_table_built_afresh_keeps_each_mark_under_its_action():
    """A jump builds the log at once: the notes sit right after their actions' lines."""
    game = "modernart"
    app = ViewerApp(planted(game), stored_review(game))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("3")  # round 3's start: the planted action (round 2's end) before
        await until(pilot, lambda: at(app, app.replay.rounds[3]))
        told = log(app)
        blunder = told.index("?? blunder by P3: auction Krypto (open)")
        between = told[told.rindex("P3 plays Krypto (open)", 0, blunder) : blunder]
        assert "Round 2 ends" in between  # the action's own news, and nobody's move
        assert not any(word in between for word in ("bids", "passes", "auctions", "bought"))
        assert told.index(PLANTED[game][3]) > blunder


@pytest.mark.parametrize("game", GAMES)
async def test_the_costliest_list_jumps_to_the_chosen_step(game):
    action, name, _, reason = PLANTED[game]
    record = planted(game)
    app = ViewerApp(record, stored_review(game))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("r")
        await until(pilot, lambda: shown(app, ReviewList))
        options = app.screen.query_one("#review-list")
        ids = [options.get_option_at_index(i).id for i in range(options.option_count)]
        assert str(action + 1) in ids  # the planted blunder is among its player's three
        for seat in range(len(record.players)):  # at most three a player, costliest first
            costly = app.replay.marks.costliest(seat)
            assert len(costly) <= 3 and costly == sorted(costly, key=lambda d: -d["loss"])
        while options.highlighted != ids.index(str(action + 1)):
            await pilot.press("down")
        await pilot.press("enter")
        await until(pilot, lambda: at(app, action + 1))
        assert f"{name} ?? blunder" in status(app) and reason in log(app)


@pytest.mark.parametrize("game", GAMES)
async def test_the_review_page_cuts_no_decision_short_at_80_columns(game):
    """Play-tests 2026-12-03: the review's page cut its lines at 80 columns ("pick a 2×3
    still life (frame 2,"): a decision's words go on under it, beside the scroll bar."""
    app = ViewerApp(planted(game), stored_review(game))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("r")
        await until(pilot, lambda: shown(app, ReviewList))
        options = app.screen.query_one("#review-list")
        width = options.scrollable_content_region.width
        marks = app.replay.marks
        for seat in range(len(app.replay.record.players)):
            for d in marks.costliest(seat):
                lines = options.get_option(str(d["step"] + 1)).prompt.plain.split("\n")
                assert max(len(line) for line in lines) <= width
                said = " ".join(line.strip() for line in lines)
                assert said.endswith(action_words(marks.review["game"], d["action"]))


def test_a_sparkline_scales_and_squeezes_its_values():
    assert sparkline([0, 7], 10, 0, 7) == BLOCKS[0] + BLOCKS[7]
    assert sparkline([5, 5, 5], 10, 5, 5) == BLOCKS[0] * 3  # a flat line, no division by 0
    assert squeeze([1, 3, 5, 7], 2) == [2, 6]  # runs averaged, none dropped
    assert len(sparkline(list(range(225)), 40, 0, 224)) == 40


@pytest.mark.parametrize("game", GAMES)
async def test_the_review_page_says_its_measure_and_draws_a_sparkline_a_player(game):
    record = planted(game)
    result = stored_review(game)
    app = ViewerApp(record, result)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("r")
        await until(pilot, lambda: shown(app, ReviewList))
        rows = [strip.text for strip in app.screen._compositor.render_strips()]
        page = "\n".join(rows)
        assert "6 worlds a decision" in page and f"{result['noise']:g}× spread" in page
        said = " ".join(" ".join(row.strip(" █") for row in rows).split())
        # A bar a decision (play-tests 2026-12-03: about 30 bars read as rounds' ends).
        assert f"Chart, a bar a decision: {result['measure']}, in {result['unit']}" in said
        for seat, name in enumerate(record.players):
            line = next(row for row in rows if f" {name} " in row and any(b in row for b in BLOCKS))
            expected = [d["expected"] for d in result["decisions"] if d["seat"] == seat]
            weighed = [e for e in expected if e is not None]
            first, last = weighed[0], weighed[-1]
            assert f"{first:+.0f} → {last:+.0f}" in line
        assert "Enter: go to its step" in page
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, ReviewList))


async def test_the_viewer_computes_a_review_showing_its_progress(monkeypatch):
    """Key a: the real review runs in a worker thread (held after each decision here, so
    that the test sees its progress), the table answers keys meanwhile, and the review
    it shows is the one `modernart review` computes."""
    record = bot_record("serengeti")
    go_on = threading.Semaphore(0)
    real = reviewing.review_decisions

    def held(*args, **kwargs):
        for decision in real(*args, **kwargs):
            yield decision
            go_on.acquire(timeout=30)  # never for ever, should the test fail

    monkeypatch.setattr(reviewing, "review_decisions", held)
    n = reviewing.decisions_in(Replay(record))
    app = ViewerApp(record, worlds=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.screen.check_action("review_list", ()) is False
        await pilot.press("a")
        await until(pilot, lambda: f"review: decision 1 of {n}" in status(app))
        assert app.screen.check_action("ask_review", ()) is False  # not twice at once
        await pilot.press("right")  # the table stays live
        await until(pilot, lambda: at(app, 1))
        go_on.release()
        await until(pilot, lambda: f"review: decision 2 of {n}" in status(app))
        for _ in range(n):
            go_on.release()
        await until(pilot, lambda: app.replay.marks is not None and at(app, 1), timeout=60)
        assert "review: decision" not in status(app) and "r: review" in status(app)
        assert app.replay.marks.review == review(record, 1)
        await pilot.press("r")
        await until(pilot, lambda: shown(app, ReviewList))


async def test_show_review_adds_a_review_to_an_open_viewer_and_refuses_another_games():
    game = "serengeti"
    action, name, _, reason = PLANTED[game]
    app = ViewerApp(planted(game))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("right")
        await until(pilot, lambda: at(app, action + 1))
        assert "blunder" not in status(app)
        with pytest.raises(ReviewMismatch):
            app.screen.show_review(stored_review("modernart"))
        wrong = stored_review(game)
        wrong["decisions"][0]["action"] = {"type": "pass"}
        with pytest.raises(ReviewMismatch, match="not the record's action"):
            app.screen.show_review(wrong)
        assert app.replay.marks is None and "blunder" not in status(app)
        app.screen.show_review(stored_review(game))
        await until(pilot, lambda: at(app, action + 1) and f"{name} ?? blunder" in status(app))
        assert reason in log(app)


async def test_a_review_that_comes_under_a_dialog_is_shown_once_it_closes():
    game = "serengeti"
    app = ViewerApp(planted(game))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("end")
        await until(pilot, lambda: shown(app, RevealScreen))
        table = app.screen_stack[-2]
        table.show_review(stored_review(game))
        assert isinstance(app.screen, RevealScreen)  # the dialog stays where it was
        await pilot.press("escape")
        await until(pilot, lambda: at(app, app.replay.last) and "r: review" in status(app))


def test_modernart_view_takes_a_review_file(tmp_path, monkeypatch, capsys):
    from modernart import cli

    shown_apps = []
    monkeypatch.setattr(ViewerApp, "run", lambda self: shown_apps.append(self))
    record = str(RECORDS / "serengeti_planted.json")
    good = str(HERE / "reviews" / "serengeti_planted_review.json")
    assert cli.main(["view", record, "--review", good, "--worlds", "2"]) == 0
    app = shown_apps[0]
    assert app.replay.marks is not None and app.review_worlds == 2
    other = str(HERE / "reviews" / "modernart_planted_review.json")
    assert cli.main(["view", record, "--review", other]) == 2
    assert "this review is of another game" in capsys.readouterr().err
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    assert cli.main(["view", record, "--review", str(broken)]) == 2
    assert cli.main(["view", record, "--review", str(tmp_path / "none.json")]) == 2
    assert len(shown_apps) == 1


@pytest.mark.parametrize("game", GAMES)
def test_snapshot_of_a_marked_step(snap_compare, game):
    action = PLANTED[game][0]
    app = ViewerApp(planted(game), stored_review(game))

    async def forward(pilot):
        await step_to(app, pilot, action + 1)
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=forward)


@pytest.mark.parametrize("game", GAMES)
def test_snapshot_of_the_review_page(snap_compare, game):
    app = ViewerApp(planted(game), stored_review(game))

    async def open_it(pilot):
        await pilot.pause()
        await pilot.press("r")
        await until(pilot, lambda: shown(app, ReviewList))
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=open_it)


async def test_f1_in_the_viewer_tells_its_keys_then_the_games_rules():
    from modernart.tui.help import HelpScreen
    from modernart.tui.helptext import HelpText

    app = ViewerApp(planted("serengeti"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        await until(pilot, lambda: shown(app, HelpScreen))
        await pilot.pause()
        words = " ".join(s.text for s in app.screen.query_one(HelpText)._lines).split()
        text = " ".join(words)
        assert text.startswith("Past games and the replay viewer")
        assert "`r`" not in text and "r shows each player's chart" in text
        assert "Serengeti" in text and text.index("Serengeti") > text.index("blunder")
        await pilot.press("escape")
        await until(pilot, lambda: at(app, 0))


def _hostile(change) -> dict:
    """The stored Serengeti review with `change` applied to it."""
    bad = stored_review("serengeti")
    change(bad)
    return bad


def _first(key, value):
    return lambda r: r["decisions"][0].__setitem__(key, value)


HOSTILE = {
    "not an object": lambda r: r.clear() or r.update(decisions=None),
    "step past the end": _first("step", 10_000),
    "step negative": _first("step", -1),
    "step a bool": _first("step", True),
    "step a string": _first("step", "0"),
    "better not an action": _first("better", "bid 2"),
    "loss not finite": _first("loss", float("inf")),
    "loss NaN": _first("loss", float("nan")),
    "expected not finite": _first("expected", float("-inf")),
    "expected a string": _first("expected", "3"),
    "mark unknown": _first("mark", "brilliant"),
    "reason not text": _first("reason", ["x"]),
    "a decision missing": lambda r: r["decisions"].append({"seat": 0}),
    "decisions not a list": lambda r: r.update(decisions={"0": 1}),
    "worlds missing": lambda r: r.pop("worlds"),
    "players differ": lambda r: r.update(players=["A", "B", "C", "D"]),
}


@pytest.mark.parametrize("name", HOSTILE)
async def test_a_malformed_review_is_refused_and_changes_nothing(name):
    """Attack: a review a hostile file or server could send. Each is refused with
    ReviewMismatch (a clear line, no other exception) and the open viewer is unchanged."""
    app = ViewerApp(planted("serengeti"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("right")
        await until(pilot, lambda: at(app, 1))
        before = status(app)
        with pytest.raises(ReviewMismatch):
            app.screen.show_review(_hostile(HOSTILE[name]))
        await pilot.pause()
        assert app.replay.marks is None and status(app) == before and at(app, 1)


def test_an_unknown_card_is_told_as_the_review_prints_it():
    from modernart.tui.reviewmarks import action_words

    assert action_words("modernart", {"type": "play", "card": "nope"}) == "play nope"
    assert action_words("modernart", {"type": "play", "card": "krypto.open"}) == (
        "auction Krypto (open)"
    )


def test_modernart_view_refuses_a_deeply_nested_review_file(tmp_path, monkeypatch, capsys):
    from modernart import cli

    monkeypatch.setattr(ViewerApp, "run", lambda self: pytest.fail("no viewer"))
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    record = str(RECORDS / "serengeti_planted.json")
    assert cli.main(["view", record, "--review", str(deep)]) == 2
    assert "modernart view:" in capsys.readouterr().err
