"""`modernart-server`'s browser options (off unless `--web-port` is given)."""

from __future__ import annotations

import argparse

from .gate import DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_PER_ADDRESS, DEFAULT_MAX_SESSIONS, WebSettings


def add_web_arguments(parser: argparse.ArgumentParser) -> None:
    web = parser.add_argument_group("play in a browser (docs/operations.md)")
    web.add_argument(
        "--web-port",
        type=int,
        default=None,
        help="also serve the game's page on this HTTP port (off by default)",
    )
    web.add_argument(
        "--web-host", default=None, help="address the page listens on (default: the --host address)"
    )
    web.add_argument(
        "--web-origin",
        action="append",
        default=[],
        metavar="URL",
        help="a public origin of the page (e.g. https://play.example.org) when a proxy "
        "changes the Host header; repeatable (default: the page's own host)",
    )
    web.add_argument(
        "--web-max-sessions",
        type=int,
        default=DEFAULT_MAX_SESSIONS,
        help=f"browser sessions at once (default {DEFAULT_MAX_SESSIONS}; 0: no limit)",
    )
    web.add_argument(
        "--web-max-per-address",
        type=int,
        default=DEFAULT_MAX_PER_ADDRESS,
        help=f"browser sessions at once per client address (default {DEFAULT_MAX_PER_ADDRESS}; "
        "0: no limit)",
    )
    web.add_argument(
        "--web-idle-timeout",
        type=float,
        default=DEFAULT_IDLE_TIMEOUT,
        help="close a page's session after this many seconds without a key press "
        f"(default {DEFAULT_IDLE_TIMEOUT:.0f}; 0: never)",
    )


def web_settings(args: argparse.Namespace) -> WebSettings | None:
    if args.web_port is None:
        return None
    return WebSettings(
        port=args.web_port,
        host=args.web_host if args.web_host is not None else args.host,
        origins=tuple(o.rstrip("/") for o in args.web_origin),
        max_sessions=args.web_max_sessions,
        max_per_address=args.web_max_per_address,
        idle_timeout=args.web_idle_timeout,
    )
