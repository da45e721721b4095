"""Art Society records (docs/records.md) through `modernart replay`, the real command."""

import json
import subprocess
import sys

from artsociety_helpers import NAMES

from modernart.engine.artsociety.bots import HeuristicBot, RandomBot
from modernart.engine.artsociety.state import ArtSociety
from modernart.engine.records import dump_record, load_record, record_of


def played(n=3, seed=8):
    game = ArtSociety(NAMES[:n], "exchange_any", seed=seed)
    bots = [HeuristicBot(seed), *(RandomBot(seed + s) for s in range(1, n))]
    while not game.finished:
        seat = game.to_act()[-1]
        game.apply({**bots[seat].choose(game.view(seat)), "seat": seat})
    return game


def replay(record: dict, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "modernart.cli", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return proc.returncode, proc.stdout, proc.stderr


def test_a_finished_game_replays_to_its_points_prestige_walls_and_winners(tmp_path):
    game = played()
    record = json.loads(dump_record(record_of(game)))
    assert record["format"] == "artsociety-record/1" and record["game"] == "artsociety"
    assert set(record["deck"]) == {"piles", "starts", "white"}
    assert record["first_auctioneer"] == record["deck"]["white"].index(min(record["deck"]["white"]))
    code, out, _ = replay(record, tmp_path)
    result = json.loads(out)
    assert code == 0 and result["ok"] and result["finished"]
    assert result["actions_applied"] == len(game.actions)
    assert result["winners"] == game.winners
    assert result["points"] == [s["total"] for s in game.scores()]
    assert result["prestige"] == game.prestige
    assert result["walls"] == [[t.to_json() for t in w.tiles] for w in game.walls]
    assert load_record(dump_record(record_of(game))).played().winners == game.winners


def test_an_illegal_action_stops_the_replay_with_exit_1(tmp_path):
    game = played()
    record = json.loads(dump_record(record_of(game)))
    bad = next(i for i, a in enumerate(record["actions"]) if a["type"] == "pick")
    record["actions"][bad]["painting"] = "9x9.0"
    code, out, _ = replay(record, tmp_path)
    result = json.loads(out)
    assert code == 1 and not result["ok"] and result["error"]["index"] == bad
    assert result["actions_applied"] == bad and "lot" in result["error"]["message"]


def test_a_deck_that_is_not_an_art_society_deal_is_not_a_record_exit_2(tmp_path):
    record = json.loads(dump_record(record_of(played())))
    piles = record["deck"]["piles"]
    piles["2x2"][0] = piles["2x2"][1]  # a painting twice, another missing
    code, out, err = replay(record, tmp_path)
    assert code == 2 and out == "" and err.strip()
    record = json.loads(dump_record(record_of(played())))
    record["first_auctioneer"] = (record["first_auctioneer"] + 1) % 3  # A8: not the lowest card
    code, out, err = replay(record, tmp_path)
    assert code == 2 and out == "" and "A8" in err
