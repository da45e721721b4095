"""Issue 33 item 7, re-runnable: hostile sessions in a neighbour's terminal worker.

Run by scripts/attack.py (its server has SSH with guests; `attack_ssh.SSH_PORT` is set
in the attack's process), or alone against a server you started:

    python scripts/attack33_fairness.py --ssh-port PORT [--seconds 20] [--addresses 4]

A neighbour (a guest at 80×24) opens the lobby's name dialog and times key → screen
as it types a letter and deletes it, one key at a time (a person's pace), from
writing the key to its first bytes back. First alone (a fifth of the time), then
while 7 hostile guests hold F1/q down at 30 keys a second each (F1 opens the help,
Markdown: the costliest screen, over 0.3 s of CPU), 4 of them at 80×24 and 3 at
500×200. The hostile sessions come from 4 addresses (2, 2, 2, 1): the most that may
share the neighbour's worker when one address may hold 2 sessions of a worker; the
second attack uses 2 addresses, as the issue did (then only 4 can). It returns the
neighbour's p50/p99 alone and beside them, the sessions each worker holds, and the
workers' RSS before, at the peak and 5 s after the hostile sessions left.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import time
from typing import Any

import asyncssh
import attack_ssh
import psutil
import pyte

F1, Q = "\x1bOP", "q"
HOSTILE = [((80, 24), "127.0.3.2"), ((80, 24), "127.0.3.2"), ((80, 24), "127.0.3.3")]
HOSTILE += [((80, 24), "127.0.3.3"), ((500, 200), "127.0.3.4"), ((500, 200), "127.0.3.4")]
HOSTILE += [((500, 200), "127.0.3.5")]
HOLD_RATE = 30.0  # keys a second: a held key's auto-repeat


class Screen(asyncssh.SSHClientSession):  # type: ignore[type-arg]
    """A session's screen (pyte, 80×24 is all the neighbour needs) and its arrivals."""

    def __init__(self, keep: bool) -> None:
        self.keep = keep
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.received = 0
        self.changed = asyncio.Event()
        self.closed = asyncio.Event()

    def data_received(self, data: bytes, datatype: int | None) -> None:
        self.received += len(data)
        if self.keep:
            self.stream.feed(data)
        self.changed.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()
        self.changed.set()

    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def until(self, ok: Any, timeout: float = 30.0) -> None:
        async with asyncio.timeout(timeout):
            while not ok():
                if self.closed.is_set():
                    raise ConnectionError("the session closed")
                self.changed.clear()
                await self.changed.wait()


async def open_screen(
    address: str, user: str, size: tuple[int, int], keep: bool
) -> tuple[asyncssh.SSHClientConnection, asyncssh.SSHClientChannel, Screen]:
    conn = await attack_ssh.guest(address, user)
    chan, screen = await conn.create_session(
        lambda: Screen(keep), term_type="xterm-256color", term_size=size, encoding=None
    )
    return conn, chan, screen  # type: ignore[return-value]


async def time_keys(
    chan: Any, screen: Screen, until: float, times: list[float], lost: list[str]
) -> None:
    """The neighbour types into its name dialog (its name selected: `a` replaces it), then
    Backspace, `a`, Backspace … each timed to its
    first bytes back, until `until`. A key unanswered for 10 s counts as 10 s (and is
    noted in `lost`)."""
    typed = True
    while time.monotonic() < until and not screen.closed.is_set():
        before, shown = screen.received, screen.text()
        t0 = time.perf_counter()
        chan.write(b"a" if typed else b"\x7f")
        try:
            await screen.until(lambda b=before: screen.received > b, 10.0)
            times.append((time.perf_counter() - t0) * 1000)
            await screen.until(lambda s=shown: screen.text() != s, 10.0)
        except (TimeoutError, ConnectionError) as exc:
            times.append((time.perf_counter() - t0) * 1000)
            lost.append(type(exc).__name__)
        typed = not typed
        await asyncio.sleep(0.2)  # a person's pace between two keys


async def hold_keys(chan: Any, until: float, sent: list[int]) -> None:
    """A hostile session: F1 and q at HOLD_RATE, never waiting for the screen."""
    n = 0
    while time.monotonic() < until:
        with contextlib.suppress(Exception):
            chan.write((F1 if n % 2 == 0 else Q).encode())
        n += 1
        sent[0] += 1
        await asyncio.sleep(1 / HOLD_RATE)


def server_workers(ssh_port: int) -> tuple[list[psutil.Process], set[int]]:
    """The terminal workers of the server that listens on `ssh_port` (its zygote's
    children) and the ports that server listens on."""
    for proc in psutil.process_iter():
        with contextlib.suppress(psutil.Error):
            conns = proc.net_connections("tcp")
            ports = {c.laddr.port for c in conns if c.status == psutil.CONN_LISTEN}
            if ssh_port in ports:
                zygotes = [c for c in proc.children() if "zygote" in " ".join(c.cmdline())]
                return [w for z in zygotes for w in z.children()], ports
    return [], set()


def workers_now(ssh_port: int) -> list[tuple[int, float, int]]:
    """Each worker's pid, RSS (MB) and sessions (its clients' connections to the server)."""
    found = []
    workers, ports = server_workers(ssh_port)
    for worker in workers:
        with contextlib.suppress(psutil.Error):
            conns = worker.net_connections("tcp")
            sessions = sum(bool(c.raddr) and c.raddr.port in ports for c in conns)
            found.append((worker.pid, worker.memory_info().rss / 2**20, sessions))
    return found


def percentiles(times: list[float]) -> str:
    if not times:
        return "no answer"
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return f"{statistics.median(ordered):.0f} / {p99:.0f} ms ({len(ordered)} keys)"


async def hostile_neighbours(
    url: str, end: float, addresses: int = len({a for _, a in HOSTILE})
) -> dict[str, Any]:
    """Item 33.7: 7 hostile sessions holding keys beside a neighbour, in its worker;
    they come from `addresses` addresses (4: as many as may share its worker)."""
    port = attack_ssh.SSH_PORT
    conn, chan, neighbour = await open_screen("127.0.3.1", "neighbour", (80, 24), True)
    await neighbour.until(lambda: "Rooms" in neighbour.text() and "Quit" in neighbour.text())
    chan.write(b"n")  # the name dialog: typing in it is a cheap change of the screen
    await neighbour.until(lambda: "Your name" in neighbour.text())
    rss_before = max((mb for _, mb, _ in workers_now(port)), default=0.0)
    alone: list[float] = []
    lost: list[str] = []
    first = time.monotonic() + max(2.0, (end - time.monotonic()) / 5)
    await time_keys(chan, neighbour, first, alone, lost)
    failures: list[str] = []

    async def start(i: int, size: tuple[int, int], address: str) -> Any:
        try:
            c, h, screen = await open_screen(address, f"hostile{i}", size, False)
            await screen.until(lambda: screen.received > 2000)
            return c, h
        except (OSError, asyncssh.Error, TimeoutError) as exc:
            failures.append(f"{type(exc).__name__}: {exc}")
            return None

    hostiles = [(size, f"127.0.3.{2 + i % addresses}") for i, (size, _) in enumerate(HOSTILE)]
    started = await asyncio.gather(*(start(i, *h) for i, h in enumerate(hostiles)))
    hostile = [h for h in started if h is not None]
    layout = workers_now(port)
    sent = [0]
    beside: list[float] = []
    peak = [max((mb for _, mb, _ in layout), default=0.0)]

    async def sample() -> None:
        while time.monotonic() < end:
            peak[0] = max([peak[0], *(mb for _, mb, _ in workers_now(port))])
            await asyncio.sleep(0.5)

    await asyncio.gather(
        time_keys(chan, neighbour, end, beside, lost),
        sample(),
        *(hold_keys(h, end, sent) for _, h in hostile),
    )
    for c, _ in hostile:
        c.close()
    await asyncio.sleep(5)  # a worker hands memory back as its sessions end
    after = workers_now(port)
    conn.close()
    return {
        "neighbour alone p50 / p99": percentiles(alone),
        "neighbour beside hostile p50 / p99": percentiles(beside),
        **({"neighbour's keys unanswered 10 s": len(lost)} if lost else {}),
        "neighbour's session closed": neighbour.closed.is_set(),
        "hostile sessions": len(hostile),
        **({"hostile sessions refused": failures[:2]} if failures else {}),
        "hostile keys sent": sent[0],
        "sessions a worker": sorted((n for _, _, n in layout), reverse=True),
        "worker RSS MB before / peak / after": f"{rss_before:.0f} / {peak[0]:.0f} / "
        f"{max((mb for _, mb, _ in after), default=0.0):.0f}",
    }


async def hostile_neighbours_two_addresses(url: str, end: float) -> dict[str, Any]:
    """Item 33.7 as the issue ran it: the 7 hostile sessions from 2 addresses."""
    return await hostile_neighbours(url, end, addresses=2)


ATTACKS = {
    "33.7 hostile neighbours": hostile_neighbours,
    "33.7 hostile neighbours, two addresses": hostile_neighbours_two_addresses,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ssh-port", type=int, required=True)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--addresses", type=int, default=4, help="the hostile sessions' (1-7)")
    args = parser.parse_args()
    attack_ssh.SSH_PORT = args.ssh_port
    end = time.monotonic() + args.seconds
    result = asyncio.run(hostile_neighbours("", end, args.addresses))
    for name, value in result.items():
        print(f"{name}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
