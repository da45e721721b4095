"""The `modernart` command: `replay FILE`; the game client arrives with the TUI."""

from __future__ import annotations

import argparse
import json
import sys

from modernart.engine.records import RecordError, load_record, replay


def replay_command(path: str) -> int:
    """RECORD.md's replay: one JSON object; exit 0 ok, 1 illegal action, 2 invalid file."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        record = load_record(text)
    except (OSError, UnicodeDecodeError, RecordError) as exc:
        print(f"modernart replay: {path}: {exc}", file=sys.stderr)
        return 2
    result = replay(record)
    print(json.dumps(result))
    return 0 if result["ok"] else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="modernart", description="Modern Art, online.")
    sub = parser.add_subparsers(dest="command")
    rp = sub.add_parser("replay", help="replay a game record (RECORD.md) and print its result")
    rp.add_argument("file", help="record file, or - for standard input")
    args = parser.parse_args(argv)
    if args.command == "replay":
        return replay_command(args.file)
    print("modernart: the terminal client is not yet available; try `modernart replay FILE`.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
