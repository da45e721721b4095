"""`modernart review FILE`: the expert's review of a finished game (engine/review.py),
as text for people or as docs/records.md's JSON object."""

from __future__ import annotations

import json
import sys
import textwrap
from collections import Counter
from typing import Any

from modernart.engine.records import Record, RecordError, load_record
from modernart.engine.review import MARK_PLURALS, MARKS, ReviewError, action_text, review

WIDTH = 80  # a terminal's columns


def read_record(path: str, command: str) -> Record | None:
    """The record in file `path` ("-": standard input); None, said on standard error as
    `modernart COMMAND: …`, when it cannot be read or is not a valid record."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        return load_record(text)
    except (OSError, UnicodeDecodeError, RecordError) as exc:
        print(f"modernart {command}: {path}: {exc}", file=sys.stderr)
        return None


def review_command(path: str, worlds: int, as_json: bool, seed: int = 0) -> int:
    """Exit 0 reviewed, 1 a record that cannot be reviewed (a running game, an illegal
    action), 2 not a valid record; the message goes to standard error."""
    record = read_record(path, "review")
    if record is None:
        return 2
    try:
        result = review(record, worlds, seed)
    except ReviewError as exc:
        print(f"modernart review: {path}: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(result) if as_json else review_text(result, record.info.title))
    return 0


def review_text(result: dict[str, Any], title: str) -> str:
    """The review for people: how it was measured, a line a player, the marked decisions."""
    players = result["players"]
    least = " / ".join(f"{v:g}" for v in result["thresholds"].values())
    worlds = f"{result['worlds']} world{'s' if result['worlds'] > 1 else ''}"
    lines = textwrap.wrap(f"Review of {title}: {', '.join(players)}; {worlds} a decision.", WIDTH)
    lines += [
        f"Expected result: {result['measure']} ({result['unit']}).",
        f"Marks from a loss of {least} {result['unit']} (inaccuracy / mistake / blunder),",
        f"only when the loss passes {result['noise']:g} times its spread (± below).",
        "",
    ]
    decisions = result["decisions"]
    for seat, name in enumerate(players):
        mine = [d for d in decisions if d["seat"] == seat]
        marks = Counter(d["mark"] for d in mine if d["mark"])
        counted = ", ".join(
            f"{marks[m]} {MARK_PLURALS[m] if marks[m] > 1 else m}" for m in MARKS if marks[m]
        )
        lost = sum(d["loss"] for d in mine if d["mark"])
        summary = f"{counted}; {lost:.0f} {result['unit']} lost" if counted else "nothing marked"
        line = f"{name}: {len(mine)} decisions; {summary}"
        lines += textwrap.wrap(line, WIDTH, subsequent_indent="  ")
    marked = [d for d in decisions if d["mark"]]
    if marked:
        lines += ["", "step  player    action                       mark          loss      ±"]
    for d in marked:
        name = players[d["seat"]][:8]
        lines.append(
            f"{d['step']:>4}  {name:<8}  {action_text(d['action'])[:27]:<27}  {d['mark']:<11}"
            f"  {d['loss']:>6.1f}  {d['spread'] or 0:>5.1f}"
        )
        lines.append(f"{'':6}better: {action_text(d['better'])}")
        if d["reason"]:
            lines.append(f"{'':6}{d['reason']}")
    return "\n".join(lines)
