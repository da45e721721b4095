"""Modern Art's bot levels as players meet them (issue 12): `add_bot` takes each level
(and `heuristic` as `hard`), `modernart --help` lists each with its one-line
description (engine/modernart/bots BOT_HELP)."""

from __future__ import annotations

import re

import pytest

from modernart.cli import main
from modernart.engine.modernart.bots import BOT_HELP


async def test_add_bot_takes_every_level_and_names_it(player):
    ann = await player("Ann")
    await ann.send("create", seats=5)
    await ann.expect("room")
    marks = {"easy": "E", "normal": "N", "expert": "X", "heuristic": "H"}  # easy ≠ expert
    for seat, level in enumerate(marks, start=1):
        await ann.send("add_bot", level=level)
        room = (await ann.expect("room"))["room"]
        assert room["bots"][seat] and room["seated"][seat].endswith(f"({marks[level]})")
    await ann.send("add_bot", level="grandmaster")
    error = await ann.expect_error("bad_message")
    assert "expert" in error["message"]


def test_modernart_help_lists_each_level_with_its_line(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for level, line in BOT_HELP.items():
        assert re.search(rf"\b{level} +{re.escape(line)}", out), level
