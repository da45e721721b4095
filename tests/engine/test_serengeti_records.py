"""RECORD.md "Other games": Serengeti records, and `modernart replay` for any game."""

import json
import subprocess
import sys

import pytest
from serengeti_helpers import NAMES, act, new_game, win_at

from modernart.engine.games import game_of, get_game
from modernart.engine.modernart.cards import FULL_DECK as MODERN_ART_DECK
from modernart.engine.records import (
    Record,
    RecordError,
    dump_record,
    load_record,
    parse_record,
    record_of,
    replay,
)
from modernart.engine.serengeti.cards import FULL_DECK
from modernart.engine.serengeti.game import SerengetiGame

KEYS = {"ok", "finished", "actions_applied", "winners", "chips", "points", "owned"}


def run_replay(text: str, tmp_path):
    path = tmp_path / "serengeti.json"
    path.write_text(text, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "modernart.cli", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def header(**changes):
    data = {
        "format": "serengeti-record/1",
        "game": "serengeti",
        "players": ["Ann", "Bob", "Cy", "Dee"],
        "variant": {"payout": "split"},
        "deck": list(FULL_DECK),
        "first_auctioneer": 0,
        "actions": [],
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not ...}


@pytest.fixture(scope="module")
def finished():
    game = new_game(4, first=1)
    while not game.finished:
        win_at(game, game.auction % 4)
    return game


def test_a_serengeti_record_names_its_game_and_format(finished):
    data = json.loads(dump_record(record_of(finished, date="2026-11-30")))
    assert data["game"] == "serengeti" and data["format"] == "serengeti-record/1"
    assert data["deck"] == list(finished.deck) and data["first_auctioneer"] == 1
    assert data["variant"] == {"payout": "split"} and data["actions"] == finished.actions
    assert data["date"] == "2026-11-30"
    assert all(set(a) <= {"type", "seat", "amount"} for a in data["actions"])


def test_replay_command_prints_serengetis_result_fields_and_exits_0(finished, tmp_path):
    proc = run_replay(dump_record(record_of(finished)), tmp_path)
    assert proc.returncode == 0 and proc.stderr == ""
    result = json.loads(proc.stdout)
    assert set(result) == KEYS
    assert result["ok"] and result["finished"]
    assert result["actions_applied"] == len(finished.actions)
    assert result["chips"] == finished.chips and result["winners"] == finished.winners
    assert result["points"] == [s["points"] for s in finished.scores]  # with S16's bonus
    assert result["owned"] == finished.owned


def test_replay_of_an_unfinished_game_gives_points_so_far_and_no_winners():
    game = new_game(3, "blue.0", "blue.3", "blue.5", first=0)
    win_at(game, 0, 0)
    win_at(game, 0, 0)
    act(game, 0, "bid", 1)
    result = replay(load_record(dump_record(record_of(game))))
    assert result["ok"] and not result["finished"] and result["winners"] == []
    assert result["points"] == [6, 0, 0] and result["owned"][0] == ["blue.0", "blue.3", "blue.5"]
    assert result["chips"] == game.chips and result["actions_applied"] == 7  # 3 + 3 + 1


def test_replay_stops_before_an_illegal_action_exit_1(tmp_path):
    actions = [
        {"seat": 0, "type": "bid", "amount": 4},
        {"seat": 1, "type": "pass"},
        {"seat": 2, "type": "bid", "amount": 3},  # too low (S7)
        {"seat": 3, "type": "pass"},
    ]
    proc = run_replay(json.dumps(header(actions=actions)), tmp_path)
    assert proc.returncode == 1
    result = json.loads(proc.stdout)
    assert result["ok"] is False and result["error"]["index"] == 2
    assert "at least 5" in result["error"]["message"]
    assert result["actions_applied"] == 2 and result["chips"] == [10, 12, 10, 10]


@pytest.mark.parametrize(
    "bad",
    [
        {"seat": 0, "type": "play", "card": "blue.0"},
        {"seat": 0, "type": "bid", "amount": 2.0},
        {"seat": 0, "type": "pass"},  # not their turn any more
        {"type": "pass"},
        "pass",
    ],
)
def test_replay_bad_actions_exit_1_with_the_index(bad):
    result = replay(parse_record(header(actions=[{"seat": 0, "type": "pass"}, bad])))
    assert result["ok"] is False and result["error"]["index"] == 1


@pytest.mark.parametrize(
    "changes",
    [
        {"format": "modernart-record/1"},
        {"format": "serengeti-record/2"},
        {"game": "chess"},
        {"game": 7},
        {"game": None},
        {"players": ["Ann", "Bob"]},
        {"players": [*NAMES, "Fay"]},
        {"variant": "classic"},
        {"variant": {"payout": "all"}},
        {"deck": list(MODERN_ART_DECK)},
        {"deck": list(FULL_DECK[:-1])},
        {"first_auctioneer": 4},
        {"first_auctioneer": None},
        {"actions": {}},
        {"actions": [{"seat": 0, "type": "bid", "card": "krypto.open"}]},
    ],
)
def test_invalid_serengeti_records_exit_2(changes, tmp_path):
    with pytest.raises(RecordError):
        parse_record(header(**changes))
    if changes in ({"game": "chess"}, {"deck": list(MODERN_ART_DECK)}):
        proc = run_replay(json.dumps(header(**changes)), tmp_path)
        assert proc.returncode == 2 and proc.stdout == "" and proc.stderr.count("\n") == 1


def test_a_modern_art_header_without_game_is_modern_art_and_with_game_too():
    base = {
        "format": "modernart-record/1",
        "players": ["Ann", "Bob", "Cy"],
        "variant": "classic",
        "deck": list(MODERN_ART_DECK),
        "first_auctioneer": 0,
        "actions": [],
    }
    plain, named = parse_record(base), parse_record({**base, "game": "modernart"})
    assert plain.game == named.game == "modernart"
    assert replay(plain) == replay(named)
    assert "game" not in plain.to_dict()  # Modern Art records are written as before
    with pytest.raises(RecordError):
        parse_record({**base, "game": "serengeti"})


def test_records_dispatch_through_the_registry_for_both_games():
    game = SerengetiGame(NAMES[:5], "don", seed=3)
    record = record_of(game)
    assert isinstance(record, Record) and record.game == "serengeti"
    assert record.variant == {"payout": "majority"}
    assert isinstance(record.new_game(), SerengetiGame)
    assert record.new_game().view(None) == game.view(None)
    played = Record(
        record.players,
        record.variant,
        record.deck,
        2,
        [{"seat": 2, "type": "pass"}],
        game="serengeti",
    ).played()
    assert played.chips == [10] * 5 and played.passed == {2}


def test_game_of_finds_every_registered_states_game():
    for name in ("modernart", "serengeti", "artsociety"):
        info = get_game(name)
        state = info.create(list(NAMES[: info.players[-1]]), info.default_preset, seed=1)
        assert game_of(state) is info
        assert record_of(state).game == name
    with pytest.raises(KeyError):
        game_of(object())


def test_replay_reads_a_serengeti_record_from_standard_input(finished):
    proc = subprocess.run(
        [sys.executable, "-m", "modernart.cli", "replay", "-"],
        input=dump_record(record_of(finished)),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0 and json.loads(proc.stdout)["owned"] == finished.owned
