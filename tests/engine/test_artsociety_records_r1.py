"""Records written before revision 2 (ARTSOCIETY.md "Revision 2") replay to the same result.

The records in artsociety_r1_records/ were made by main at de5acb5 (revision 1's
rules, see make.py there) together with what `modernart replay` said of them then.
"""

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from modernart.engine.artsociety.rules import PRESETS, REVISION_2_KEYS
from modernart.engine.records import load_record, replay

FOLDER = Path(__file__).parent / "artsociety_r1_records"
NAMES = sorted(
    p.name.removesuffix(".json") for p in FOLDER.glob("*.json") if ".result" not in p.name
)


def fixture(name: str) -> tuple[str, dict]:
    text = (FOLDER / f"{name}.json").read_text(encoding="utf-8")
    return text, json.loads((FOLDER / f"{name}.result.json").read_text(encoding="utf-8"))


def test_the_fixtures_are_revision_1_records_of_whole_games_and_one_unfinished():
    assert len(NAMES) == 6
    finished = []
    for name in NAMES:
        text, result = fixture(name)
        variant = json.loads(text)["variant"]
        assert isinstance(variant, dict) and not set(REVISION_2_KEYS) & set(variant)
        finished.append(result["finished"])
    assert finished.count(False) == 1


@pytest.mark.parametrize("name", NAMES)
def test_a_revision_1_record_replays_to_the_result_it_had(name):
    text, expected = fixture(name)
    record = load_record(text)
    house = record.new_game().house
    assert house == replace(PRESETS["house_r1"], exchange=house.exchange)
    assert replay(record) == expected


def test_modernart_replay_the_command_gives_the_same_result(tmp_path):
    text, expected = fixture("house_4p")
    path = tmp_path / "old.json"
    path.write_text(text, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "modernart.cli", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0 and json.loads(proc.stdout) == expected


@pytest.mark.parametrize("name", ["house_2p", "house_3p", "house_4p", "random_4p"])
def test_the_same_actions_under_revision_2_give_another_result_or_are_refused(name):
    """The fixtures test something: revision 2's rules do not give the stored results."""
    text, expected = fixture(name)
    data = json.loads(text)
    data["variant"] = "house"
    result = replay(load_record(json.dumps(data)))
    assert not result["ok"] or result["points"] != expected["points"]
