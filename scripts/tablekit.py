"""Human-paced players at Modern Art tables over the terminal doors (scripts/bench_tables.py).

A `Seat` is one player's terminal (an SSH session, or a browser-door page: a WebSocket
client speaking what page.js speaks), its screen kept by pyte. Every byte block it
receives is tapped (`Tap`) before pyte reads it: the arrival time answers the keys
sent since the last arrival (key → first changed cells on the wire), and the rows pyte
marked dirty are searched for the auction box's "High bid: N by …" line
(tui/modernart/auction.py `describe`), so that each seat notes when its screen first
shows a new high bid. A `Table` is four seats and a WebSocket spectator of their room,
which says whose decision it is; each seat then thinks like a person (uniform 1–4 s,
seeded) and types its decision, amounts digit by digit, and shouts raises in open
auctions until it drops out.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.server.sshterm import DOWN, UP
from tests.server.wsclient import Client

CTRL_HOME = "\x1b[1;5H"  # the lobby's list: the cursor to the first room
CTRL_U = "\x15"  # the amount entry: delete what is left of the cursor
TRACE = bool(os.environ.get("BENCH_TABLES_TRACE"))  # each seat's keys on stderr
LOST_S = 5.0  # a key with no bytes back within this is lost
HIGH = re.compile(r"High bid: (\d+) by ")
BOUNDS = re.compile(r"(Your bid|Secret bid|Price) (\d+)–(\d+):\s*(\S*)")


@dataclass
class Record:
    """What a helper process measured, each sample stamped with when it began
    (time.monotonic, one clock for every process of the machine)."""

    keys: dict[str, list[tuple[float, float]]] = field(default_factory=dict)  # door → samples
    lost: list[float] = field(default_factory=list)  # keys never answered
    spreads: list[tuple[float, float]] = field(default_factory=list)  # (first shown, spread)
    partial: list[float] = field(default_factory=list)  # high bids some screen never showed

    def key(self, door: str, t0: float, seconds: float) -> None:
        self.keys.setdefault(door, []).append((t0, seconds))

    def window(self, start: float, end: float) -> dict[str, Any]:
        """The samples that began in [start, end), as plain lists for JSON."""

        def within(samples: list[tuple[float, float]]) -> list[float]:
            return [v for t, v in samples if start <= t < end]

        return {
            "keys": {door: within(samples) for door, samples in self.keys.items()},
            "lost": sum(1 for t in self.lost if start <= t < end),
            "spreads": within(self.spreads),
            "partial": sum(1 for t in self.partial if start <= t < end),
        }


class Tap:
    """Stands in for a terminal's pyte stream: notes each arrival, then feeds pyte."""

    def __init__(self, inner: Any, arrived: Callable[[float], None]) -> None:
        self.inner, self.arrived = inner, arrived

    def feed(self, data: bytes) -> None:
        now = time.monotonic()
        self.inner.feed(data)
        self.arrived(now)


class Keyboard:
    """A terminal's keys, each timed to the first bytes that arrive after it."""

    def __init__(self, term: Any, door: str, record: Record, name: str = "") -> None:
        self.term, self.door, self.record, self.name = term, door, record, name
        self.pending: list[tuple[float, str]] = []  # (sent at, key)
        self.listeners: list[Callable[[float], None]] = []
        term.stream = Tap(term.stream, self._arrived)

    def _arrived(self, now: float) -> None:
        for t0, key in self.pending:
            self.record.key(self.door, t0, now - t0)
            if TRACE and now - t0 > 0.3:
                slow = f"{self.name} {self.door} {key!r} {1000 * (now - t0):.0f} ms"
                print(f"{now:.1f} slow key: {slow}", file=sys.stderr)
        self.pending.clear()
        for listener in self.listeners:
            listener(now)

    def press(self, keys: str) -> None:
        self.expire()
        self.pending.append((time.monotonic(), keys))
        self.term.send(keys)

    def expire(self) -> None:
        """The keys that had no answer for LOST_S are lost (their answer, if it comes,
        is another's)."""
        now = time.monotonic()
        self.record.lost += [t0 for t0, _ in self.pending if now - t0 > LOST_S]
        self.pending = [(t0, key) for t0, key in self.pending if now - t0 <= LOST_S]

    async def changed(self, timeout: float) -> None:
        """Until the screen next changes (or `timeout`)."""
        self.term.changed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.term.changed.wait(), timeout)


async def join_room(term: Any, room: str, timeout: float = 90) -> None:
    """Join `room` from the lobby with keys, as a person does: move the cursor (the row
    marked ▶) to the room's row, Enter. Waiting rooms are listed first, newest first."""
    async with asyncio.timeout(timeout):
        while "Waiting room" not in term.text():
            lines = term.screen.display
            target = [y for y, line in enumerate(lines) if room in line]
            mark = [y for y, line in enumerate(lines) if "▶" in line]
            before = marked(lines)
            if target and mark:
                step = target[0] - mark[0]
                term.send("\r" if step == 0 else UP if step < 0 else DOWN)
            elif mark:  # not on this page of the list: from the top
                term.send(CTRL_HOME)
            # As a person does: the next key once this one shows (the cursor on another
            # room), not on a guess; a list redrawn meanwhile keeps the cursor on its room.
            with contextlib.suppress(TimeoutError):
                while marked(term.screen.display) == before and "Waiting room" not in term.text():
                    term.changed.clear()
                    await asyncio.wait_for(term.changed.wait(), 30)


def marked(lines: list[str]) -> str:
    """The name of the room the lobby's cursor (▶) is on ("" if none)."""
    for line in lines:
        if "▶" in line:
            return line.split("▶", 1)[1].split("  ", 1)[0].strip()
    return ""


class Table:
    """A room's four seats and the spectator that tells them whose decision it is."""

    def __init__(self, number: int, record: Record) -> None:
        self.number, self.record = number, record
        self.seats: list[Seat] = []
        self.view: dict[str, Any] = {}
        self.seq = 0
        self.lots: list[tuple] = []  # the auctions' lots, in order (a high bid's auction)
        self.sightings: dict[tuple[tuple, int], dict[int, float]] = {}
        self._news = asyncio.Event()
        self.spectator: Client | None = None
        self.reader: asyncio.Task[None] | None = None

    @property
    def over(self) -> bool:
        return self.view.get("status") == "finished" or self.view.get("phase") == "over"

    def lot(self) -> tuple:
        lot = self.view.get("lot") or {}
        return (*lot.get("cards", ()), lot.get("seller"))

    async def watch(self, url: str, room_name: str) -> None:
        self.spectator = await Client.hello(url, f"eye{self.number}")
        await self.spectator.send("rooms")
        rooms = (await self.spectator.expect("rooms", 60))["rooms"]
        (room,) = [r for r in rooms if r["name"] == room_name]
        await self.spectator.send("watch", room=room["id"])
        await self.spectator.expect("joined", 60)
        self.reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        assert self.spectator is not None
        while True:
            msg = await self.spectator.next_update(timeout=3600)
            self.view, self.seq = msg["view"], msg["seq"]
            if self.view.get("phase") in ("open", "once_around"):
                lot = self.lot()
                if not self.lots or self.lots[-1] != lot:
                    self.lots.append(lot)
            self.spectator.received.clear()  # nothing kept: a long run
            self.spectator.frames.clear()
            news, self._news = self._news, asyncio.Event()
            news.set()

    async def news(self, timeout: float) -> None:
        """Until the spectator's next update (or `timeout`)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._news.wait(), timeout)

    async def until(self, ok: Callable[[], bool], timeout: float = 60) -> None:
        async with asyncio.timeout(timeout):
            while not ok():
                await self.news(timeout)

    def shown(self, seat: int, amount: int, now: float) -> None:
        """Seat `seat`'s screen shows the high bid `amount` since `now`: of the spectator's
        last auction, or of the one before if a late screen still shows its last bid."""
        if not self.lots:
            return
        key = (self.lots[-1], amount)
        seen = self.sightings.get(key)
        if seen is not None and seat in seen:
            return
        if seen is None and len(self.lots) > 1:
            older = self.sightings.get((self.lots[-2], amount))
            if older is not None and seat not in older and len(older) < len(self.seats):
                key = (self.lots[-2], amount)
        seen = self.sightings.setdefault(key, {})
        seen[seat] = now
        if len(seen) == len(self.seats):
            self.record.spreads.append((min(seen.values()), now - min(seen.values())))

    def close(self) -> None:
        """The high bids some screen never showed (a newer one came first) and the keys
        never answered are counted."""
        for seat in self.seats:
            seat.keys.expire()
        recent = time.monotonic() - 1.0  # a bid of the last second may still be drawing
        for seen in self.sightings.values():
            if len(seen) < len(self.seats) and min(seen.values()) < recent:
                self.record.partial.append(min(seen.values()))
        self.sightings.clear()
        if self.reader is not None:
            self.reader.cancel()


def seated_at_least(text: str, seated: int) -> bool:
    found = re.search(r"Waiting room: (\d)/4 seated", text)
    return found is not None and int(found[1]) >= seated


async def set_up(table: Table, url: str, host: str) -> None:
    """The host makes the room with keys, the others join it from the lobby one by one
    (so that each takes the next seat), the host starts the game."""
    term, room = table.seats[0].term, f"{host}'s table"
    term.send("c")
    await term.wait_text("Create a room", timeout=60)
    term.send("\x13")  # ctrl+s: the defaults (Modern Art, 4 seats)
    await term.wait_text("You host", timeout=60)
    await table.watch(url, room)
    for seated, seat in enumerate(table.seats[1:], start=2):
        await join_room(seat.term, room)
        # At least: on a busy machine the next one's join can be drawn in the same frame.
        await term.wait(lambda n=seated: seated_at_least(term.text(), n), f"{seated}/4", 60)
    term.send("s")
    await table.until(lambda: table.view.get("status") == "playing")


class Seat:
    """One human player at a table: reads the table, thinks, types."""

    def __init__(self, term: Any, door: str, table: Table, seat: int, rng: random.Random) -> None:
        self.term, self.door, self.table, self.seat, self.rng = term, door, table, seat, rng
        self.keys = Keyboard(term, door, table.record, f"t{table.number}.{seat}")
        self.keys.listeners.append(self._look_for_high_bid)
        self.high: int | None = None  # the high bid on the screen, and its row
        self.high_row: int | None = None

    def _look_for_high_bid(self, now: float) -> None:
        screen = self.term.screen
        for y in sorted(screen.dirty):
            row = screen.buffer[y]
            found = HIGH.search("".join(row[x].data for x in range(screen.columns)))
            if found is None:
                if y == self.high_row:  # the auction is over: the next may repeat an amount
                    self.high = self.high_row = None
            elif int(found[1]) != self.high:
                self.high, self.high_row = int(found[1]), y
                self.table.shown(self.seat, self.high, now)
            else:
                self.high_row = y
        screen.dirty.clear()

    async def think(self) -> None:
        await asyncio.sleep(self.rng.uniform(1.0, 4.0))  # a person's pace: the point

    async def type(self, keys: list[str]) -> None:
        """Keys one after another at a typist's pace."""
        if TRACE:
            phase = self.table.view.get("phase")
            print(
                f"{time.monotonic():.1f} t{self.table.number}.{self.seat} {phase} {keys!r}",
                file=sys.stderr,
            )
        for i, key in enumerate(keys):
            if i:
                await asyncio.sleep(self.rng.uniform(0.08, 0.25))  # between two keys
            self.keys.press(key)

    async def bounds(self, timeout: float = 3.0) -> tuple[int, int, str] | None:
        """(low, high, what the entry holds) of the amount the screen asks for."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while (found := BOUNDS.search(self.term.text())) is None and loop.time() < end:
            await self.keys.changed(end - loop.time())
        return (int(found[2]), int(found[3]), found[4]) if found else None

    async def type_amount(self, amount: int, asked: tuple[int, int, str]) -> None:
        """The amount's digits, then Enter; a stale typed amount deleted first."""
        low, _, held = asked
        clear = [CTRL_U] if held.isdigit() and held != str(low) else []
        await self.type([*clear, *str(amount), "\r"])

    async def play(self) -> None:
        """Until the game ends or the task is cancelled."""
        table = self.table
        while not table.over:
            view = table.view
            if "Enter: continue" in self.term.text():  # a round's summary
                await self.think()
                await self.type(["\r"])
                await self.keys.changed(5)
            elif view.get("phase") == "open":
                await self.shout()
            elif self.seat in (view.get("to_act") or []):
                seq = table.seq
                await self.think()
                now = table.view
                if table.seq != seq and self.seat not in (now.get("to_act") or []):
                    continue
                await self.decide(now)
                await table.news(8)  # ours, or someone's; without news: decide again
            else:
                await table.news(30)

    async def decide(self, view: dict[str, Any]) -> None:
        rng, phase = self.rng, view.get("phase")
        if phase == "play":
            arrow = rng.choice(["\x1b[C", "\x1b[D"])
            await self.type([arrow] * rng.randint(0, 2) + ["\r"])
        elif phase == "offer":
            await self.type(["d"])
        elif phase == "buy":
            can = "y buys" in self.term.text()
            await self.type(["y" if can and rng.random() < 0.6 else "p"])
        elif phase in ("sealed", "price", "once_around"):
            asked = await self.bounds()
            if asked is None:
                if phase == "once_around":
                    await self.type(["p"])
                return
            low, high, _ = asked
            if phase == "once_around" and (low > high or rng.random() < 0.5):
                await self.type(["p"])
                return
            top = min(high, low + (3 if phase == "once_around" else 15))
            await self.type_amount(rng.randint(max(low, 1 if phase == "price" else 0), top), asked)

    async def until_sold(self, lot: tuple) -> None:
        table = self.table
        while table.view.get("phase") == "open" and table.lot() == lot:
            await table.news(30)

    async def shout(self) -> None:
        """An open auction: raise at a person's pace until dropping out or the hammer."""
        table, lot = self.table, self.table.lot()
        if (table.view.get("lot") or {}).get("seller") == self.seat:
            await self.until_sold(lot)
            return
        while table.view.get("phase") == "open" and table.lot() == lot:
            high = table.view.get("high") or {}
            if high.get("seat") == self.seat:
                await table.news(30)
                continue
            await self.think()
            view = table.view
            if view.get("phase") != "open" or table.lot() != lot:
                return
            if (view.get("high") or {}).get("seat") == self.seat:
                continue
            asked = await self.bounds()
            if self.rng.random() < 0.25 or asked is None or asked[0] > asked[1]:
                await self.type(["p"])  # drops out of this auction
                await self.until_sold(lot)
                return
            low = max(asked[0], (view.get("high") or {}).get("amount", 0) + 1)
            if low > asked[1]:
                continue
            await self.type_amount(min(asked[1], low + self.rng.randint(0, 3)), asked)
