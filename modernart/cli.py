"""The `modernart` command: a game against bots (no arguments), `connect URL`, `replay FILE`,
`view FILE`, `review FILE`."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from modernart.engine.records import replay
from modernart.engine.review import DEFAULT_WORLDS, MAX_WORLDS
from modernart.reviewcmd import read_record, review_command


def replay_command(path: str) -> int:
    """RECORD.md's replay of any registered game's record (its `game` key; none: Modern
    Art): one JSON object; exit 0 ok, 1 illegal action, 2 invalid file."""
    record = read_record(path, "replay")
    if record is None:
        return 2
    result = replay(record)
    print(json.dumps(result))
    return 0 if result["ok"] else 1


def view_command(path: str, review_path: str | None = None, worlds: int = DEFAULT_WORLDS) -> int:
    """`modernart view FILE [--review REVIEW]`: a record of any game in the replay viewer
    (tui/replay.py), with a review `modernart review FILE --json` wrote; exit 2 when either
    file cannot be read or the review is not one of that record."""
    record = read_record(path, "view")
    if record is None:
        return 2
    from modernart.tui.replay import ViewerApp

    review = None
    try:
        if review_path is not None:
            with open(review_path, encoding="utf-8") as f:
                review = json.load(f)
        app = ViewerApp(record, review, worlds)
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:  # JSON, a mismatch
        print(f"modernart view: {review_path}: {exc}", file=sys.stderr)
        return 2
    app.run()
    return 0


def play_local(args: argparse.Namespace, name: str) -> int:
    """A game against bots at once: an in-process server, one room, bots in every other seat."""
    from modernart.tui.app import ClientApp
    from modernart.tui.local import LocalGame

    options = {
        "bot_delay_ms": round(args.bot_delay * 1000),
        "shout_window_ms": round(args.shout_window * 1000),
    }
    local = LocalGame(args.players, args.variant, args.bot_level, options=options, game=args.game)
    ClientApp(name=name, local=local, bell=args.bell).run()
    return 0


def resume_local(bell: bool) -> int:
    """`modernart --resume`: back to the game against bots kept on quitting."""
    from modernart.tui.app import ClientApp
    from modernart.tui.local import LocalGame, kept_dir

    kept = LocalGame.resumed()
    if kept is None:
        print(f"modernart --resume: no kept game (in {kept_dir()})", file=sys.stderr)
        return 2
    local, name = kept
    ClientApp(name=name, local=local, bell=bell).run()
    return 0


def connect(url: str, name: str, bell: bool) -> int:
    """The lobby of a remote server; the identity token is kept per server and name."""
    from modernart.tui.app import ClientApp
    from modernart.tui.tokens import TokenStore

    ClientApp(url, name, tokens=TokenStore(), bell=bell).run()
    return 0


def identities(forget: list[str] | None) -> int:
    """List the kept identities (server, name), or forget one server's (or one name's there)."""
    from modernart.tui.tokens import TokenStore

    store = TokenStore()
    if forget:
        url, name = forget[0], (forget[1] if len(forget) > 1 else None)
        gone = store.forget(url, name)
        print(f"forgot {gone} identit{'y' if gone == 1 else 'ies'} on {url}")
        return 0 if gone else 1
    kept = store.identities()
    for url, name in kept:
        print(f"{url}\t{name}")
    if not kept:
        print(f"no identities kept (in {store.path})", file=sys.stderr)
    return 0


def _within(convert: Any, low: float, high: float, what: str) -> Any:
    """An argparse type: `convert(text)` from `low` to `high`, else `what` is said."""

    def parse(text: str) -> Any:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(what) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(what)
        return value

    return parse


def _add_seconds(
    parser: argparse.ArgumentParser, flag: str, low: int, high: int, default: float, help: str
) -> None:
    """An option of `low` to `high` seconds; `help` is followed by the range and default."""
    parser.add_argument(
        flag,
        type=_within(float, low, high, f"a number of seconds, {low} to {high}"),
        default=default,
        metavar="SECONDS",
        help=f"{help}{low} to {high} (default {default:g})",
    )


def _add_worlds(parser: argparse.ArgumentParser, help: str) -> None:
    """`view`'s and `review`'s `--worlds`; `help` is followed by the default."""
    parser.add_argument(
        "--worlds",
        type=_within(int, 1, MAX_WORLDS, f"a whole number, 1 to {MAX_WORLDS}"),
        default=DEFAULT_WORLDS,
        help=f"{help}default {DEFAULT_WORLDS})",
    )


def bot_command(args: argparse.Namespace) -> int:
    """`modernart bot URL --join ROOM --level L`: play one seat of the room's game, print
    the final totals as the game's view names them (money, points, score)."""
    import asyncio

    from modernart.botkit import ServerError, run_level_bot

    if not args.url.startswith(("ws://", "wss://")):
        print("modernart bot: the server URL starts with ws:// or wss://", file=sys.stderr)
        return 2
    try:
        play = run_level_bot(
            args.url, args.join, args.level, args.bot_name, args.password, args.budget
        )
        final = asyncio.run(play)
    except (OSError, ServerError) as exc:
        print(f"modernart bot: {exc}", file=sys.stderr)
        return 1
    field = next(f for f in ("money", "points", "score") if f in final["seats"][0])
    scores = [seat[field] for seat in final["seats"]]
    print(json.dumps({field: scores, "winners": final.get("winners"), "you": final["you"]}))
    return 0


def _name(text: str) -> str:
    text = text.strip()
    if not 1 <= len(text) <= 24 or not text.isprintable():
        raise argparse.ArgumentTypeError("a name is 1 to 24 printable characters")
    return text


def _default_name() -> str:
    user = os.environ.get("USER") or os.environ.get("USERNAME") or "You"
    return user[:24] if user.isprintable() else "You"


def _check_game(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """`--game`'s player counts, variants and bot levels (each game has its own); fills
    in the game's default variant."""
    from modernart.engine.games import get_game
    from modernart.tui.games import playable

    info = get_game(args.game)
    if not playable(args.game):
        parser.error(f"this client has no table for {info.title} yet: try --game modernart")
    if args.players not in info.players:
        counts = ", ".join(map(str, info.players))
        parser.error(f"{info.title} is for {counts} players (--players)")
    args.variant = args.variant or info.default_preset
    if args.variant not in info.presets:
        parser.error(f"{info.title}'s variants: {', '.join(info.presets)} (--variant)")
    if args.bot_level is not None and args.bot_level not in info.bots:
        parser.error(f"{info.title}'s bot levels: {', '.join(info.bots)} (--bot-level)")
    if args.variant == "classic_3p_virtual" and args.players != 3:
        parser.error("the classic_3p_virtual variant needs --players 3")


def games_epilog(games: list[Any]) -> str:
    """Every game's presets and bot levels, each with its line of help, for `--help`."""
    parts = []
    for info in games:
        lines = [f"{info.title} (--game {info.name}, {'/'.join(map(str, info.players))} players):"]
        lines.append("  presets (--variant):")
        lines += [f"    {name:<20} {info.preset_help.get(name, '')}" for name in info.presets]
        lines.append("  bot levels (--bot-level):")
        lines += [f"    {level:<20} {info.bot_help.get(level, '')}" for level in info.bots]
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    from modernart.engine.games import DEFAULT_GAME, GAME_NAMES, get_game

    games = [get_game(name) for name in GAME_NAMES]
    every_level = sorted({level for info in games for level in info.bots})
    parser = argparse.ArgumentParser(
        prog="modernart",
        description="Modern Art, online. With no command: a game against bots in this terminal.",
        epilog=games_epilog(games),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--game",
        choices=GAME_NAMES,
        default=DEFAULT_GAME,
        help="the game against bots (default modernart)",
    )
    parser.add_argument(
        "--players",
        type=int,
        choices=(2, 3, 4, 5),
        default=4,
        help="seats at the table, you included (default 4; each game has its counts)",
    )
    parser.add_argument(
        "--variant",
        default=None,
        help="the game's rule preset (each game's are listed below; default: its first)",
    )
    parser.add_argument(
        "--bot-level",
        default=None,
        help="the bots' level (each game's are listed below; default: the game's own)",
    )
    parser.add_argument("--name", type=_name, default=None, help="your name at the table")
    thinks = "how long a bot thinks before it moves, about: "
    _add_seconds(parser, "--bot-delay", 0, 10, 2.0, thinks)
    hammer = "open auctions: the hammer falls this long after the last bid, "
    _add_seconds(parser, "--shout-window", 1, 60, 6.0, hammer)
    parser.add_argument(
        "--bell", action="store_true", help="ring the terminal bell when your turn comes"
    )
    parser.add_argument(
        "--resume", action="store_true", help="go back to the game against bots kept on quitting"
    )
    sub = parser.add_subparsers(dest="command")
    rp = sub.add_parser(
        "replay", help="replay a record of any game (docs/records.md); print its result"
    )
    rp.add_argument("file", help="record file, or - for standard input")
    vp = sub.add_parser("view", help="step through a record of any game on its table")
    vp.add_argument("file", help="record file (docs/records.md)")
    vp.add_argument("--review", help="its review, as `modernart review FILE --json` wrote it")
    _add_worlds(vp, "worlds a decision when the viewer reviews (key a; ")
    rv = sub.add_parser(
        "review", help="the expert's review of a finished game of any game (docs/records.md)"
    )
    rv.add_argument("file", help="record file, or - for standard input")
    _add_worlds(rv, f"worlds searched a decision, 1 to {MAX_WORLDS} (")
    rv.add_argument("--json", action="store_true", help="one JSON object (docs/records.md)")
    rv.add_argument("--seed", type=int, default=0, help="the review's random seed (default 0)")
    cp = sub.add_parser("connect", help="the lobby of a modernart server")
    cp.add_argument("url", help="the server, e.g. ws://127.0.0.1:8765/")
    cp.add_argument(
        "--name",
        type=_name,
        default=None,
        dest="connect_name",
        help="your name; each name keeps its own identity (and seats) on a server",
    )
    cp.add_argument("--bell", action="store_true", dest="connect_bell", help="ring on your turn")
    ip = sub.add_parser("identities", help="list the identities kept per server and name")
    ip.add_argument(
        "--forget",
        nargs="+",
        metavar=("URL", "NAME"),
        help="forget the identity of NAME on the server URL (every name there if none given)",
    )
    bp = sub.add_parser("bot", help="one of our bots plays a seat over the network (docs/bots.md)")
    bp.add_argument("url", help="the server, e.g. ws://127.0.0.1:8765/")
    bp.add_argument("--join", required=True, metavar="ROOM", help="the room to take a seat in")
    bp.add_argument(
        "--level",
        choices=every_level,
        default="hard",
        help="the bot's level (the room's game must have it; see the levels below)",
    )
    bp.add_argument("--name", type=_name, default=None, dest="bot_name", help="its name")
    bp.add_argument("--password", default=None, help="the room's password, if it has one")
    bp.add_argument("--budget", type=float, default=None, help="expert: seconds a move")
    args = parser.parse_args(argv)
    if args.command == "bot":
        return bot_command(args)
    if args.command == "identities":
        if args.forget and len(args.forget) > 2:
            parser.error("--forget takes a server URL and at most one name")
        return identities(args.forget)
    if args.command == "replay":
        return replay_command(args.file)
    if args.command == "view":
        return view_command(args.file, args.review, args.worlds)
    if args.command == "review":
        return review_command(args.file, args.worlds, args.json, args.seed)
    if args.command == "connect":
        if not args.url.startswith(("ws://", "wss://")):
            parser.error("the server URL starts with ws:// or wss://")
        name = args.connect_name or args.name or _default_name()
        return connect(args.url, name, args.bell or args.connect_bell)
    if args.resume:
        return resume_local(args.bell)
    _check_game(parser, args)
    return play_local(args, args.name or _default_name())


if __name__ == "__main__":
    sys.exit(main())
