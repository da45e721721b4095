"""The `modernart` command: a game against bots (no arguments), `connect URL`, `replay FILE`."""

from __future__ import annotations

import argparse
import json
import os
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


def play_local(players: int, variant: str, bot_level: str | None, name: str) -> int:
    """A game against bots at once: an in-process server, one room, bots in every other seat."""
    from modernart.tui.app import ModernArtApp
    from modernart.tui.local import LocalGame

    ModernArtApp(name=name, local=LocalGame(players, variant, bot_level)).run()
    return 0


def connect(url: str, name: str) -> int:
    """The lobby of a remote server; the identity token is kept per server URL."""
    from modernart.tui.app import ModernArtApp
    from modernart.tui.tokens import TokenStore

    ModernArtApp(url, name, tokens=TokenStore()).run()
    return 0


def _name(text: str) -> str:
    text = text.strip()
    if not 1 <= len(text) <= 24 or not text.isprintable():
        raise argparse.ArgumentTypeError("a name is 1 to 24 printable characters")
    return text


def _default_name() -> str:
    user = os.environ.get("USER") or os.environ.get("USERNAME") or "You"
    return user[:24] if user.isprintable() else "You"


def main(argv: list[str] | None = None) -> int:
    from modernart.engine.bots import BOT_LEVELS
    from modernart.engine.variant import PRESETS

    parser = argparse.ArgumentParser(
        prog="modernart",
        description="Modern Art, online. With no command: a game against bots in this terminal.",
    )
    parser.add_argument(
        "--players",
        type=int,
        choices=(3, 4, 5),
        default=4,
        help="seats at the table, you included (default 4)",
    )
    parser.add_argument(
        "--variant",
        choices=sorted(PRESETS),
        default="classic",
        help="rule preset (RULES.md R30; default classic)",
    )
    parser.add_argument(
        "--bot-level",
        choices=BOT_LEVELS,
        default=None,
        help="the bots' level (default: the server's)",
    )
    parser.add_argument("--name", type=_name, default=None, help="your name at the table")
    sub = parser.add_subparsers(dest="command")
    rp = sub.add_parser("replay", help="replay a game record (RECORD.md) and print its result")
    rp.add_argument("file", help="record file, or - for standard input")
    cp = sub.add_parser("connect", help="the lobby of a modernart server")
    cp.add_argument("url", help="the server, e.g. ws://127.0.0.1:8765/")
    cp.add_argument("--name", type=_name, default=None, dest="connect_name", help="your name")
    args = parser.parse_args(argv)
    if args.command == "replay":
        return replay_command(args.file)
    if args.command == "connect":
        if not args.url.startswith(("ws://", "wss://")):
            parser.error("the server URL starts with ws:// or wss://")
        return connect(args.url, args.connect_name or args.name or _default_name())
    if args.variant == "classic_3p_virtual" and args.players != 3:
        parser.error("the classic_3p_virtual variant needs --players 3")
    return play_local(args.players, args.variant, args.bot_level, args.name or _default_name())


if __name__ == "__main__":
    sys.exit(main())
