"""`modernart-server`'s SSH options (off unless `--ssh-port` is given)."""

from __future__ import annotations

import argparse
import pathlib

from .server import DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_PER_ADDRESS, DEFAULT_MAX_SESSIONS, SshSettings


def add_ssh_arguments(parser: argparse.ArgumentParser) -> None:
    ssh = parser.add_argument_group("play over SSH (docs/operations.md)")
    ssh.add_argument(
        "--ssh-port",
        type=int,
        default=None,
        help="also answer SSH on this port: every session gets the game client (off by default)",
    )
    ssh.add_argument(
        "--ssh-host", default=None, help="address SSH listens on (default: the --host address)"
    )
    ssh.add_argument(
        "--ssh-guests",
        action="store_true",
        help="let sessions without a key in, each as a new guest identity",
    )
    ssh.add_argument(
        "--ssh-authorized-keys",
        type=pathlib.Path,
        default=None,
        metavar="FILE",
        help="only the keys in this authorized_keys file may play (default: any key)",
    )
    ssh.add_argument(
        "--ssh-max-sessions",
        type=int,
        default=DEFAULT_MAX_SESSIONS,
        help=f"SSH sessions at once (default {DEFAULT_MAX_SESSIONS}; 0: no limit)",
    )
    ssh.add_argument(
        "--ssh-max-per-address",
        type=int,
        default=DEFAULT_MAX_PER_ADDRESS,
        help=f"SSH sessions at once per client address (default {DEFAULT_MAX_PER_ADDRESS}; "
        "0: no limit)",
    )
    ssh.add_argument(
        "--ssh-idle-timeout",
        type=float,
        default=DEFAULT_IDLE_TIMEOUT,
        help=f"close a session after this many seconds without a key press "
        f"(default {DEFAULT_IDLE_TIMEOUT:.0f}; 0: never)",
    )


def ssh_settings(args: argparse.Namespace) -> SshSettings | None:
    if args.ssh_port is None:
        return None
    return SshSettings(
        port=args.ssh_port,
        host=args.ssh_host if args.ssh_host is not None else args.host,
        guests=args.ssh_guests,
        authorized_keys=args.ssh_authorized_keys,
        max_sessions=args.ssh_max_sessions,
        max_per_address=args.ssh_max_per_address,
        idle_timeout=args.ssh_idle_timeout,
    )
