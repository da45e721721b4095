#!/usr/bin/env python3
"""Group a py-spy profile of the server by where the time went (docs/benchmarks.md).

Input: `py-spy record --format raw` output (one stack a line, its sample count
last). Each sample is counted once: its stack is read from the leaf up, and the
first frame that one of GROUPS' patterns names gives its group; a stack no
pattern names is "other". Usage:

    py-spy record --rate 200 --nonblocking --format raw -o prof.txt -p PID
    scripts/profile_groups.py prof.txt [more.txt ...]   # one column per file
"""

from __future__ import annotations

import argparse
import pathlib
from collections import Counter

# (group, substrings of a frame "function (file:line)"), leaf-first precedence per frame.
GROUPS: list[tuple[str, tuple[str, ...]]] = [
    ("waiting (`epoll`; the checkpointer's sleep)", ("EpollSelector.select", "Condition.wait")),
    ("socket writes (`transport.write`)", ("_SelectorSocketTransport.write ", "write_queued")),
    ("SQLite (inserts, commits; checkpoints in their thread)", ("server/store/sqlite.py",)),
    ("packing frames (msgpack)", ("packb", "server/wire/codec.py", "server/wire/updates.py")),
    ("WebSocket framing and the send queue", ("Conn.send_framed", "Conn.send_raw", "outbox.py")),
    ("views (`Game.view`, `seat_view`, the room's fields)", ("view", "_ranking", "values (")),
    ("rules engine (`apply`, `legal`, `to_act`)", ("engine/",)),
    ("history", ("server/rooms/history.py",)),
    ("clocks and timers", ("hammer", "_turn_clock", "call_later", "call_at", "TimerHandle")),
    (
        "reading: `recv`, WebSocket parsing, decoding",
        ("_read_ready", "websockets/", "codec.py:", "decode (", "FastReadConnection.data_received"),
    ),
    ("pacing and rates (`Inbox`, buckets)", ("server/wire/pacing.py", "server/limits.py")),
    (
        "lobby (lists, hello, create/join/leave)",
        ("lobby/pages.py", "on_hello", "on_create", "on_join", "on_leave", "enter (", "on_rooms"),
    ),
    ("bots' scheduling (`_schedule_bots`)", ("_schedule_bots", "brain (")),
    (
        "handling messages: the hub's and rooms' own code",
        (
            "server/hub.py",
            "server/rooms/room.py",
            "server/wire/app.py",
            "server/wire/session.py",
            "actions.py",
        ),
    ),
    # uvloop's loop is C: a sample with no Python frame below `Runner.run` is in it
    # (polling, reading sockets, running callbacks, its own timers).
    ("uvloop's own loop (C: polling, reads, callbacks)", ("Runner.run (",)),
]


def group_of(stack: list[str]) -> str:
    for frame in reversed(stack):
        for name, patterns in GROUPS:
            if any(p in frame for p in patterns):
                return name
    return "other (the event loop itself, asyncio, collections)"


def groups(path: pathlib.Path) -> Counter[str]:
    counts: Counter[str] = Counter()
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if stack:
            counts[group_of(stack.split(";"))] += int(count)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("profiles", nargs="+", type=pathlib.Path)
    args = parser.parse_args()
    tables = [groups(p) for p in args.profiles]
    names = [g for g, _ in GROUPS] + ["other (the event loop itself, asyncio, collections)"]
    totals = [sum(t.values()) for t in tables]
    print("| where | " + " | ".join(p.name for p in args.profiles) + " |")
    print("|---|" + "---|" * len(tables))
    for name in sorted(names, key=lambda n: -tables[0][n]):
        cells = [f"{t[name] / max(1, n) * 100:.1f} %" for t, n in zip(tables, totals, strict=True)]
        print(f"| {name} | " + " | ".join(cells) + " |")
    print("| samples | " + " | ".join(str(n) for n in totals) + " |")


if __name__ == "__main__":
    main()
