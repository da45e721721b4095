"""A client-side process of scripts/bench_tables.py: the players of some tables, or the lobby.

Run by the bench as `python scripts/tablehelper.py CONFIG` (JSON), and told what to do
by lines on its stdin, answering in lines of JSON (bench_sessions.py's `Helper`):
- players: opens the seats of its tables (SSH, or the browser door for the players
  in `web`) at 80×24; "setup" makes and fills each table in turn with keys and
  starts its game (its players play from then on); "measure" starts the window,
  "report" ends it and answers what was measured in it;
- lobby: `lobby` sessions, all but `probes` of them counting bytes only; on "measure"
  the probes open the help (F1) and close it (q) at a person's pace, each key timed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import pathlib
import random
import sys
import time
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from websockets.asyncio.client import connect  # noqa: E402

from scripts.bench_sessions import address, commands, open_session, open_waves, say  # noqa: E402
from scripts.tablekit import Keyboard, Record, Seat, Table, set_up  # noqa: E402
from tests.server.pageclient import PageClient  # noqa: E402
from tests.server.sshterm import F1  # noqa: E402


async def open_page(port: int, name: str) -> PageClient:
    """A browser-door session (what page.js does), from the player's own loopback address."""
    ws = await connect(
        f"ws://127.0.0.1:{port}/ws?cols=80&rows=24",
        origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
        subprotocols=["modernart.v1"],  # type: ignore[list-item]
        max_size=None,
        local_addr=(address(name), 0),
    )
    page = PageClient(ws)
    await page.wait_text("Rooms", timeout=120)
    return page


async def open_player(config: dict[str, Any], player: int) -> tuple[Any, str]:
    """(terminal, door) of player `player` (global number: table * 4 + seat)."""
    name = f"s{player}"
    if player in config["web"]:
        return await open_page(config["web_port"], name), "web"
    term, _, why = await open_session(config["ssh_port"], name, crowd=False)
    if term is None:
        raise AssertionError(f"{name} did not reach the lobby: {why}")
    return term, "ssh"


async def players(config: dict[str, Any], lines: asyncio.Queue[str]) -> None:
    record = Record()
    url = f"ws://127.0.0.1:{config['port']}/"
    numbers = [t * 4 + s for t in config["tables"] for s in range(4)]
    opened: dict[int, tuple[Any, str]] = {}
    failed: list[str] = []
    for i in range(0, len(numbers), 10):  # in waves, as bench_sessions opens them
        wave = numbers[i : i + 10]
        got = await asyncio.gather(*(open_player(config, n) for n in wave), return_exceptions=True)
        for n, item in zip(wave, got, strict=True):
            if isinstance(item, BaseException):
                failed.append(f"s{n}: {item!r}"[:300])
            else:
                opened[n] = item
    say({"ready": len(opened), "failed": failed})
    tables: list[Table] = []
    tasks: list[asyncio.Task[None]] = []
    start = end = 0.0
    while line := await lines.get():
        if line == "setup":
            began, failed = time.monotonic(), []
            for t in config["tables"]:
                if any(t * 4 + s not in opened for s in range(4)):
                    failed.append(f"table {t}: a seat's session did not open")
                    continue
                table = Table(t, record)
                for s in range(4):
                    term, door = opened[t * 4 + s]
                    rng = random.Random(f"{config['seed']}-{t}-{s}")
                    table.seats.append(Seat(term, door, table, s, rng))
                try:
                    await set_up(table, url, f"s{t * 4}")
                except (AssertionError, TimeoutError, ValueError, OSError) as exc:
                    failed.append(f"table {t}: {exc!r}"[:600])
                    table.close()
                    continue
                tables.append(table)
                tasks += [asyncio.create_task(seat.play()) for seat in table.seats]
            say({"set": len(tables), "failed": failed, "seconds": time.monotonic() - began})
        elif line == "measure":
            start = time.monotonic()
            say({"measuring": len(tables)})
        elif line == "report":
            end = time.monotonic()
            crashed = await stopped(tasks)
            for table in tables:
                table.close()
            over = sum(1 for table in tables if table.over)
            say({"report": record.window(start, end), "crashed": crashed, "over": over})
    for term, _ in opened.values():
        close(term)


async def stopped(tasks: list[asyncio.Task[None]]) -> list[str]:
    """Cancel `tasks`: what any of them failed with (not the cancel)."""
    for task in tasks:
        task.cancel()
    return [
        repr(r)[:300]
        for r in await asyncio.gather(*tasks, return_exceptions=True)
        if isinstance(r, BaseException) and not isinstance(r, asyncio.CancelledError)
    ]


def close(term: Any) -> None:
    if isinstance(term, PageClient):
        asyncio.get_running_loop().create_task(term.ws.close())
    elif getattr(term, "chan", None) is not None:
        term.chan.close()


async def probe(term: Any, keys: Keyboard, rng: random.Random) -> None:
    """F1 (the help opens), q (it closes), at a person's pace, for ever."""
    while True:
        for key, shown in ((F1, True), ("q", False)):
            await asyncio.sleep(rng.uniform(1.0, 4.0))  # a person's pace: the point
            keys.press(key)
            await term.wait(lambda s=shown: ("Escape closes" in term.text()) == s, "help", 30)


async def lobby(config: dict[str, Any], lines: asyncio.Queue[str]) -> None:
    record = Record()
    first, count, probes = config["first"], config["lobby"], config["probes"]
    names = [f"s{first + i}" for i in range(count)]
    crowd = await open_waves(config["ssh_port"], names[probes:], 10, crowd=True)
    opened = await open_waves(config["ssh_port"], names[:probes], 10, crowd=False)
    terms = opened["terms"]
    failed = crowd["why"] + opened["why"]
    say({"ready": len(crowd["terms"]) + len(terms), "failed": failed})
    tasks: list[asyncio.Task[None]] = []
    keyboards: list[Keyboard] = []
    start = 0.0
    while line := await lines.get():
        if line == "measure":
            start = time.monotonic()
            for i, term in enumerate(terms):
                keyboards.append(keys := Keyboard(term, "lobby", record, f"lobby{i}"))
                rng = random.Random(f"{config['seed']}-lobby-{i}")
                tasks.append(asyncio.create_task(probe(term, keys, rng)))
            say({"measuring": len(terms)})
        elif line == "report":
            end = time.monotonic()
            crashed = await stopped(tasks)
            for keys in keyboards:
                keys.expire()
            received = sum(t.received for t in crowd["terms"])
            say({"report": record.window(start, end), "crashed": crashed, "received": received})
    for term in [*crowd["terms"], *terms]:
        with contextlib.suppress(Exception):
            term.chan.close()


async def main(config: dict[str, Any]) -> None:
    lines = await commands()
    await (players if config["role"] == "players" else lobby)(config, lines)


if __name__ == "__main__":
    asyncio.run(main(json.loads(sys.argv[1])))
