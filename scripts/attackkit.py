"""What every attack script shares: a client that poses as an address and says hello."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect


def pack(message: dict[str, Any]) -> bytes:
    return msgpack.packb(message)


async def open_ws(url: str, address: str) -> ClientConnection:
    return await connect(
        url,
        additional_headers={"X-Forwarded-For": address},
        max_size=None,
        compression=None,
        open_timeout=20,
    )


async def hello(ws: ClientConnection, name: str, token: str | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"t": "hello", "v": 1, "name": name}
    if token:
        message["token"] = token
    await ws.send(pack(message))
    return await until(ws, lambda m: m["t"] in ("welcome", "error"))


async def until(ws: ClientConnection, match: Callable[[dict], bool], timeout: float = 20) -> dict:
    async with asyncio.timeout(timeout):
        while True:
            message = msgpack.unpackb(await ws.recv(), strict_map_key=False)
            if match(message):
                return message


async def request(ws: ClientConnection, rid: int, t: str, **fields: Any) -> dict:
    """Send message `t` with request id `rid`; its answer (`re` = `rid`)."""
    await ws.send(pack({"t": t, "id": rid, **fields}))
    return await until(ws, lambda m: m.get("re") == rid)
