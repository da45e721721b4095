"""Issue 33's attacks on names (items 1 and 8), in scripts/attack.py's shape:
`async def attack(url, end) -> dict`, against a server started with `--trust-proxy`
(the attackers pose as many addresses through X-Forwarded-For).

- 33.1: hold `zz`, `zz2`, … through new identities from many addresses (the
  default burst of new identities per address), then rename to `zz` from one
  connection ten times a second: each rename's answer is timed. The old server
  tried `zz2` … `zz9999` in its loop for every one of them.
- 33.8: beside a live `alice`, an offline `carol` and a room with a real bot, try
  every look-alike of issue 33 as a new identity's name, and a seated player's
  name once they have renamed; reports which were accepted.
"""

from __future__ import annotations

import asyncio
import itertools
import statistics
import time
from typing import Any

from attackkit import hello, open_ws, pack, request, until
from websockets.asyncio.client import ClientConnection

BURST = 20  # new identities an address may make at once (server/limits.py)
HOLDERS = 50  # addresses making them at the same time
RENAMES_PER_S = 10


async def _hello(url: str, address: str, name: str) -> tuple[ClientConnection, dict]:
    ws = await open_ws(url, address)
    return ws, await hello(ws, name)


async def rename_suggestions(url: str, end: float) -> dict[str, Any]:
    """33.1: many `zz` names held, then renames to `zz` from one connection."""
    hold_until = time.monotonic() + (end - time.monotonic()) * 0.6
    numbers = itertools.count(1)
    held = 0

    async def holder(k: int) -> None:
        nonlocal held
        for a in itertools.count():
            address = f"10.33.{k}.{a % 250 + 1}"
            for _ in range(BURST):
                if time.monotonic() >= hold_until:
                    return
                n = next(numbers)
                ws, answer = await _hello(url, address, "zz" if n == 1 else f"zz{n}")
                await ws.close()
                held += answer["t"] == "welcome"

    await asyncio.gather(*(holder(k) for k in range(HOLDERS)))
    ws, _ = await _hello(url, "10.34.0.1", "renamer")
    times, suggested, bare, rids = [], 0, 0, itertools.count(1)
    while time.monotonic() < end:
        began = time.monotonic()
        answer = await request(ws, next(rids), "rename", name="zz")
        times.append(time.monotonic() - began)
        suggested += "suggestion" in answer
        bare += answer.get("code") == "name_taken" and "suggestion" not in answer
        await asyncio.sleep(max(0.0, 1 / RENAMES_PER_S - (time.monotonic() - began)))
    await ws.close()
    ms = sorted(t * 1000 for t in times) or [0.0]
    return {
        "zz names held": held,
        "renames": len(times),
        "with a suggestion": suggested,
        "without": bare,
        "rename answer p50/max ms": f"{statistics.median(ms):.1f} / {ms[-1]:.1f}",
    }


LOOK_ALIKES = [
    "\u0430\u04cf\u0456\u0441\u0435",  # аӏісе (alice is online)
    "ali\u03f2e",  # aliϲe
    "al\u0131\u0307ce",  # alı̇ce
    "car\u043e\u04cf",  # caroӏ (carol is offline)
    "\u03f2arol",  # ϲarol
    "Otto \u276aR\u276b",  # Otto ❪R❫, beside a real bot
    "Otto (R).",
    "Otto \u00ae",
    "Server",
    "server: restart",
    "SYSTEM",
    "modernart",
    "Guest 1234",
]


async def look_alike_names(url: str, end: float) -> dict[str, Any]:
    """33.8: every look-alike tried as a new identity's name; and a seated player's
    name, once they renamed, tried by another identity."""
    alice, _ = await _hello(url, "10.35.0.1", "alice")
    carol, _ = await _hello(url, "10.35.0.2", "carol")
    await carol.close()
    host, _ = await _hello(url, "10.35.0.3", "dave")
    rid = itertools.count(1)
    await request(host, next(rid), "create", seats=3)
    for _ in range(2):
        await host.send(pack({"t": "add_bot", "level": "random"}))
    await host.send(pack({"t": "start"}))
    await until(host, lambda m: m["t"] in ("update", "error"))
    await request(host, next(rid), "leave")  # the seat stays dave's, shown as "dave"
    renamed = await request(host, next(rid), "rename", name="dave2")
    accepted, refused = [], []
    for i, name in enumerate([*LOOK_ALIKES, "dave"]):
        ws, answer = await _hello(url, f"10.35.1.{i + 1}", name)
        await ws.close()
        (accepted if answer["t"] == "welcome" else refused).append(name)
    await alice.close()
    await host.close()
    while time.monotonic() < end:
        await asyncio.sleep(0.2)
    return {
        "accepted": accepted,
        "refused": len(refused),
        "seated dave renamed": renamed.get("name", renamed.get("code")),
    }


ATTACKS = {
    "33.1 rename suggestions": rename_suggestions,
    "33.8 look-alike names": look_alike_names,
}
