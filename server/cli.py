"""`modernart-server`: run the server, a door machine (`door`), or export finished games."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import gc
import logging
import pathlib
import signal
import sys
from collections.abc import Callable

import platformdirs

from modernart.engine.games import DEFAULT_GAME, GAME_NAMES
from modernart.engine.review import DEFAULT_WORLDS, MAX_WORLDS
from modernart.server.doors.cli import SECRET_HELP, add_door_command, door_machine
from modernart.server.doors.registry import GameServer
from modernart.server.doors.ssh.cli import add_ssh_arguments, ssh_settings, ssh_terminal_settings
from modernart.server.doors.ssh.server import SshGate, SshSettings
from modernart.server.doors.web.cli import add_web_arguments, web_settings
from modernart.server.doors.web.gate import WebGate, WebSettings
from modernart.server.limits import Limits
from modernart.server.readiness import SSH, WEB
from modernart.server.rooms.botpool import DEFAULT_BUDGET_S, default_workers
from modernart.server.store.export import export_command
from modernart.server.store.port import has_database, open_store
from modernart.server.wire.app import DEFAULT_MAX_PER_ADDRESS, Server
from modernart.server.wire.tickets import read_secret


def default_data_dir() -> pathlib.Path:
    return pathlib.Path(platformdirs.user_data_dir("modernart"))


def add_limit_arguments(parser: argparse.ArgumentParser) -> None:
    """One flag per field of `Limits` (but --max-per-address, above)."""
    group = parser.add_argument_group("limits (docs/operations.md; 0: no limit)")
    defaults = Limits()
    for limit in dataclasses.fields(Limits):
        if limit.name == "max_per_address":
            continue
        default = getattr(defaults, limit.name)
        group.add_argument(
            "--" + limit.name.replace("_", "-"),
            dest=limit.name,
            type=float if limit.type == "float" else int,
            default=None,
            metavar="N",
            help=f"{limit.metadata['help']} (default {default:g})",
        )


def limits_of(args: argparse.Namespace) -> Limits:
    """The defaults (those of --dev with --dev), changed by the flags given."""
    base = Limits.for_dev() if args.dev else Limits()
    names = [f.name for f in dataclasses.fields(Limits) if f.name != "max_per_address"]
    return base.replace(**{name: getattr(args, name) for name in names})


STORE_HELP = (
    "a PostgreSQL database to store in, postgresql://user@host/db "
    "(default: SQLite in the data directory; docs/operations.md)"
)


def review_worlds(text: str) -> int:
    """`--review-worlds`: 1 to MAX_WORLDS (a review's CPU grows with it)."""
    try:
        worlds = int(text)
    except ValueError:
        worlds = 0
    if not 1 <= worlds <= MAX_WORLDS:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from 1 to {MAX_WORLDS}")
    return worlds


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="modernart-server",
        description="The Modern Art game server (WebSocket, msgpack frames).",
        allow_abbrev=False,  # `ratings --game` is no abbreviation of --games-per-identity
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8765, help="TCP port (0: any free port)")
    parser.add_argument(
        "--data",
        type=pathlib.Path,
        default=None,
        help="data directory (default: the user data directory, e.g. ~/.local/share/modernart)",
    )
    parser.add_argument("--store", default=None, metavar="URL", help=STORE_HELP)
    parser.add_argument(
        "--redis",
        default=None,
        metavar="URL",
        help="join the cluster of servers on this Redis, redis://host:6379/0 "
        "(needs --store: they share it; docs/operations.md)",
    )
    parser.add_argument(
        "--dev",
        action="store_true",
        help="development mode: fixed decks (options.deck, first_auctioneer), "
        "no per-address connection limit, no bot delay by default",
    )
    parser.add_argument(
        "--log-level", default="info", choices=["debug", "info", "warning", "error"]
    )
    parser.add_argument(
        "--max-per-address",
        type=int,
        default=None,
        help=f"open connections per client address (default {DEFAULT_MAX_PER_ADDRESS}; "
        "0: no limit; --dev: no limit)",
    )
    parser.add_argument(
        "--trust-proxy",
        action="store_true",
        help="take the client address from X-Forwarded-For (behind a reverse proxy)",
    )
    parser.add_argument(
        "--bot-workers",
        type=int,
        default=None,
        help="worker processes for the expert bots' searches "
        f"(default one fewer than the cores, here {default_workers()})",
    )
    parser.add_argument(
        "--bot-budget",
        type=float,
        default=DEFAULT_BUDGET_S,
        help="the most seconds an expert bot searches per decision (default %(default)s)",
    )
    parser.add_argument(
        "--bot-worlds",
        type=int,
        default=None,
        help="sampled worlds an expert bot searches per decision, within its seconds "
        "(default: each game's own, Modern Art 8, the others 4; 0: as many as its "
        "seconds allow)",
    )
    parser.add_argument(
        "--review-worlds",
        type=review_worlds,
        default=DEFAULT_WORLDS,
        metavar="1..1000",
        help="sampled worlds a finished game's review searches per decision "
        "(default %(default)s; docs/records.md)",
    )
    parser.add_argument(
        "--door-secret-file",
        type=pathlib.Path,
        default=None,
        metavar="FILE",
        help="let door machines (`modernart-server door`) in: " + SECRET_HELP,
    )
    add_limit_arguments(parser)
    add_ssh_arguments(parser)
    add_web_arguments(parser)
    sub = parser.add_subparsers(dest="command")
    ex = sub.add_parser("export", help="write games as RECORD.md records (JSON files)")
    ex.add_argument("rooms", nargs="*", help="room ids to export")
    ex.add_argument("--all", action="store_true", help="every finished game")
    ex.add_argument("--data", dest="export_data", type=pathlib.Path, default=None)
    ex.add_argument("--store", dest="export_store", metavar="URL", help=STORE_HELP)
    ex.add_argument("--out", type=pathlib.Path, default=pathlib.Path("."), help="target folder")
    rt = sub.add_parser("ratings", help="a game's leaderboard (players and bot levels)")
    rt.add_argument("--game", choices=GAME_NAMES, default=DEFAULT_GAME)
    rt.add_argument("--top", type=int, default=50, help="how many (default 50)")
    rt.add_argument("--data", dest="ratings_data", type=pathlib.Path, default=None)
    rt.add_argument("--store", dest="ratings_store", metavar="URL", help=STORE_HELP)
    bk = sub.add_parser(
        "backup",
        help="copy the database safely while the server runs (PostgreSQL: pg_dump's format)",
    )
    bk.add_argument("file", type=pathlib.Path, help="the copy to write")
    bk.add_argument("--data", dest="backup_data", type=pathlib.Path, default=None)
    bk.add_argument("--store", dest="backup_store", metavar="URL", help=STORE_HELP)
    add_door_command(sub, STORE_HELP)
    return parser


# A full (oldest-generation) collection walks every live object: with 2,000
# connections it paused the loop for ~130 ms about every 10 s under load, the
# whole of the p99 latency. Young collections stay as they are; a full one waits
# for 1,000 middle-generation collections (~15 min at 500 rooms) instead of 10.
FULL_COLLECTION_EVERY = 1000


def tune_gc() -> None:
    """Keep the long-lived startup objects out of every collection, and make full
    collections rare (the server's own process only, not an in-process server)."""
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)


async def serve_until_signalled(
    server: GameServer,
    ssh: SshSettings | None = None,
    web: WebSettings | None = None,
    args: argparse.Namespace | None = None,
) -> None:
    """Serve until SIGINT/SIGTERM; both doors share one set of terminal sessions."""
    for door, settings in ((SSH, ssh), (WEB, web)):
        if settings is not None:
            server.readiness.expect(door)  # not ready (GET /readyz) until it listens
    await server.start()
    gate = page = None
    try:
        if ssh is not None:
            gate = SshGate(server, ssh)
            await gate.start()
        if web is not None:
            shared = gate.terminals if gate is not None else None
            page = WebGate(server, web, shared, ssh_terminal_settings(args))
            await page.start()
    except BaseException:
        if gate is not None:
            await gate.stop()
        await server.stop()
        raise
    tune_gc()
    print(server.banner(), flush=True)
    if gate is not None:
        print(f"SSH on port {gate.port}, host key {gate.fingerprint}", flush=True)
    if page is not None:
        print(f"browser play on http://{web.host}:{page.port}/", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    logging.getLogger("modernart.server").info("event loop: %s", type(loop).__module__)
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        if page is not None:
            await page.stop()  # the sessions' clients first: they are the server's clients
        if gate is not None:
            await gate.stop()
        await server.stop()


def ratings_command(data: pathlib.Path, url: str | None, args: argparse.Namespace) -> int:
    """`modernart-server ratings --game G`: rank, shown rating, games, name (tab-separated)."""
    from modernart.server.people.ratings import shown

    if not has_database(data, url):
        print(f"modernart-server ratings: no database in {data}", file=sys.stderr)
        return 2
    store = open_store(data, url)
    try:
        board = store.leaderboard(args.game, args.top)
    finally:
        store.close()
    for rank, r in enumerate(board, start=1):
        print(f"{rank}\t{shown(r.mu, r.sigma)}\t{r.games}\t{r.name}")
    if not board:
        print(f"nobody is rated in {args.game} yet", file=sys.stderr)
    return 0


def new_loop() -> asyncio.AbstractEventLoop:
    """The server process's event loop: uvloop's where it is installed (issue 21: the
    same acts for less CPU), else asyncio's own. Only `modernart-server`'s process
    runs on it; an in-process server (a local game) stays on its caller's loop, and
    the terminal zygote and the bot workers are processes of their own (started by
    exec and spawn, not forked from this one), on asyncio's loop or none."""
    try:
        import uvloop
    except ImportError:  # a platform without it (Windows)
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=args.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if args.log_level != "debug":  # one line per connection is noise at this scale
        logging.getLogger("websockets").setLevel(logging.WARNING)
        logging.getLogger("asyncssh").setLevel(logging.WARNING)
    try:
        if args.command in ("export", "ratings", "backup"):
            # the command's own --data and --store, else those given before it
            data = getattr(args, f"{args.command}_data") or args.data or default_data_dir()
            url = getattr(args, f"{args.command}_store") or args.store
        if args.command == "export":
            return export_command(data, args.rooms, args.all, args.out, url)
        if args.command == "ratings":
            return ratings_command(data, url, args)
        if args.command == "backup":
            store = open_store(data, url)
            try:
                store.backup(args.file)
            finally:
                store.close()
            print(f"backed up to {args.file}")
            return 0
    except OSError as exc:  # StoreError: the database cannot be used
        print(f"modernart-server {args.command}: {exc}", file=sys.stderr)
        return 1
    if args.command == "door":
        return run(door_machine, args)
    if args.redis and not args.store:
        print(
            "modernart-server: --redis needs --store postgresql://…: the servers of a"
            " cluster share one store",
            file=sys.stderr,
        )
        return 1
    return run(game_server, args)


def game_server(args: argparse.Namespace, data: pathlib.Path) -> Server:
    """The game server the options ask for."""
    secret = read_secret(args.door_secret_file) if args.door_secret_file else None
    return Server(
        data,
        host=args.host,
        port=args.port,
        dev=args.dev,
        max_per_address=args.max_per_address,
        trust_proxy=args.trust_proxy,
        limits=limits_of(args),
        bot_workers=args.bot_workers,
        bot_budget_s=args.bot_budget,
        bot_worlds=args.bot_worlds,
        review_worlds=args.review_worlds,
        store_url=args.store,
        redis_url=args.redis,
        door_secret=secret,
    )


def run(
    make: Callable[[argparse.Namespace, pathlib.Path], GameServer], args: argparse.Namespace
) -> int:
    """Serve what `make` builds from the options until a signal; 1 with a reason if it
    cannot start."""
    try:
        server = make(args, args.data or default_data_dir())
        with asyncio.Runner(loop_factory=new_loop) as runner:
            runner.run(serve_until_signalled(server, ssh_settings(args), web_settings(args), args))
    except (OSError, ValueError) as exc:  # ValueError: a bad --ssh-authorized-keys file
        print(f"modernart-server: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
