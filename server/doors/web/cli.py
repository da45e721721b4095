"""`modernart-server`'s browser options (off unless `--web-port` is given).

The sessions' memory budget, per-address limit and idle timeout are the
terminal sessions' (`--ssh-memory-mb`, `--ssh-max-per-address`,
`--ssh-idle-timeout`): one budget for both doors.
"""

from __future__ import annotations

import argparse

from modernart.server.doors.ssh.cli import add_door_arguments, door_settings
from modernart.server.doors.web.gate import WebSettings


def add_web_arguments(parser: argparse.ArgumentParser) -> None:
    port_help = "also serve the game's page on this HTTP port (off by default)"
    web = add_door_arguments(parser, "web", "play in a browser", "the page", port_help)
    web.add_argument(
        "--web-origin",
        action="append",
        default=[],
        metavar="URL",
        help="a public origin of the page (e.g. https://play.example.org) when a proxy "
        "changes the Host header; repeatable (default: the page's own host)",
    )


def web_settings(args: argparse.Namespace) -> WebSettings | None:
    origins = tuple(o.rstrip("/") for o in args.web_origin)
    return door_settings(args, "web", WebSettings, origins=origins)
