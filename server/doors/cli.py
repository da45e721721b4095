"""`modernart-server door --server URL --door-secret-file FILE …`: a door machine's options.

Its SSH and browser options are the game server's (`--ssh-port`, `--web-port` …), given
after `door`; docs/operations.md shows a door machine beside two game servers.
"""

from __future__ import annotations

import argparse
import logging
import pathlib

from modernart.server.doors.machine import DoorMachine
from modernart.server.doors.ssh.cli import add_ssh_arguments
from modernart.server.doors.web.cli import add_web_arguments
from modernart.server.wire.tickets import read_secret

SECRET_HELP = (
    "a file holding the door secret, the same on the game servers and the door machines "
    "(at least 16 random characters, e.g. `openssl rand -hex 32`; docs/operations.md)"
)


def add_door_command(sub: argparse._SubParsersAction, store_help: str) -> None:  # type: ignore[type-arg]
    door = sub.add_parser(
        "door",
        help="run the SSH and browser doors on a machine of their own, for the game "
        "server at --server",
        description="The SSH and browser doors, their sessions playing on the game server "
        "at --server (docs/operations.md).",
    )
    door.add_argument(
        "--server", required=True, metavar="URL", help="the game server, ws://host:8765/"
    )
    door.add_argument(
        "--door-secret-file", required=True, type=pathlib.Path, metavar="FILE", help=SECRET_HELP
    )
    door.add_argument("--host", default="127.0.0.1", help="address the doors listen on")
    door.add_argument(
        "--port", type=int, default=8765, help="TCP port of /healthz and /readyz (0: any free port)"
    )
    door.add_argument(
        "--data", type=pathlib.Path, default=None, help="data directory (the SSH host key)"
    )
    door.add_argument("--store", default=None, metavar="URL", help=store_help)
    door.add_argument(
        "--trust-proxy",
        action="store_true",
        help="take a browser's address from X-Forwarded-For (behind a reverse proxy)",
    )
    door.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    add_ssh_arguments(door)
    add_web_arguments(door)


def door_machine(args: argparse.Namespace, data: pathlib.Path) -> DoorMachine:
    """The door machine the options ask for; OSError or ValueError with a reason."""
    if args.ssh_port is None and args.web_port is None:
        raise ValueError("a door machine needs --ssh-port, --web-port or both")
    if args.store is None:
        logging.getLogger("modernart.server.doors.machine").warning(
            "no --store: the doors use SQLite in %s, which is the game server's store only "
            "beside it with the same --data (docs/operations.md)",
            data,
        )
    return DoorMachine(
        args.server,
        read_secret(args.door_secret_file),
        data,
        store_url=args.store,
        host=args.host,
        port=args.port,
        trust_proxy=args.trust_proxy,
    )
