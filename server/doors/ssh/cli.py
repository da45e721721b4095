"""`modernart-server`'s SSH options (off unless `--ssh-port` is given)."""

from __future__ import annotations

import argparse
import pathlib
from collections.abc import Callable
from typing import Any, TypeVar

from modernart.server.doors.ssh.server import (
    DEFAULT_HANG_TIMEOUT,
    DEFAULT_IDLE_TIMEOUT,
    DEFAULT_MAX_PER_ADDRESS,
    SshSettings,
)
from modernart.server.doors.ssh.startups import (
    DEFAULT_MAX_STARTUPS,
    DEFAULT_PER_ADDRESS_STARTUPS,
    DEFAULT_SILENT_TIMEOUT,
    StartupLimits,
    parse_max_startups,
)
from modernart.server.doors.terminal import TerminalSettings
from modernart.server.doors.terminal.admission import (
    DEFAULT_STARTS_PER_ADDRESS,
    DEFAULT_STARTS_TOTAL,
    Limits,
)
from modernart.server.doors.terminal.terminals import (
    DEFAULT_SESSIONS_PER_WORKER,
    DEFAULT_WORKER_MAX_MB,
)

Settings = TypeVar("Settings")


def add_door_arguments(
    parser: argparse.ArgumentParser, door: str, title: str, listener: str, port_help: str
) -> argparse._ArgumentGroup:
    """A door's group of options, with its `--DOOR-port` (the door is off without it) and
    `--DOOR-host` (see `door_settings`); the SSH and browser doors share this shape."""
    group = parser.add_argument_group(f"{title} (docs/operations.md)")
    group.add_argument(f"--{door}-port", type=int, default=None, help=port_help)
    group.add_argument(
        f"--{door}-host",
        default=None,
        help=f"address {listener} listens on (default: the --host address)",
    )
    return group


def door_settings(
    args: argparse.Namespace, door: str, settings: Callable[..., Settings], **fields: Any
) -> Settings | None:
    """A door's settings: `--DOOR-port`, `--DOOR-host` (else `--host`) and its own
    `fields`; None when the door is off (no `--DOOR-port`)."""
    port = getattr(args, f"{door}_port")
    if port is None:
        return None
    host = getattr(args, f"{door}_host")
    return settings(port=port, host=host if host is not None else args.host, **fields)


def add_ssh_arguments(parser: argparse.ArgumentParser) -> None:
    port_help = "also answer SSH on this port: every session gets the game client (off by default)"
    ssh = add_door_arguments(parser, "ssh", "play over SSH", "SSH", port_help)
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
        "--ssh-memory-mb",
        type=int,
        default=0,
        metavar="MB",
        help="memory the sessions of the SSH (and browser) doors may use in all; a session "
        "beyond it is refused (default: half the memory available at start)",
    )
    ssh.add_argument(
        "--ssh-max-per-address",
        type=int,
        default=DEFAULT_MAX_PER_ADDRESS,
        help="identities (SSH keys, browsers) with a session at once per client address, "
        f"both doors together; the same one again replaces its session (default "
        f"{DEFAULT_MAX_PER_ADDRESS}; 0: no limit)",
    )
    ssh.add_argument(
        "--ssh-idle-timeout",
        type=float,
        default=DEFAULT_IDLE_TIMEOUT,
        help=f"close a session after this many seconds without a key press "
        f"(default {DEFAULT_IDLE_TIMEOUT:.0f}; 0: never)",
    )
    add_limit_arguments(ssh)


def rate(text: str) -> tuple[int, float]:
    """`COUNT/SECONDS`, e.g. `10/60`: at most COUNT in any SECONDS (0/…: no limit)."""
    count, _, seconds = text.partition("/")
    try:
        result = int(count), float(seconds or 1)
    except ValueError:
        raise argparse.ArgumentTypeError("a rate is COUNT/SECONDS, e.g. 10/60") from None
    if result[0] < 0 or result[1] <= 0:
        raise argparse.ArgumentTypeError("a rate is COUNT/SECONDS with SECONDS > 0")
    return result


def max_startups(text: str) -> tuple[int, int, int]:
    try:
        return parse_max_startups(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_limit_arguments(ssh: argparse._ArgumentGroup) -> None:
    ssh.add_argument(
        "--ssh-max-startups",
        type=max_startups,
        default=DEFAULT_MAX_STARTUPS,
        metavar="START:RATE:FULL",
        help="connections not signed in yet: from START on, a new one is dropped with a "
        "chance rising from RATE %% to 100 %% at FULL, as sshd's MaxStartups (default "
        f"{':'.join(map(str, DEFAULT_MAX_STARTUPS))})",
    )
    ssh.add_argument(
        "--ssh-per-address-startups",
        type=int,
        default=DEFAULT_PER_ADDRESS_STARTUPS,
        help=f"connections not signed in yet per address (default {DEFAULT_PER_ADDRESS_STARTUPS}; "
        "0: no limit)",
    )
    ssh.add_argument(
        "--ssh-silent-timeout",
        type=float,
        default=DEFAULT_SILENT_TIMEOUT,
        help="close a connection that sends nothing for this many seconds "
        f"(default {DEFAULT_SILENT_TIMEOUT:.0f}; 0: only the 30 s login timeout)",
    )
    for flag, default, whose in (
        ("--ssh-start-rate", DEFAULT_STARTS_PER_ADDRESS, "per address"),
        ("--ssh-total-start-rate", DEFAULT_STARTS_TOTAL, "from everyone"),
    ):
        count, seconds = default
        ssh.add_argument(
            flag,
            type=rate,
            default=default,
            metavar="COUNT/SECONDS",
            help=f"session starts {whose} (default {count}/{seconds:.0f}; 0/1: no limit)",
        )
    ssh.add_argument(
        "--ssh-hang-timeout",
        type=float,
        default=DEFAULT_HANG_TIMEOUT,
        help="restart the sessions of a worker whose event loop stops answering for this "
        f"many seconds, blocked or computing (default {DEFAULT_HANG_TIMEOUT:.0f}; 0: never); "
        "one only waiting for CPU is spared until six times as long",
    )
    ssh.add_argument(
        "--terminal-sessions-per-worker",
        type=int,
        default=DEFAULT_SESSIONS_PER_WORKER,
        metavar="K",
        help="terminal sessions (SSH and browser) that share one worker process "
        f"(default {DEFAULT_SESSIONS_PER_WORKER}; 1: a process per session)",
    )
    ssh.add_argument(
        "--terminal-worker-max-mb",
        type=float,
        default=DEFAULT_WORKER_MAX_MB,
        metavar="MB",
        help="a worker process using more memory than this (PSS) ends the session that was "
        f"given the most input lately, with a message (default {DEFAULT_WORKER_MAX_MB:.0f}; "
        "0: never)",
    )


def ssh_settings(args: argparse.Namespace) -> SshSettings | None:
    return door_settings(
        args,
        "ssh",
        SshSettings,
        guests=args.ssh_guests,
        authorized_keys=args.ssh_authorized_keys,
        max_per_address=args.ssh_max_per_address,
        startup_limits=StartupLimits(
            max_startups=args.ssh_max_startups,
            per_address=args.ssh_per_address_startups,
            silent_timeout=args.ssh_silent_timeout,
        ),
        **_session_fields(args),
    )


def ssh_terminal_settings(args: argparse.Namespace | None) -> TerminalSettings:
    """The terminal sessions' limits (memory budget, per address, idle), SSH door or not:
    the browser door's sessions use them too."""
    if args is None:
        return TerminalSettings()
    return SshSettings(port=0, **_session_fields(args)).terminal_settings()


def _session_fields(args: argparse.Namespace) -> dict[str, Any]:
    """The `SshSettings` fields every door's terminal sessions share."""
    return {
        "idle_timeout": args.ssh_idle_timeout,
        "hang_timeout": args.ssh_hang_timeout,
        "sessions_per_worker": args.terminal_sessions_per_worker,
        "worker_max_mb": args.terminal_worker_max_mb,
        "limits": terminal_limits(args),
    }


def terminal_limits(args: argparse.Namespace) -> Limits:
    """The terminal sessions' admission limits, for every door."""
    return Limits(
        memory_mb=args.ssh_memory_mb,
        per_address=args.ssh_max_per_address,
        starts_per_address=args.ssh_start_rate,
        starts_total=args.ssh_total_start_rate,
    )
