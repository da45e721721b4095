"""The expert's review of a finished game (issue 32; engine/review.py, `modernart review`).

The records in review_records/ are games of hard bots (seeded) in which one
decision was planted, then played out by the same bots:
- Modern Art, step 80: seat 3 plays krypto.open, Krypto's 5th card this round
  (R18: the round ends at once and the card is not sold);
- Serengeti, step 0: seat 3 bids all its 10 chips on a one-card lot (S7, S11:
  the winner pays it all to the others);
- Art Society, step 84: seat 1 hangs its painting where it shares edges with
  paintings of its genre (A24: a faux pas, they all score 0).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from modernart.engine import dump_record, load_record
from modernart.engine.records import Record
from modernart.engine.review import ReviewError, review, review_step
from modernart.reviewcmd import review_text

RECORDS = Path(__file__).parent / "review_records"
WORLDS = 6
KEYS = {
    "seat",
    "step",
    "action",
    "mark",
    "better",
    "loss",
    "reason",
    "expected",
    "spread",
    "worlds",
}


def planted(game: str) -> Record:
    return load_record((RECORDS / f"{game}_planted.json").read_text(encoding="utf-8"))


def test_modernart_fifth_card_is_a_blunder_r18():
    """R18: the 5th Krypto ends the round unsold; the review names a card that sells."""
    record = planted("modernart")
    assert record.actions[80] == {"seat": 3, "type": "play", "card": "krypto.open"}
    decision = review_step(record, 80, WORLDS)
    assert decision.mark == "blunder"
    assert decision.better is not None and decision.better["type"] == "play"
    assert not decision.better["card"].startswith("krypto")
    assert decision.loss >= 30 and decision.spread is not None
    assert decision.reason == "this Krypto is the 5th: the round ends and it sells for nothing"


def test_serengeti_all_chips_on_one_card_is_marked_s7_s11():
    record = planted("serengeti")
    assert record.actions[0] == {"seat": 3, "type": "bid", "amount": 10}
    decision = review_step(record, 0, WORLDS)
    assert decision.mark in ("mistake", "blunder")
    assert decision.better is not None
    assert decision.better.get("amount", 0) < 10
    assert decision.reason == "10 chips is too much for this lot: what you pay goes to the others"


def test_artsociety_faux_pas_placement_is_marked_a24():
    record = planted("artsociety")
    taken = {"seat": 1, "type": "place", "tile": "picked", "cell": "D2", "turned": False}
    assert record.actions[84] == taken
    decision = review_step(record, 84, WORLDS)
    assert decision.mark in ("mistake", "blunder")
    assert decision.better is not None and decision.better["type"] == "place"
    assert decision.better["cell"] != "D2"
    assert (
        decision.reason
        == "this still life touches another still life: both score nothing (faux pas)"
    )


def test_a_sound_decision_is_not_marked():
    """A forced or equal decision gets no mark and no better action."""
    record = planted("modernart")
    first = next(i for i, a in enumerate(record.actions) if a.get("seat") is not None)
    decision = review_step(record, first, WORLDS)
    assert decision.loss >= 0
    if decision.mark is None:
        assert decision.reason is None


def _views(record: Record, seat: int, upto: int) -> list[dict]:
    state = record.new_game()
    views = [state.view(seat)]
    for action in record.actions[:upto]:
        state.apply(action)
        views.append(state.view(seat))
    return views


def _swapped(record: Record, i: int, j: int) -> Record:
    deck = list(record.deck)
    deck[i], deck[j] = deck[j], deck[i]
    data = json.loads(dump_record(record))
    data["deck"] = deck
    return load_record(json.dumps(data))


def _hidden_swaps(record: Record, step: int, kinds: tuple[str, ...]) -> list[Record]:
    """Records whose deck differs by two cards the seat at `step` cannot have seen, with
    the same actions so far, one a kind: "hand" swaps a card of another player's hand,
    "deck" the deck's order (cards nobody holds yet)."""
    seat = record.actions[step]["seat"]
    mine = _views(record, seat, step)
    others = [s for s in range(len(record.players)) if s != seat]
    found: dict[str, Record] = {}
    deck = record.deck
    for i in range(len(deck)):
        for j in range(len(deck) - 1, i, -1):
            if deck[i].split(".")[0] == deck[j].split(".")[0]:
                continue  # the same artist or tribe: a swap that may change nothing
            swapped = _swapped(record, i, j)
            try:
                if _views(swapped, seat, step) != mine:
                    continue
            except Exception:  # the actions so far are not legal in that deal
                continue
            state, other = record.played(step), swapped.played(step)
            held = any(
                sorted(state.view(s).get("hand", [])) != sorted(other.view(s).get("hand", []))
                for s in others
            )
            found.setdefault("hand" if held else "deck", swapped)
            if all(k in found for k in kinds):
                return [found[k] for k in kinds]
    raise AssertionError(f"no hidden swap found: {sorted(found)}")


@pytest.mark.parametrize(
    "game, step, kinds",
    [("modernart", 9, ("hand", "deck")), ("serengeti", 22, ("deck",))],  # S: no hands
)
def test_review_reads_only_what_the_player_could_know(game, step, kinds):
    """Swapping cards the reviewed seat could not see (another hand, R6; the deck's
    order, S5) changes nothing in its review: it reads its view and the public events."""
    record = planted(game)
    assert isinstance(record.actions[step].get("seat"), int)
    expected = review_step(record, step, 2)
    for swapped in _hidden_swaps(record, step, kinds):
        assert swapped.deck != record.deck
        assert review_step(swapped, step, 2) == expected


def test_a_running_game_cannot_be_reviewed():
    record = planted("modernart")
    record.actions = record.actions[:50]
    with pytest.raises(ReviewError, match="not finished"):
        review(record, 1)


def run_review(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "modernart.cli", "review", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_cli_refuses_a_running_game(tmp_path):
    record = planted("serengeti")
    record.actions = record.actions[:10]
    path = tmp_path / "running.json"
    path.write_text(dump_record(record), encoding="utf-8")
    proc = run_review(str(path), "--worlds", "1")
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert "not finished: only a finished game can be reviewed" in proc.stderr


@pytest.fixture(scope="module")
def modernart_json() -> dict:
    """`modernart review --json` of the planted Modern Art game (one run for the module)."""
    proc = run_review(str(RECORDS / "modernart_planted.json"), "--worlds", str(WORLDS), "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.xdist_group("modernart_json")  # one worker: the module fixture runs once
def test_cli_json_has_one_entry_per_decision_in_order(modernart_json):
    result = modernart_json
    record = planted("modernart")
    steps = [i for i, a in enumerate(record.actions) if a.get("seat") is not None]
    decisions = result["decisions"]
    assert [d["step"] for d in decisions] == steps
    assert all(set(d) == KEYS for d in decisions)
    for d in decisions:
        action = dict(record.actions[d["step"]])
        assert d["seat"] == action.pop("seat") and d["action"] == action
        assert d["mark"] in (None, "inaccuracy", "mistake", "blunder")
        assert d["loss"] >= 0
        if d["mark"]:  # a mark always names the better action
            assert d["better"] is not None and d["better"] != d["action"]
    assert result["worlds"] == WORLDS and result["unit"] == "money"
    assert result["thresholds"] == {"inaccuracy": 5, "mistake": 15, "blunder": 30}
    planted_step = next(d for d in decisions if d["step"] == 80)
    assert planted_step["mark"] == "blunder" and planted_step["better"]["type"] == "play"


@pytest.mark.xdist_group("modernart_json")  # one worker: the module fixture runs once
def test_text_names_the_blunder_and_the_better_card(modernart_json):
    lines = review_text(modernart_json, "Modern Art").splitlines()
    assert all(len(line) <= 80 for line in lines)
    row = next(i for i, line in enumerate(lines) if line.startswith("  80  P3"))
    assert "play krypto.open" in lines[row] and "blunder" in lines[row]
    assert lines[row + 1].strip().startswith("better: play ")
    assert "the 5th" in lines[row + 2]


def test_cli_prints_text_for_people():
    proc = run_review(str(RECORDS / "modernart_planted.json"), "--worlds", "1")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("Review of Modern Art: P0, P1, P2, P3; 1 world a decision.")
    assert "P3: " in proc.stdout and proc.stderr == ""


def test_cli_refuses_a_bad_worlds_count():
    proc = run_review(str(RECORDS / "modernart_planted.json"), "--worlds", "0")
    assert proc.returncode == 2 and "1 to 1000" in proc.stderr
