"""RECORD.md: saving and loading records, and `modernart replay` exactly per the contract."""

import json
import subprocess
import sys

import pytest
from engine_helpers import random_game

from modernart.engine import RecordError, RuleError, dump_record, load_record, record_of, replay
from modernart.engine.modernart import ARTISTS, FULL_DECK, Game

PLAY_FIRST = {"seat": 0, "type": "play", "card": "lite_metal.open"}
KEYS = {"ok", "finished", "actions_applied", "round", "money", "winners", "tokens"}


def run_replay(text: str, *, stdin: bool = False, tmp_path=None):
    """Run `python -m modernart.cli replay` on `text` (a file, or `-` and stdin)."""
    if stdin:
        args, data = ["-"], text
    else:
        path = tmp_path / "game.json"
        path.write_text(text, encoding="utf-8")
        args, data = [str(path)], None
    proc = subprocess.run(
        [sys.executable, "-m", "modernart.cli", "replay", *args],
        input=data,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return proc


def header(**changes):
    data = {
        "format": "modernart-record/1",
        "players": ["Ann", "Bob", "Cy", "Dee"],
        "variant": {"double_payment": "split", "virtual_player": False},
        "deck": list(FULL_DECK),
        "first_auctioneer": 0,
        "actions": [],
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not ...}


@pytest.fixture(scope="module")
def finished():
    return random_game(11, 4)


def test_record_save_load_and_replay_give_the_same_result(finished):
    record = record_of(finished, date="2025-01-01")
    text = dump_record(record)
    data = json.loads(text)
    assert data["format"] == "modernart-record/1" and data["date"] == "2025-01-01"
    assert data["deck"] == list(finished.deck) and data["actions"] == finished.actions
    loaded = load_record(text)
    result = replay(loaded)
    assert set(result) == KEYS
    assert result["ok"] and result["finished"] and result["round"] == 4
    assert result["money"] == finished.money and result["winners"] == finished.winners
    assert result["tokens"] == finished.tokens
    assert result["actions_applied"] == len(finished.actions)
    assert replay(load_record(dump_record(loaded))) == result


def test_replay_command_prints_the_result_and_exits_0(finished, tmp_path):
    proc = run_replay(dump_record(record_of(finished)), tmp_path=tmp_path)
    assert proc.returncode == 0 and proc.stderr == ""
    out = json.loads(proc.stdout)
    assert set(out) == KEYS
    assert out["ok"] is True and out["finished"] is True
    assert out["money"] == finished.money and out["winners"] == finished.winners
    assert set(out["tokens"]) == set(ARTISTS)
    assert all(len(v) == 4 for v in out["tokens"].values())
    assert out["actions_applied"] == len(finished.actions) and out["round"] == 4


def test_replay_command_reads_standard_input_for_dash(finished):
    proc = run_replay(dump_record(record_of(finished)), stdin=True)
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["money"] == finished.money


def test_replay_of_an_unfinished_game_exits_0_with_no_winners(tmp_path):
    actions = [{"seat": 0, "type": "play", "card": FULL_DECK[0]}]
    proc = run_replay(json.dumps(header(actions=actions)), tmp_path=tmp_path)
    assert proc.returncode == 0
    out = json.loads(proc.stdout)
    assert out["finished"] is False and out["winners"] == [] and out["round"] == 1
    assert out["actions_applied"] == 1 and out["money"] == [100] * 4
    assert out["tokens"] == {a: [0, 0, 0, 0] for a in ARTISTS}


def test_replay_accepts_a_preset_as_variant_and_ignores_extra_keys(finished, tmp_path):
    g = Game(["a", "b", "c", "d"], "japanese", seed=5)
    data = header(variant="japanese", deck=list(g.deck), first_auctioneer=g.first_auctioneer)
    data["rating"] = {"a": 1500}
    data["actions"] = [
        {
            "seat": g.first_auctioneer,
            "type": "play",
            "card": g.view(g.auctioneer)["hand"][0],
            "note": "x",
        }
    ]
    proc = run_replay(json.dumps(data), tmp_path=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["actions_applied"] == 1


def test_replay_stops_before_an_illegal_action_exit_1(finished, tmp_path):
    record = record_of(finished)
    index = 40
    state = finished.__class__(
        record.players, record.variant, record.deck, first_auctioneer=record.first_auctioneer
    )
    for action in record.actions[:index]:
        state.apply(action)
    record.actions = [
        *record.actions[:index],
        {"type": "bid", "seat": 0, "amount": 10**6},
        *record.actions[index:],
    ]
    proc = run_replay(dump_record(record), tmp_path=tmp_path)
    assert proc.returncode == 1
    out = json.loads(proc.stdout)
    assert out["ok"] is False
    assert out["error"]["index"] == index and out["error"]["message"]
    assert set(out) == KEYS | {"error"}
    # the other fields describe the state before that action
    assert out["actions_applied"] == index and out["money"] == state.money
    assert out["finished"] is False and out["round"] == state.round


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "dance", "seat": 0},
        {"type": ["play"], "seat": 0},
        {"seat": 0},
        {"type": "pass"},
        {"type": "pass", "seat": 4},
        {"type": "pass", "seat": -1},
        {"type": "pass", "seat": "0"},
        {"type": "pass", "seat": True},
        {"type": "bid", "seat": 1, "amount": 5.0},
        {"type": "bid", "seat": 1, "amount": True},
        {"type": "sealed", "seat": 1, "amount": "5"},
        {"type": "play", "seat": 0},
        "play",
        [],
        None,
    ],
)
def test_replay_bad_actions_exit_1_with_the_index(bad, tmp_path):
    first = {"seat": 0, "type": "play", "card": "lite_metal.open"}
    proc = run_replay(json.dumps(header(actions=[first, bad])), tmp_path=tmp_path)
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    out = json.loads(proc.stdout)
    assert out["error"]["index"] == 1 and out["actions_applied"] == 1


def _not_permutation():
    deck = list(FULL_DECK)
    deck[-1] = deck[0]
    return deck


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "",
        "[]",
        json.dumps(header(format=...)),
        json.dumps(header(format="modernart-record/2")),
        json.dumps(header(players=["a", "b"])),
        json.dumps(header(players=["a", "b", "c", "d", "e", "f"])),
        json.dumps(header(players="abcd")),
        json.dumps(header(players=...)),
        json.dumps(header(deck=...)),
        json.dumps(header(deck=list(FULL_DECK)[:-1])),
        json.dumps(header(deck=_not_permutation())),
        json.dumps(header(deck=[*list(FULL_DECK)[:-1], "krypto.watercolour"])),
        json.dumps(header(variant="modern")),
        json.dumps(header(variant={"double_payment": "half"})),
        json.dumps(header(variant={"virtual_player": True})),  # 4 players
        json.dumps(header(variant="classic_3p_virtual")),
        json.dumps(header(first_auctioneer=...)),
        json.dumps(header(first_auctioneer=4)),
        json.dumps(header(first_auctioneer=-1)),
        json.dumps(header(first_auctioneer=1.0)),
        json.dumps(header(first_auctioneer=True)),
        json.dumps(header(actions=...)),
        json.dumps(header(actions={"0": {"type": "close"}})),
        json.dumps(header(actions=[{"seat": 0, "type": "play", "card": "krypto.watercolour"}])),
        json.dumps(
            header(
                actions=[
                    {"seat": 0, "type": "play", "card": "lite_metal.open"},
                    {"seat": 1, "type": "add", "card": 7},
                ]
            )
        ),
    ],
)
def test_replay_invalid_records_exit_2_with_one_line_on_stderr(text, tmp_path):
    with pytest.raises(RecordError):
        load_record(text)
    proc = run_replay(text, tmp_path=tmp_path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.strip() and len(proc.stderr.strip().splitlines()) == 1


def test_replay_of_too_deeply_nested_json_exits_2(tmp_path):
    proc = run_replay("[" * 100_000 + "]" * 100_000, tmp_path=tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1


def test_replay_of_a_missing_file_exits_2(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "modernart.cli", "replay", str(tmp_path / "nope.json")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and proc.stdout == "" and proc.stderr.strip()


def test_replay_is_deterministic_across_variants():
    for seed, n, variant in [(1, 3, "classic_3p_virtual"), (2, 5, "japanese"), (3, 3, None)]:
        g = random_game(seed, n, variant)
        record = load_record(dump_record(record_of(g)))
        first, second = replay(record), replay(record)
        assert first == second and first["money"] == g.money and first["tokens"] == g.tokens


def test_record_played_stops_after_the_first_actions_and_refuses_an_illegal_one():
    game = random_game(4, n=3)
    record = record_of(game)
    assert record.played().money == game.money
    assert record.played(upto=5).actions == game.actions[:5]
    record.actions = [*game.actions[:5], {"seat": 0, "type": "bid", "amount": -1}]
    with pytest.raises(RuleError):
        record.played()
