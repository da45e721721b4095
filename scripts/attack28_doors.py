"""The attack of issue 28 on the doors' per-address limit, run by scripts/attack.py like
its own (the server has the browser door on a free port and trusts X-Forwarded-For).

- "28.3 reload loop": from one address, 7 browsers (new identities) stay connected, an
  8th reloads its page as fast as it can (its cookie again, each time before its old
  socket is gone), then a 9th new browser tries. The limit counts identities, so each
  reload replaces its session and the 9th is refused; the start rate (10 a minute) still
  caps the loop. It reports the sessions admitted and refused (by reason) and the most
  sockets of the reloading browser ever open at once ("loop sessions at once": at most 2,
  the new one and the old one being closed; the server holds 1).

Against a server before issue 28 (`--server-src` of an older tree) the address's 5th
session is refused ("at most 4"): the household and every reload are turned away.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from typing import Any

from attack33_web import web_port
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

WEB_PORT = 0  # set by attack.py in the attack's process
SSH_PORT = 0
ADDRESS = "203.0.113.28"  # the household's address (X-Forwarded-For), no other attack's


async def visit(port: int, cookie: str | None = None) -> tuple[ClientConnection | None, str]:
    """A page's WebSocket: (the socket, its cookie) once the lobby shows, or (None, why)."""
    headers = {"X-Forwarded-For": ADDRESS} | ({"Cookie": cookie} if cookie else {})
    ws = await connect(
        f"ws://127.0.0.1:{port}/ws?cols=80&rows=24",
        origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
        subprotocols=["modernart.v1"],  # type: ignore[list-item]
        additional_headers=headers,
        max_size=None,
    )
    assert ws.response is not None
    set_cookie = ws.response.headers.get("Set-Cookie")
    shown = b""
    try:
        async with asyncio.timeout(20):
            while b"Rooms" not in shown:
                frame = await ws.recv()
                if isinstance(frame, bytes):
                    shown += frame
    except (ConnectionClosed, TimeoutError):
        text = shown.decode(errors="replace")
        why = next((line for line in text.splitlines() if "Too many" in line or "full" in line), "")
        return None, why.strip() or "closed"
    return ws, set_cookie.split(";")[0] if set_cookie else (cookie or "")


async def reload_loop(url: str, end: float) -> dict[str, Any]:
    port = web_port() or WEB_PORT
    if not port:
        return {"skipped": "no browser door (WEB_PORT)"}
    counts: Counter[str] = Counter()
    held: list[ClientConnection] = []
    for _ in range(7):
        ws, said = await visit(port)
        counts["household admitted" if ws else f"household refused: {said}"] += 1
        if ws is not None:
            held.append(ws)
    first, cookie = await visit(port)
    loop_open = [first] if first is not None else []
    most = len(loop_open)
    while first is not None and time.monotonic() < end:
        ws, said = await visit(port, cookie)
        if ws is None:
            counts[f"reload refused: {said}"] += 1
            if "wait a minute" in said:
                break  # the start rate: the loop is capped
            continue
        counts["reload admitted"] += 1
        loop_open = [w for w in loop_open if w.close_code is None] + [ws]
        most = max(most, len(loop_open))
    ninth, said = await visit(port)
    counts["9th identity admitted" if ninth else f"9th identity refused: {said}"] += 1
    for ws in held + loop_open + ([ninth] if ninth else []):
        with contextlib.suppress(Exception):
            await ws.close()
    return dict(counts) | {"loop sessions at once": most}


ATTACKS = {"28.3 reload loop": reload_loop}
